// Figures through gnuplot (Debian package gnuplot-nox, terminal pngcairo).
//
// A figure is a gnuplot script whose data sits in inline datablocks ($name << EOD), so the
// script saved next to the PNG re-draws it alone: `gnuplot FIG.gp`. The PNG is drawn to a
// temporary file in the same folder and renamed into place, so a failed run leaves no partial
// figure.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cosda {

// "$name << EOD\n<rows>EOD\n": rows of whitespace-separated columns.
std::string datablock(const std::string& name, const std::vector<std::vector<std::string>>& rows);

// Writes `png` (width x height pixels) from the script body (everything after `set output`),
// and saves the full script as the same path with extension .gp. Throws std::runtime_error
// naming the figure if gnuplot is missing or fails.
void render_png(const std::filesystem::path& png, const std::string& body, int width = 1200,
                int height = 800);

// Text for gnuplot string literals (single quotes doubled).
std::string gp_quote(const std::string& s);

}  // namespace cosda
