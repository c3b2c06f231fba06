#include "sweeps/shard.hpp"

#include <stdexcept>

#include "io/errors.hpp"

namespace cosda {

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  auto fail = [&] {
    throw InputError("cosda sweep: --shard " + text +
                     " is not K/N with 1 <= K <= N, e.g. --shard 2/8 for the second of 8 slices");
  };
  if (slash == std::string::npos) fail();
  Shard s;
  try {
    std::size_t u1 = 0, u2 = 0;
    s.k = std::stoi(text.substr(0, slash), &u1);
    s.n = std::stoi(text.substr(slash + 1), &u2);
    if (u1 != slash || u2 != text.size() - slash - 1) fail();
  } catch (const std::logic_error&) {
    fail();
  }
  if (s.n < 1 || s.k < 1 || s.k > s.n) fail();
  return s;
}

}  // namespace cosda
