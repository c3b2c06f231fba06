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
// datablocks, then its settings and one plot command of all its series.
class Multiplot {
 public:
  // `header`: "set multiplot ..." and the settings every panel shares.
  explicit Multiplot(std::string header) : script_(std::move(header)) {}
  // Adds datablock $name and a plot clause that draws it to the current panel.
  void series(const std::string& name, const std::vector<std::vector<std::string>>& rows,
              const std::string& clause);
  // Ends the current panel: `settings` (its title, ...), then its series ("plot 1/0 notitle"
  // when it has none).
  void end_panel(const std::string& settings);
  // Writes the PNG and its .gp script (render_png).
  void render(const std::filesystem::path& png, int width, int height);

 private:
  std::string script_, plot_;
};

}  // namespace cosda
