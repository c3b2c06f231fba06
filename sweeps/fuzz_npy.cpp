// libFuzzer target for parse_npy(), run by `make fuzz` (sweeps/fuzz/run.sh) on
// sweeps/fuzz/npy_seeds/ and past crashes (sweeps/fuzz/npy_regressions/, replayed by io_test).
// Besides the sanitizers it aborts unless parse_npy() throws only InputError, each message is
// one line starting with "<name>: ", and an accepted array is consistent (data size = product
// of the shape, values finite) and survives encode_npy() -> parse_npy() unchanged.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "io/errors.hpp"
#include "io/npy.hpp"

namespace {

constexpr std::string_view kName = "fuzz.npy";

void check(bool condition) {
  if (!condition) std::abort();
}

void check_accepted(const cosda::NpyArray& array) {
  std::size_t count = 1;
  for (const std::size_t dim : array.shape) count *= dim;  // parse_npy guarantees no overflow
  check(count == array.data.size());
  for (const double value : array.data) check(std::isfinite(value));

  const std::string encoded = cosda::encode_npy(array.shape, array.data, array.float32);
  const cosda::NpyArray again = cosda::parse_npy(encoded, kName);
  check(again.shape == array.shape);
  check(again.float32 == array.float32);
  check(again.data == array.data);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    check_accepted(cosda::parse_npy(bytes, kName));
  } catch (const cosda::InputError& error) {
    const std::string_view message = error.what();
    check(message.find('\n') == std::string_view::npos);
    check(message.substr(0, kName.size() + 2) == std::string(kName) + ": ");
  }
  return 0;
}
