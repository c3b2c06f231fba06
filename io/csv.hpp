// CSV cells and lines of every results file (RFC 4180 quoting, one record per line).
#pragma once

#include <string>
#include <vector>

namespace cosda {

// A text cell: quoted (quotes doubled) when it holds a comma, quote or newline. A cell starting
// (after any single quotes) with = + - or @ gets a leading single quote ("'=x") so spreadsheets
// show text, not a formula; split_csv() removes it. Numbers are not text cells.
std::string csv_field(const std::string& s);

// The cells of one line, quotes and formula guards undone.
std::vector<std::string> split_csv(const std::string& line);

}  // namespace cosda
