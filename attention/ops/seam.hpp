// The arithmetic seam: every operation a kernel executes goes through one of these calls. Each op
// states its exact count, fixed by the textbook algorithm (a length-k dot product: k mul, k-1 add),
// never by a kernel's blocking. Exact runs the textbook loop on Counted scalars; Tally<T> runs the
// timed kernels (shallow_gemm.hpp, blas.hpp) and adds the count; Plain<T> only runs them
// (counting_test: Tally == Exact per op and variant). Under Tally, ops also record the memory they
// read and write (in, out, inout) for the liveness trace and roofline bytes (attention/counting/).
// Parts, each including those it builds on: core.hpp, product.hpp, elementwise.hpp, retro.hpp,
// rows.hpp; included where used: heads.hpp (with heads_rows.hpp, heads_rf.hpp) and single.hpp.
#pragma once

#include "attention/ops/core.hpp"
#include "attention/ops/elementwise.hpp"
#include "attention/ops/product.hpp"
#include "attention/ops/retro.hpp"
#include "attention/ops/rows.hpp"
