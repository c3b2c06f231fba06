// Figures through gnuplot (package gnuplot-nox, terminal pngcairo). A figure's script holds its
// data inline ($name << EOD), so the .gp saved beside the PNG redraws it alone. The PNG is drawn
// to a temporary file and renamed into place: a failed run leaves no partial figure. gnuplot runs
// without a shell, and all outside text goes through gp_quote() or gp_comment(): gnuplot expands
// backquotes and runs `!` and system() lines, so a title "`rm -rf ~`" must stay text.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cosda {

// "$name << EOD\n<rows>EOD\n": rows of whitespace-separated columns.
std::string datablock(const std::string& name, const std::vector<std::vector<std::string>>& rows);

// Draws `png` (width x height pixels) from the script body (all after `set output`) and saves the
// full script beside it as .gp. Throws std::runtime_error naming the figure and the cause
// (gnuplot missing, its exit status and message, or an image without its IEND chunk).
void render_png(const std::filesystem::path& png, const std::string& body, int width = 1200,
                int height = 800);

// The whole script render_png() saves as .gp: the pngcairo terminal at width x height, `set
// output` to `png`, then `body`.
std::string png_script(const std::string& png, const std::string& body, int width = 1200,
                       int height = 800);

// Refuses (InputError), before any work, a command about to draw figures where gnuplot is not on
// PATH; `without` says how to run it without figures ("pass --no-figures"), or is empty.
void require_gnuplot(const std::string& command, const std::string& without);

// `s` as a gnuplot single-quoted string (no substitution inside): quotes doubled, and control
// characters, which would end the command, as spaces.
std::string gp_quote(const std::string& s);

// `s` for a `#` comment line: control characters become spaces so the comment cannot end early.
std::string gp_comment(const std::string& s);

// Blanks the /CreationDate entry of the PDF at `pdf` (spaces of the same length, so the xref
// offsets hold): a figure is then a function of its data alone, and meta.json says when it ran.
// cairo 1.16 (Debian 12) ignores SOURCE_DATE_EPOCH. Throws std::runtime_error if unreadable.
void drop_pdf_creation_date(const std::filesystem::path& pdf);

// Whether an executable `gnuplot` is on PATH (searched without a shell).
bool gnuplot_available();

struct GnuplotRun {
  int status = -1;     // exit status; 127 when gnuplot could not be started
  std::string output;  // its stdout and stderr
};

// Runs gnuplot (no shell) with `args` in `workdir`, `script` on stdin; never throws for a failure.
GnuplotRun run_gnuplot(const std::filesystem::path& workdir, const std::vector<std::string>& args,
                       const std::string& script = "");

}  // namespace cosda
