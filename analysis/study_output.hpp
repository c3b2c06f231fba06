// Output pieces shared by the stream studies (accuracy, drift, overflow): numbers that never
// let a NaN into a result file, multi-panel gnuplot figures, and the elapsed time they report.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace cosda {

using Clock = std::chrono::steady_clock;

// Seconds since t0.
double seconds_since(Clock::time_point t0);

// A finite number for a result file; throws std::logic_error naming `what` otherwise, so no
// NaN or infinity is ever written silently.
std::string num(double x, const std::string& what);

// A figure of panels side by side (gnuplot multiplot): each panel's data as inline
// datablocks, then its settings and one plot command of all its series. A series without rows
// and a panel without series are left out, so an empty figure is never drawn.
class Multiplot {
 public:
  // `title`: the figure's; `settings`: what every panel shares.
  Multiplot(std::string title, std::string settings)
      : title_(std::move(title)), settings_(std::move(settings)) {}
  // Adds datablock $name and a plot clause that draws it to the current panel; nothing when
  // `rows` is empty.
  void series(const std::string& name, const std::vector<std::vector<std::string>>& rows,
              const std::string& clause);
  // Ends the current panel: `settings` (its title, ...), then its series; a panel without
  // series is dropped. `reset`: settings undone after it (e.g. "unset arrow").
  void end_panel(const std::string& settings, const std::string& reset = "");
  std::size_t panels() const { return panels_.size(); }
  // Writes the PNG (`panel_width` pixels per panel) and its .gp script (render_png); returns
  // false and writes nothing when no panel has data.
  bool render(const std::filesystem::path& png, int panel_width, int height) const;

 private:
  std::string title_, settings_, data_, plot_;
  std::vector<std::string> panels_;
};

}  // namespace cosda
