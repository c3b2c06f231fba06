#include "analysis/study_output.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "io/plot.hpp"

namespace cosda {

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string num(double x, const std::string& what) {
  if (!std::isfinite(x)) throw std::logic_error("refusing to write a non-finite value for " + what);
  return fmt::format("{:.6g}", x);
}

void Multiplot::series(const std::string& name, const std::vector<std::vector<std::string>>& rows,
                       const std::string& clause) {
  script_ += datablock(name, rows);
  plot_ += (plot_.empty() ? "plot " : ", ") + clause;
}

void Multiplot::end_panel(const std::string& settings) {
  script_ += settings + (plot_.empty() ? "plot 1/0 notitle" : plot_) + "\n";
  plot_.clear();
}

void Multiplot::render(const std::filesystem::path& png, int width, int height) {
  render_png(png, script_ + "unset multiplot\n", width, height);
}

}  // namespace cosda
