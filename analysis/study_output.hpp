// Shared by the stream studies (accuracy, drift, overflow): NaN-free numbers, gnuplot multiplots.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace cosda {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0);

// A finite number for a result file; otherwise throws std::logic_error naming `what`.
std::string num(double x, const std::string& what);

// Panels side by side (gnuplot multiplot), each panel's data as inline datablocks, then its
// settings and one plot command. Empty series and panels are left out: no empty figure is drawn.
class Multiplot {
 public:
  // `title`: the figure's; `settings`: what every panel shares.
  Multiplot(std::string title, std::string settings)
      : title_(std::move(title)), settings_(std::move(settings)) {}
  // Adds datablock $name and a plot clause drawing it to the current panel; none if `rows` empty.
  void series(const std::string& name, const std::vector<std::vector<std::string>>& rows,
              const std::string& clause);
  // Ends the current panel: `settings` (its title, ...), then its series; a panel without
  // series is dropped. `reset`: settings undone after it (e.g. "unset arrow").
  void end_panel(const std::string& settings, const std::string& reset = "");
  // Writes the PNG (`panel_width` px per panel) and .gp script; false, writing nothing, if no data.
  bool render(const std::filesystem::path& png, int panel_width, int height) const;

 private:
  std::string title_, settings_, data_, plot_;
  std::vector<std::string> panels_;
};

}  // namespace cosda
