// Figures through gnuplot (Debian package gnuplot-nox, terminal pngcairo).
//
// A figure is a gnuplot script whose data sits in inline datablocks ($name << EOD), so the
// script saved next to the PNG re-draws it alone: `gnuplot FIG.gp`. The PNG is drawn to a
// temporary file in the same folder and renamed into place, so a failed run leaves no partial
// figure.
//
// gnuplot is executed directly (fork and exec, no shell), and every text a script takes from
// outside the program goes through gp_quote() or gp_comment(): gnuplot expands backquotes and
// runs `!` and system() lines, so a title such as "`rm -rf ~`" must stay text.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cosda {

// "$name << EOD\n<rows>EOD\n": rows of whitespace-separated columns.
std::string datablock(const std::string& name, const std::vector<std::vector<std::string>>& rows);

// Writes `png` (width x height pixels) from the script body (everything after `set output`),
// and saves the full script as the same path with extension .gp. Throws std::runtime_error
// naming the figure and the cause (gnuplot's exit status and its own message, or an image not
// complete to its IEND chunk) if gnuplot is missing or fails.
void render_png(const std::filesystem::path& png, const std::string& body, int width = 1200,
                int height = 800);

// A gnuplot single-quoted string literal holding `s` as text: no substitution happens inside
// single quotes, quotes are doubled, and line breaks and other control characters (which would
// end the command) become spaces.
std::string gp_quote(const std::string& s);

// `s` for a `#` comment line of a script: line breaks and other control characters become
// spaces, so the comment cannot end early.
std::string gp_comment(const std::string& s);

// Whether an executable `gnuplot` is on PATH (searched without a shell).
bool gnuplot_available();

struct GnuplotRun {
  int status = -1;     // exit status; 127 when gnuplot could not be started
  std::string output;  // its stdout and stderr
};

// Runs gnuplot with `args` in the folder `workdir` (the child changes into it), with `script`
// on its standard input; no shell is involved. Never throws for a failing gnuplot.
GnuplotRun run_gnuplot(const std::filesystem::path& workdir, const std::vector<std::string>& args,
                       const std::string& script = "");

}  // namespace cosda
