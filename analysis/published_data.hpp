// Internal to analysis/published*.cpp: the transcription's tables, searched by published.hpp.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "analysis/published.hpp"

namespace cosda::published::data {

template <class T>
struct Keyed {
  std::string_view id;
  T value;
};

// The variant each Appendix A and B item 1)-9) describes, in item order (published.cpp).
std::span<const std::string_view> appendix_ids();
// The items themselves, in the same order (published_appendix.cpp).
const std::vector<Published>& appendix_a();
const std::vector<Published>& appendix_b_valley();
const std::vector<Published>& appendix_b_peak();

const std::vector<Keyed<Orders>>& table1();
const std::vector<Keyed<std::vector<TableRow>>>& cotrans_rows();
const std::vector<Keyed<MulAddExp>>& cotrans_text();

}  // namespace cosda::published::data
