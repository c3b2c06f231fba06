// The pieces of the Python module `cosda` (python/CMakeLists.txt), each in its own file.
#pragma once

#include <pybind11/pybind11.h>

namespace cosda::python {

// count(): executed operations and memory of one variant at one shape (python/count.cpp).
void bind_count(pybind11::module_& m);
// stream(): the kernels over NumPy tokens (python/stream.cpp); also binds Stream.
void bind_stream(pybind11::module_& m);
// Stream: the online object (python/stream_object.cpp).
void bind_stream_object(pybind11::module_& m);
// time_step(): seconds per step, timeit-style (python/timing.cpp).
void bind_timing(pybind11::module_& m);

}  // namespace cosda::python
