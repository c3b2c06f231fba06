// cosda.Stream: one token at a time. The model runs under Tally<T> (attention/exec.hpp), plain
// arithmetic whose every executed operation is counted: step() returns what the plain kernels
// return, and counts() the operations executed since the stream started, warm-up and priming
// included (the thread's tally before and after each step). The GIL is released while a step
// computes; a stream steps under its own lock, so several threads may share one.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <variant>

#include "analysis/measure.hpp"
#include "attention/multi_head.hpp"
#include "io/errors.hpp"
#include "python/bindings.hpp"
#include "python/stream_args.hpp"

namespace py = pybind11;

namespace cosda::python {
namespace {

class Stream {
 public:
  Stream(const std::string& variant, std::int64_t n, std::int64_t d, std::optional<std::int64_t> m,
         std::int64_t heads, std::int64_t layers, std::optional<py::array> landmarks,
         const std::string& scalar, bool exact_pinv, std::optional<double> exp_shift)
      : s_(check_args(variant, n, m, heads, layers, scalar, landmarks.has_value())),
        d_(d),
        stabilised_(exp_shift.has_value()) {
    if (d < 1) throw InputError("cosda stream: d must be at least 1, got " + std::to_string(d));
    if (d % s_.heads != 0)
      throw InputError("cosda stream: flag --heads (" + std::to_string(s_.heads) +
                       ") must divide d = " + std::to_string(d));
    Config c = make_config(s_, d, exact_pinv, exp_shift);
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

  py::dict counts() const {
    const std::lock_guard lock(mutex_);
    py::dict d;
    d["mul"] = counts_.mul;
    d["add"] = counts_.add;
    d["div"] = counts_.div;
    d["exp"] = counts_.exp;
    d["other"] = counts_.other;
    d["flops"] = counts_.flops();
    return d;
  }

  // Logical memory in elements (all heads) of a stream of this shape: held between steps, and
  // the most live at once. Liveness needs a traced run with look-ahead (analysis/measure.hpp),
  // so the figures are measure()'s for this point, measured once; they do not depend on values.
  py::dict memory() const {
    const std::lock_guard lock(mutex_);
    if (!memory_) {
      py::gil_scoped_release release;
      Point p{s_.id,    s_.n,     d_, s_.traits->landmarks == LandmarkKind::kNone ? 1 : s_.m,
              s_.heads, s_.layers};
      p.stabilised = stabilised_;
      const Cost c =
          measure(p, Counting::kTally, s_.single ? Precision::kFloat : Precision::kDouble);
      memory_ = std::pair{c.valley, c.peak};
    }
    py::dict d;
    d["valley"] = memory_->first;
    d["peak"] = memory_->second;
    return d;
  }

  std::int64_t steps() const {
    const std::lock_guard lock(mutex_);
    return steps_;
  }

 private:
  template <class T>
  py::object step_as(const py::array& x) {
    const auto xt = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(x);
    if (!xt) throw py::error_already_set();
    if (xt.ndim() != 1 || xt.shape(0) != d_)
      throw InputError("x: expected one token of d = " + std::to_string(d_) +
                       " values, got shape " + shape_of(xt));
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
      ready = mh.step(in, in, in);
      counts_ += thread_counts() - before;
      ++steps_;
      if (ready) {
        const MatCRef<T> o = mh.output();
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
  OpCounts counts_;
  std::int64_t steps_ = 0;
};

}  // namespace

void bind_stream_object(py::module_& m) {
  py::class_<Stream>(m, "Stream",
                     "Self-attention one token at a time, every executed operation counted.")
      .def(py::init<const std::string&, std::int64_t, std::int64_t, std::optional<std::int64_t>,
                    std::int64_t, std::int64_t, std::optional<py::array>, const std::string&, bool,
                    std::optional<double>>(),
           py::arg("variant"), py::arg("n"), py::arg("d"), py::arg("m") = py::none(),
           py::arg("heads") = 1, py::arg("layers") = 1, py::arg("landmarks") = py::none(),
           py::arg("scalar") = "double", py::arg("exact_pinv") = false,
           py::arg("exp_shift") = py::none())
      .def("step", &Stream::step, py::arg("x"),
           "Feeds one token (d values, q = k = v); returns the step's output, (d,) for "
           "single-output variants, (n, d) otherwise, or None during warm-up.")
      .def("counts", &Stream::counts,
           "Operations executed so far (warm-up and priming included): mul, add, div, exp, "
           "other and flops, their sum.")
      .def("memory", &Stream::memory, "Logical memory in elements: valley and peak.")
      .def_property_readonly("steps", &Stream::steps, "Tokens fed so far.");
}

}  // namespace cosda::python
