// cosda.Stream: one token at a time under Tally<T> (attention/exec.hpp), the plain kernels'
// arithmetic with every executed operation counted. The GIL is released while a step computes;
// a stream steps under its own lock, so several threads may share one.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "analysis/measure.hpp"
#include "io/errors.hpp"
#include "models/multi_head.hpp"
#include "python/bindings.hpp"
#include "python/stream_args.hpp"
#include "sweeps/count.hpp"

namespace py = pybind11;

namespace cosda::python {
namespace {

class Stream {
 public:
  Stream(const std::string& variant, std::int64_t n, std::int64_t d, std::optional<std::int64_t> m,
         std::int64_t heads, std::int64_t layers, std::optional<py::array> landmarks,
         const std::string& scalar, std::optional<double> exp_shift,
         std::optional<std::int64_t> feature_seed)
      : s_(check_args(python_request(variant, n, d, m, heads, layers, feature_seed,
                                     landmarks.has_value(), exp_shift.has_value()),
                      scalar)),
        d_(d),
        stabilised_(exp_shift.has_value()) {
    check_memory(point_of(s_), s_.single ? 4.0 : 8.0);
    Config c = make_config(s_, d, false, exp_shift);
    if (s_.traits->landmarks == LandmarkKind::kFixed && !landmarks)
      throw InputError("landmarks: " + s_.id +
                       " has fixed landmarks; give them as an m x d array (landmarks=...)");
    if (landmarks) c.fixed_q = c.fixed_k = given_landmarks(*landmarks, s_.m, d);
    py::gil_scoped_release release;
    if (s_.single)
      model_ = std::make_unique<MultiHead<Tally<float>>>(s_.id, c, s_.heads, s_.layers);
    else
      model_ = std::make_unique<MultiHead<Tally<double>>>(s_.id, c, s_.heads, s_.layers);
  }

  // The step's output, (d,) or (n, d); None until the window is full.
  py::object step(const py::array& x) { return s_.single ? step_as<float>(x) : step_as<double>(x); }

  // The operations executed so far, or (last) by the last step alone.
  py::dict counts(bool last) const {
    const OpCounts c = locked([&] { return last ? last_ : counts_; });
    py::dict d;
    d["mul"] = c.mul;
    d["add"] = c.add;
    d["div"] = c.div;
    d["exp"] = c.exp;
    d["other"] = c.other;
    d["flops"] = c.flops();
    return d;
  }

  // Logical memory in elements (all heads): held between steps and most live at once. Liveness
  // needs a traced run with look-ahead, so these are measure()'s value-independent figures, once.
  py::dict memory() const {
    const auto [valley, peak] = locked([&] {
      if (!memory_) {
        Point p{s_.id,    s_.n,     d_, s_.traits->landmarks == LandmarkKind::kNone ? 1 : s_.m,
                s_.heads, s_.layers};
        p.stabilised = stabilised_;
        const Cost c =
            measure(p, Counting::kTally, s_.single ? Precision::kFloat : Precision::kDouble);
        memory_ = std::pair{c.valley, c.peak};
      }
      return *memory_;
    });
    py::dict d;
    d["valley"] = valley;
    d["peak"] = peak;
    return d;
  }

  std::int64_t steps() const {
    return locked([&] { return steps_; });
  }

  // The checked arguments, for __repr__: variant, n, d, m (None without a rank), heads, layers.
  py::tuple args() const {
    const py::object m =
        s_.traits->landmarks == LandmarkKind::kNone ? py::object(py::none()) : py::int_(s_.m);
    return py::make_tuple(s_.id, s_.n, d_, m, s_.heads, s_.layers);
  }

 private:
  // f() under the stream's lock, taken with the GIL released as step() takes it: a thread that
  // held the GIL while it waited for the lock would wait on one that waits for the GIL.
  template <class F>
  std::invoke_result_t<F> locked(F f) const {
    const py::gil_scoped_release release;
    const std::lock_guard lock(mutex_);
    return f();
  }

  template <class T>
  py::object step_as(const py::array& x) {
    const auto xt = finite_array<T>(x, "x");
    const bool qkv = xt.ndim() == 2;
    if (!(xt.ndim() == 1 && xt.shape(0) == d_) && !(qkv && xt.shape(0) == 3 && xt.shape(1) == d_))
      throw InputError("x: expected one token of d = " + std::to_string(d_) +
                       " values, or its query, key and value as a (3, " + std::to_string(d_) +
                       ") array, got shape " + shape_of(xt));
    std::vector<py::ssize_t> shape{d_};
    if (!s_.one_row) shape.insert(shape.begin(), s_.n);
    py::array_t<T> y(shape);
    T* out = y.mutable_data();
    const T* in = xt.data();
    bool ready = false;
    {
      py::gil_scoped_release release;
      const std::lock_guard lock(mutex_);
      auto& mh = *std::get<std::unique_ptr<MultiHead<Tally<T>>>>(model_);
      const OpCounts before = thread_counts();
      ready = qkv ? mh.step(in, in + d_, in + 2 * d_) : mh.step(in, in, in);
      last_ = thread_counts() - before;
      counts_ += last_;
      ++steps_;
      if (ready) {
        const MatCRef<T> o = mh.output();
        check_output(s_, stabilised_, steps_ - 1, o);  // the step is taken, as s.steps says
        for (std::int64_t r = 0; r < o.rows(); ++r) std::copy_n(o.row(r).data(), d_, out + r * d_);
      }
    }
    return ready ? py::object(std::move(y)) : py::none();
  }

  Setup s_;
  std::int64_t d_;
  bool stabilised_;
  mutable std::optional<std::pair<std::int64_t, std::int64_t>> memory_;
  std::variant<std::unique_ptr<MultiHead<Tally<double>>>, std::unique_ptr<MultiHead<Tally<float>>>>
      model_;
  mutable std::mutex mutex_;
  OpCounts counts_, last_;
  std::int64_t steps_ = 0;
};

}  // namespace

void bind_stream_object(py::module_& m) {
  py::class_<Stream>(m, "Stream",
                     "Self-attention one token at a time, every executed operation counted.")
      .def(py::init<const std::string&, std::int64_t, std::int64_t, std::optional<std::int64_t>,
                    std::int64_t, std::int64_t, std::optional<py::array>, const std::string&,
                    std::optional<double>, std::optional<std::int64_t>>(),
           py::arg("variant"), py::arg("n"), py::arg("d"), py::arg("m") = py::none(),
           py::arg("heads") = 1, py::arg("layers") = 1, py::arg("landmarks") = py::none(),
           py::arg("scalar") = "double", py::arg("exp_shift") = py::none(),
           py::arg("feature_seed") = py::none())
      .def("step", &Stream::step, py::arg("x"),
           "Feeds one token (d values, q = k = v, or a (3, d) array: q, k, v); returns the step's "
           "output, (d,) for "
           "single-output variants, (n, d) otherwise, or None during warm-up.")
      .def("counts", &Stream::counts, py::arg("last") = false,
           "Operations executed so far (warm-up and priming included), or with last=True by the "
           "last step alone: mul, add, div, exp, other and flops, their sum.")
      .def_property_readonly("args", &Stream::args, "(variant, n, d, m, heads, layers) as checked.")
      .def("memory", &Stream::memory, "Logical memory in elements: valley and peak.")
      .def_property_readonly("steps", &Stream::steps, "Tokens fed so far.");
}

}  // namespace cosda::python
