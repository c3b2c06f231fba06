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
  if (rows.empty()) return;
  data_ += datablock(name, rows);
  plot_ += (plot_.empty() ? "plot " : ", ") + clause;
}

void Multiplot::end_panel(const std::string& settings, const std::string& reset) {
  if (!plot_.empty()) panels_.push_back(settings + plot_ + "\n" + reset);
  plot_.clear();
}

bool Multiplot::render(const std::filesystem::path& png, int panel_width, int height) const {
  if (panels_.empty()) return false;
  std::string script = data_ + fmt::format("set multiplot layout 1,{} title ", panels_.size()) +
                       gp_quote(title_) + "\n" + settings_;
  for (const std::string& p : panels_) script += p;
  render_png(png, script + "unset multiplot\n", panel_width * int(panels_.size()), height);
  return true;
}

}  // namespace cosda
