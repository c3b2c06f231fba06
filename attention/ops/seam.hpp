// The arithmetic seam: every operation a kernel executes goes through one of these calls.
//
// Each op states its exact count. For E = Exact (Counted scalars) the op runs the textbook
// loop and the scalar counts itself; for Tally<T> it runs plain Eigen code and adds the stated
// count; for Plain<T> it runs plain Eigen code only (both send shallow products to the kernels
// of shallow_gemm.hpp, and other large ones to BLAS when the build has it, blas.hpp). The
// textbook algorithm fixes the count, so counts never depend on a product kernel's blocking: a
// length-k dot product is k multiplications and k-1 additions. tests/counting_test.cpp proves Tally
// == Exact per op and per variant, bucket by bucket. Under Tally each op also records the memory it
// reads and writes (in(), out(), inout()): the liveness trace of valley and peak
// (attention/counting/liveness.hpp) and the bytes of the roofline bound
// (attention/counting/footprint.hpp).
//
// The seam is in five parts, each including the parts it builds on; kernels include this header:
//   ops/core.hpp         the policy's scalar, vector maps, the memory record and the exponent shift
//   ops/product.hpp      gemm and gemm_nt, gemm_nn, gemm_tn
//   ops/elementwise.hpp  copies, exponentials, sums, dot products, scalings, additions, and the
//                        whole-model ops of the encoder (LayerNorm, biases, activations)
//   ops/retro.hpp        the retroactive updates of continual states
//   ops/rows.hpp         row sums, row scalings, the shifted negation, the matrix norms
// and two parts included by the kernels that use them:
//   ops/heads.hpp        the per-head products of h heads side by side, in one call (with
//                        ops/heads_rows.hpp; ops/heads_rf.hpp: the random-feature window),
//                        for the head-batched kernels (attention/variants/<id>_heads.hpp)
//   ops/single.hpp       the single-output step's scores and output, each in one fused op
//                        (attention/variants/co_si.hpp)
#pragma once

#include "attention/ops/core.hpp"
#include "attention/ops/elementwise.hpp"
#include "attention/ops/product.hpp"
#include "attention/ops/retro.hpp"
#include "attention/ops/rows.hpp"
