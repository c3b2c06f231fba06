// Attention over given q, k, v (cosda stream; q = k = v for self-attention), a step per row.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/calibration.hpp"
#include "analysis/measure.hpp"
#include "analysis/streams.hpp"
#include "attention/attention.hpp"

namespace cosda {

// The outputs from the first full window on, flattened in C order (step, row, feature). Throws
// std::runtime_error naming the token at the first output that is not finite.
std::vector<double> run_token_stream(const std::string& id, const Config& c, std::int64_t heads,
                                     int layers, const Qkv& x, Precision precision);

}  // namespace cosda
