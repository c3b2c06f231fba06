// CSV cells and lines as every results file writes and reads them (RFC 4180 quoting, one
// record per line, no embedded line breaks).
#pragma once

#include <string>
#include <vector>

namespace cosda {

// The cell as written: quoted (quotes doubled) when it holds a comma, a quote or a newline.
std::string csv_field(const std::string& s);

// The cells of one line, quotes undone.
std::vector<std::string> split_csv(const std::string& line);

}  // namespace cosda
