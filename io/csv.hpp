// CSV cells and lines as every results file writes and reads them (RFC 4180 quoting, one
// record per line, no embedded line breaks).
#pragma once

#include <string>
#include <vector>

namespace cosda {

// A text cell as written: quoted (quotes doubled) when it holds a comma, a quote or a newline.
// A cell a spreadsheet would evaluate as a formula (first character = + - or @, possibly after
// single quotes) is written quoted with a single quote in front ("'=x"), which spreadsheets
// show as text and split_csv() removes again. Numbers are not text cells: write them as they
// are.
std::string csv_field(const std::string& s);

// The cells of one line, quotes and formula guards undone.
std::vector<std::string> split_csv(const std::string& line);

}  // namespace cosda
