// Ctrl-C (KeyboardInterrupt) for the loops that run with the GIL released, so that a long
// cosda.stream() or time_step() in a notebook stops when asked instead of when done.
#pragma once

#include <pybind11/pybind11.h>

#include <chrono>

namespace cosda::python {

class Interrupts {
 public:
  // Takes the GIL and runs Python's signal handlers, raising what they raise.
  static void check() {
    const pybind11::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
  }
  // check() at most every 50 ms: a clock read a call.
  void poll() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(50)) return;
    last_ = now;
    check();
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace cosda::python
