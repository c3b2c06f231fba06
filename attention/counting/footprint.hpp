// The bytes a step touches (the roofline's, analysis/roofline_model.hpp): the union of the ranges
// seam ops and window writes record under Tally, each element once. A plain Eigen assignment
// outside the seam is not recorded, though the seam ops around it touch both sides.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cosda {

class Footprint {
 public:
  // Room for `ranges` ranges; when full they are merged in place, so recording allocates only if
  // the merged ranges fill it too (the heap measurement, analysis/heap.hpp, does not see it).
  void reserve(std::size_t ranges) { ranges_.reserve(ranges); }
  // Starts recording (forgetting earlier ranges); ranges are recorded only while on.
  void start() {
    on_ = true;
    ranges_.clear();
  }
  // Stops recording and returns the bytes in the union of the recorded ranges.
  std::int64_t stop() {
    on_ = false;
    merge();
    std::int64_t bytes = 0;
    for (const auto& [b, e] : ranges_) bytes += std::int64_t(e - b);
    ranges_.clear();
    return bytes;
  }
  void record(const void* p, std::int64_t bytes) {
    if (!on_ || bytes <= 0) return;
    if (ranges_.size() == ranges_.capacity() && !ranges_.empty()) merge();
    const auto b = reinterpret_cast<std::uintptr_t>(p);
    ranges_.emplace_back(b, b + std::uintptr_t(bytes));
  }

 private:
  // Sorts the ranges and joins those that overlap or touch, in place.
  void merge() {
    std::sort(ranges_.begin(), ranges_.end());
    std::size_t out = 0;
    for (std::size_t i = 0; i < ranges_.size(); ++i) {
      if (out > 0 && ranges_[i].first <= ranges_[out - 1].second)
        ranges_[out - 1].second = std::max(ranges_[out - 1].second, ranges_[i].second);
      else
        ranges_[out++] = ranges_[i];
    }
    ranges_.resize(out);
  }

  bool on_ = false;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges_;
};

// This thread's recorder (counting runs a step's heads on the calling thread).
inline Footprint& thread_footprint() {
  thread_local Footprint f;
  return f;
}

}  // namespace cosda
