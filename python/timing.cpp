// cosda.time_step(): wall-clock seconds per step, timeit-style: Plain<T> over seeded tokens, the
// window filled and `number` warm-up steps run, then each of `repeat` runs of `number` steps timed
// (timeit.repeat(number=...) / number). Ctrl-C stops it (python/interrupts.hpp).
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

#include "models/multi_head.hpp"
#include "python/bindings.hpp"
#include "python/interrupts.hpp"
#include "python/stream_args.hpp"
#include "sweeps/count.hpp"

namespace py = pybind11;

namespace cosda::python {
namespace {

template <class T>
std::vector<double> time_as(const Setup& s, const Config& c, std::int64_t number,
                            std::int64_t repeat, std::uint64_t seed) {
  MultiHead<Plain<T>> mh(s.id, c, s.heads, s.layers);
  // Enough distinct tokens that no step reuses the previous one's values.
  const std::int64_t pool = std::max<std::int64_t>(64, s.n + 1);
  std::vector<T> tokens(std::size_t(pool * c.d));
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 0.5);
  for (T& v : tokens) v = T(normal(rng));
  std::int64_t t = 0;
  auto step = [&] {
    const T* x = tokens.data() + (t++ % pool) * c.d;
    mh.step(x, x, x);
  };
  Interrupts interrupts;
  const auto warm = std::chrono::steady_clock::now();
  for (std::int64_t i = 0; i < s.n + number; ++i, interrupts.poll()) step();
  // A timed run looks for Ctrl-C once per `chunk` steps (about 50 ms), not once a step.
  const std::chrono::duration<double> warmed = std::chrono::steady_clock::now() - warm;
  const double per_step = std::max(warmed.count(), 1e-9) / double(s.n + number);
  const auto chunk =
      std::max(std::int64_t(1), std::int64_t(std::min(0.05 / per_step, double(number))));
  std::vector<double> out;
  for (std::int64_t r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t done = 0; done < number; done += chunk, Interrupts::check())
      for (std::int64_t i = 0; i < std::min(chunk, number - done); ++i) step();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    out.push_back(took.count() / double(number));
  }
  return out;
}

std::vector<double> time_step(const std::string& variant, std::int64_t n, std::int64_t d,
                              std::optional<std::int64_t> m, std::int64_t heads,
                              std::int64_t layers, const std::string& scalar, std::int64_t number,
                              std::int64_t repeat, std::optional<std::int64_t> feature_seed,
                              std::uint64_t seed) {
  if (number < 1 || repeat < 1)
    throw InputError("number and repeat must be at least 1, got number = " +
                     std::to_string(number) + ", repeat = " + std::to_string(repeat));
  RunRequest r = python_request(variant, n, d, m, heads, layers, feature_seed);
  const Setup s = check_args(r, scalar);
  if (s.traits->landmarks == LandmarkKind::kFixed)
    throw InputError(s.id +
                     " has fixed landmarks: time it with cosda.Stream(..., landmarks=...) "
                     "and timeit, or pick a variant without fixed landmarks");
  check_memory(point_of(s), s.single ? 4.0 : 8.0);
  const Config c = make_config(s, d, false, std::nullopt);
  py::gil_scoped_release release;
  return s.single ? time_as<float>(s, c, number, repeat, seed)
                  : time_as<double>(s, c, number, repeat, seed);
}

}  // namespace

void bind_timing(py::module_& m) {
  m.def("time_step", &time_step, py::arg("variant"), py::arg("n"), py::arg("d"),
        py::arg("m") = py::none(), py::arg("heads") = 1, py::arg("layers") = 1,
        py::arg("scalar") = "double", py::arg("number") = 1000, py::arg("repeat") = 5,
        py::arg("feature_seed") = py::none(), py::arg("seed") = 0,
        "Seconds per steady-state step of each of `repeat` timed runs of `number` steps "
        "(timeit.repeat's numbers divided by number; take the min).");
}

}  // namespace cosda::python
