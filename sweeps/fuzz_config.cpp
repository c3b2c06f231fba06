// libFuzzer target for parse_config(), run by `make fuzz` (sweeps/fuzz/run.sh) on configs/,
// sweeps/fuzz/config_seeds/ and past failures (sweeps/fuzz/config_regressions/). Besides the
// sanitizers it aborts unless parse_config() throws only InputError, each message is one line
// starting with "<name>", and an accepted config has a name and a grid that expands.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "io/errors.hpp"
#include "sweeps/config.hpp"

namespace {

constexpr std::string_view kName = "fuzz.toml";

void check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const cosda::SweepConfig c = cosda::parse_config(text, std::string(kName));
    check(!c.name.empty());
    // Keep grids the fuzzer can build small; their size is not what is fuzzed here.
    std::size_t points = 0;
    for (const cosda::SweepGrid& g : c.grids)
      points += g.variants.size() * g.n.size() * g.d.size() * g.m.size() * g.layers.size() *
                g.heads.size();
    if (points < 4096) (void)cosda::grid_points(c);
  } catch (const cosda::InputError& error) {
    const std::string_view message = error.what();
    check(message.find('\n') == std::string_view::npos);
    check(message.substr(0, kName.size()) == kName);
  }
  return 0;
}
