#include "io/plot.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>

#include "io/atomic_file.hpp"

namespace cosda {

std::string datablock(const std::string& name, const std::vector<std::vector<std::string>>& rows) {
  std::string s = "$" + name + " << EOD\n";
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.size(); ++i) s += (i ? " " : "") + r[i];
    s += "\n";
  }
  return s + "EOD\n";
}

std::string gp_quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

void render_png(const std::filesystem::path& png, const std::string& body, int width, int height) {
  namespace fs = std::filesystem;
  const std::string head =
      fmt::format("set terminal pngcairo size {},{} font 'Sans,11' noenhanced\n", width, height);
  fs::create_directories(png.parent_path().empty() ? fs::path(".") : png.parent_path());
  const fs::path tmp =
      png.parent_path() / fmt::format(".{}.tmp.{}.png", png.filename().string(), ::getpid());
  const std::string run = head + "set output " + gp_quote(tmp.string()) + "\n" + body;
  std::FILE* p = ::popen("gnuplot", "w");
  if (p == nullptr) throw std::runtime_error("cannot start gnuplot for " + png.string());
  const bool written = std::fwrite(run.data(), 1, run.size(), p) == run.size();
  const int status = ::pclose(p);
  std::error_code ec;
  if (!written || status != 0 || !fs::is_regular_file(tmp, ec) || fs::file_size(tmp, ec) == 0) {
    fs::remove(tmp, ec);
    throw std::runtime_error(
        "gnuplot failed to draw " + png.string() +
        (status == 127 * 256 ? " (gnuplot not found; install gnuplot-nox: make deps)" : ""));
  }
  fs::rename(tmp, png);
  write_file_atomic(fs::path(png).replace_extension(".gp"),
                    head + "set output " + gp_quote(png.filename().string()) + "\n" + body);
}

}  // namespace cosda
