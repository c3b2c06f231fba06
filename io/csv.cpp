#include "io/csv.hpp"

#include <string_view>

namespace cosda {
namespace {

// Whether a spreadsheet would read the cell as a formula; a leading single quote is how a
// guarded cell starts, so a cell that already starts with one is guarded again.
bool needs_guard(std::string_view s) {
  while (!s.empty() && s.front() == '\'') s.remove_prefix(1);
  return !s.empty() && std::string_view("=+-@").find(s.front()) != std::string_view::npos;
}

}  // namespace

std::string csv_field(const std::string& s) {
  const bool guard = needs_guard(s);
  if (!guard && s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = guard ? "\"'" : "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// Splits one CSV line (RFC 4180 quoting, no embedded line breaks).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out(1);
  std::vector<bool> quoted_cell(1, false);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
      quoted_cell.back() = true;
    } else if (c == ',') {
      out.emplace_back();
      quoted_cell.push_back(false);
    } else {
      out.back() += c;
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    if (quoted_cell[i] && !out[i].empty() && out[i].front() == '\'' &&
        needs_guard(std::string_view(out[i]).substr(1)))
      out[i].erase(0, 1);
  return out;
}

}  // namespace cosda
