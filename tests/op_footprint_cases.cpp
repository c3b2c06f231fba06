// The op-footprint cases (tests/op_footprint_test.cpp): each seam op on small operands of
// distinct shapes, strided views where the kernels pass them, under the Watched policy.
#include "attention/ops/seam.hpp"
#include "attention/ops/single.hpp"
#include "tests/op_footprint.hpp"

namespace cosda::footprint_probe {
namespace {

using W = Watched;
namespace o = ops;

// ops/elementwise.hpp.
std::vector<OpCase> elementwise() {
  return {
      OpCase{"copy/range",
             [] {
               Bench b;
               P* x = b.vec("x", 6);
               P* y = b.vec("y", 6);
               return b.check([&] { o::copy<W>(x, x + 6, y); });
             }},
      OpCase{"copy/matrix",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 4);
               M& y = b.mat("y", 5, 6);
               return b.check([&] { o::copy<W>(x, y.block(1, 1, 3, 4)); });
             }},
      OpCase{"copy_to_column",
             [] {
               Bench b;
               P* x = b.vec("x", 4);
               M& y = b.mat("y", 4, 3);
               return b.check([&] { o::copy_to_column<W>(x, y, 1); });
             }},
      OpCase{"exp_inplace/range",
             [] {
               Bench b;
               P* x = b.vec("x", 5);
               return b.check([&] { o::exp_inplace<W>(x, 5); });
             }},
      OpCase{"exp_inplace/matrix_rows",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 5);
               return b.check([&] { o::exp_inplace<W>(x.block(0, 1, 3, 3)); });
             }},
      OpCase{"exp_inplace/shifted",
             [] {
               Bench b;
               P* x = b.vec("x", 5);
               return b.check([&] { o::exp_inplace<W>(x, 5, kOn); });
             }},
      OpCase{"exp_inplace/shift_off",
             [] {
               Bench b;
               P* x = b.vec("x", 5);
               return b.check([&] { o::exp_inplace<W>(x, 5, kOff); });
             }},
      OpCase{"exp_inplace/matrix_shifted",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 5);
               return b.check([&] { o::exp_inplace<W>(x.block(0, 1, 3, 3), kOn); });
             }},
      OpCase{"sum",
             [] {
               Bench b;
               P* x = b.vec("x", 5);
               return b.check([&] { (void)o::sum<W>(x, 5); });
             }},
      OpCase{"max_value",
             [] {
               Bench b;
               P* x = b.vec("x", 5);
               return b.check([&] { (void)o::max_value<W>(x, 5); });
             }},
      OpCase{"dot",
             [] {
               Bench b;
               P* x = b.vec("x", 5);
               P* y = b.vec("y", 5);
               return b.check([&] { (void)o::dot<W>(x, y, 5); });
             }},
      OpCase{"reciprocal",
             [] {
               Bench b;
               return b.check([&] { (void)o::reciprocal<W>(P(2.0)); });
             }},
      OpCase{"reciprocals",
             [] {
               Bench b;
               P* x = b.vec("x", 4);
               P* y = b.vec("y", 4);
               return b.check([&] { o::reciprocals<W>(x, y, 4); });
             }},
      OpCase{"store",
             [] {
               Bench b;
               P* y = b.vec("y", 3);
               return b.check([&] { o::store<W>(P(2.0), y + 1); });
             }},
      OpCase{"scale/range",
             [] {
               Bench b;
               P* x = b.vec("x", 4);
               return b.check([&] { o::scale<W>(x, 4, P(2.0)); });
             }},
      OpCase{"divide",
             [] {
               Bench b;
               P* x = b.vec("x", 4);
               return b.check([&] { o::divide<W>(x, 4, P(2.0)); });
             }},
      OpCase{"axpy",
             [] {
               Bench b;
               P* x = b.vec("x", 4);
               P* y = b.vec("y", 4);
               return b.check([&] { o::axpy<W>(P(2.0), x, y, 4, -1); });
             }},
      OpCase{"add/range",
             [] {
               Bench b;
               P* x = b.vec("x", 4);
               P* y = b.vec("y", 4);
               return b.check([&] { o::add<W>(x, y, 4, -1); });
             }},
      OpCase{"add/matrix",  // x a column of heads, as CoNyReCont's column of B
             [] {
               Bench b;
               M& x = b.mat("x", 5, 6);
               M& y = b.mat("y", 4, 2);
               auto xs = x.block(1, 2, 4, 2);
               return b.check([&] { o::add<W>(xs, y, +1); });
             }},
      OpCase{"add/matrix_column",  // one head: a single strided column
             [] {
               Bench b;
               M& x = b.mat("x", 5, 3);
               M& y = b.mat("y", 5, 2);
               auto ys = y.middleCols(1, 1);
               return b.check([&] { o::add<W>(x.middleCols(2, 1), ys, -1); });
             }},
      OpCase{"sqrt_of",
             [] {
               Bench b;
               return b.check([&] { (void)o::sqrt_of<W>(P(2.0)); });
             }},
      OpCase{"product",
             [] {
               Bench b;
               return b.check([&] { (void)o::product<W>(P(2.0), P(3.0)); });
             }},
      OpCase{"plus",
             [] {
               Bench b;
               return b.check([&] { (void)o::plus<W>(P(2.0), P(3.0)); });
             }},
      OpCase{"offset",
             [] {
               Bench b;
               P* x = b.vec("x", 4);
               return b.check([&] { o::offset<W>(x, 4, P(0.5), -1); });
             }},
      OpCase{"multiply",
             [] {
               Bench b;
               P* w = b.vec("w", 4);
               P* y = b.vec("y", 4);
               return b.check([&] { o::multiply<W>(w, y, 4); });
             }},
      OpCase{"relu_inplace",
             [] {
               Bench b;
               P* x = b.vec("x", 4, -0.2);
               return b.check([&] { o::relu_inplace<W>(x, 4); });
             }},
      OpCase{"gelu_inplace",
             [] {
               Bench b;
               P* x = b.vec("x", 4, -0.2);
               return b.check([&] { o::gelu_inplace<W>(x, 4); });
             }},
  };
}

// ops/product.hpp, ops/rows.hpp, ops/retro.hpp and ops/single.hpp.
std::vector<OpCase> matrices() {
  return {
      OpCase{"gemm",
             [] {
               Bench b;
               M& a = b.mat("a", 4, 3);
               M& x = b.mat("x", 5, 2);
               M& c = b.mat("c", 3, 2);
               return b.check(
                   [&] { o::gemm<W>(true, false, a.block(0, 0, 4, 3), x.block(1, 0, 4, 2), c); });
             }},
      OpCase{"gemm_nt",
             [] {
               Bench b;
               M& a = b.mat("a", 2, 3);
               M& x = b.mat("x", 4, 3);
               M& c = b.mat("c", 2, 4);
               return b.check([&] { o::gemm_nt<W>(a, x, c); });
             }},
      OpCase{"gemm_nn",
             [] {
               Bench b;
               M& a = b.mat("a", 2, 3);
               M& x = b.mat("x", 3, 4);
               M& c = b.mat("c", 2, 4);
               return b.check([&] { o::gemm_nn<W>(a, x, c); });
             }},
      OpCase{"gemm_tn",
             [] {
               Bench b;
               M& a = b.mat("a", 3, 2);
               M& x = b.mat("x", 3, 4);
               M& c = b.mat("c", 2, 4);
               return b.check([&] { o::gemm_tn<W>(a, x, c); });
             }},
      // ops/rows.hpp
      OpCase{"row_sums",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 4);
               P* s = b.vec("s", 3);
               return b.check([&] { o::row_sums<W>(x, s); });
             }},
      OpCase{"exp_row_sums",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 4);
               P* s = b.vec("s", 3);
               return b.check([&] { o::exp_row_sums<W>(x, s); });
             }},
      OpCase{"scale_rows",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 4);
               P* s = b.vec("s", 3);
               return b.check([&] { o::scale_rows<W>(x, s); });
             }},
      OpCase{"scale_into",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 4);
               M& y = b.mat("y", 3, 4);
               return b.check([&] { o::scale_into<W>(x, P(2.0), y); });
             }},
      OpCase{"scale_rows_into/rows",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 4);
               P* s = b.vec("s", 3);
               M& y = b.mat("y", 3, 4);
               return b.check([&] { o::scale_rows_into<W>(x, s, y); });
             }},
      OpCase{"scale_rows_into/transposed",
             [] {
               Bench b;
               M& x = b.mat("x", 4, 3);
               P* s = b.vec("s", 3);
               M& y = b.mat("y", 3, 4);
               return b.check([&] { o::scale_rows_into<W>(x, s, y, true); });
             }},
      OpCase{"scale/matrix",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 4);
               return b.check([&] { o::scale<W>(x.block(0, 1, 3, 2), P(2.0)); });
             }},
      OpCase{"shifted_negation",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 3);
               M& y = b.mat("y", 3, 3);
               return b.check([&] { o::shifted_negation<W>(x, P(2.0), y); });
             }},
      OpCase{"max_col_sum",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 4);
               return b.check([&] { (void)o::max_col_sum<W>(x); });
             }},
      OpCase{"transpose_into",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 4);
               M& y = b.mat("y", 4, 3);
               return b.check([&] { o::transpose_into<W>(x, y); });
             }},
      // ops/retro.hpp
      OpCase{"retro_exp_sums",
             [] {
               Bench b;
               P* eo = b.vec("e_old", 3);
               P* en = b.vec("e_new", 3);
               P* s = b.vec("sums", 3, 5.0);
               return b.check([&] { o::retro_exp_sums<W>(eo, en, s, 3, kOn); });
             }},
      OpCase{"retro_update",
             [] {
               Bench b;
               M& x = b.mat("x", 3, 2);
               P* ko = b.vec("k_old", 2);
               P* kn = b.vec("k_new", 2);
               P* vo = b.vec("v_old", 4);
               P* vn = b.vec("v_new", 4);
               P* eo = b.vec("e_old", 3);
               P* en = b.vec("e_new", 3);
               P* s = b.vec("sums", 3, 5.0);
               M& y = b.mat("y", 3, 4);
               return b.check([&] { o::retro_update<W>(x, ko, kn, vo, vn, eo, en, s, y, kOn); });
             }},
      OpCase{"slide_sums",
             [] {
               Bench b;
               P* ao = b.vec("a_old", 3);
               P* an = b.vec("a_new", 3);
               P* vo = b.vec("v_old", 4);
               P* vn = b.vec("v_new", 4);
               P* s = b.vec("sums", 3);
               M& y = b.mat("y", 3, 4);
               return b.check([&] { o::slide_sums<W>(ao, an, vo, vn, s, y); });
             }},
      OpCase{"retro_update_cols",
             [] {
               Bench b;
               M& x = b.mat("xt", 2, 3);
               M& ring = b.mat("ring", 2, 5);
               M& vring = b.mat("vring", 4, 5);
               P* eo = b.vec("e_old", 3);
               P* en = b.vec("e_new", 3);
               P* s = b.vec("sums", 3, 5.0);
               M& y = b.mat("yt", 4, 3);
               return b.check([&] {
                 o::retro_update_cols<W>(x, ring.middleCols(0, 1), ring.middleCols(3, 1),
                                         vring.middleCols(0, 1), vring.middleCols(3, 1), eo, en, s,
                                         y, kOff);
               });
             }},
      // ops/single.hpp
      OpCase{"exp_scores/rows",
             [] {
               Bench b;
               M& q = b.mat("q", 1, 3);
               M& k = b.mat("k", 4, 3);
               M& a = b.mat("a", 1, 4);
               return b.check([&] { (void)o::exp_scores<W>(q, k, false, a, kOn); });
             }},
      OpCase{"exp_scores/columns",
             [] {
               Bench b;
               M& q = b.mat("q", 1, 3);
               M& k = b.mat("k", 3, 4);
               M& a = b.mat("a", 1, 4);
               return b.check([&] { (void)o::exp_scores<W>(q, k, true, a, kOff); });
             }},
      OpCase{"weighted_average/rows",
             [] {
               Bench b;
               M& a = b.mat("a", 1, 4);
               M& v = b.mat("v", 4, 3);
               M& y = b.mat("out", 1, 3);
               return b.check([&] { o::weighted_average<W>(a, P(2.0), v, false, y); });
             }},
      OpCase{"weighted_average/columns",
             [] {
               Bench b;
               M& a = b.mat("a", 1, 4);
               M& v = b.mat("v", 3, 4);
               M& y = b.mat("out", 1, 3);
               return b.check([&] { o::weighted_average<W>(a, P(2.0), v, true, y); });
             }},
  };
}

}  // namespace

std::vector<OpCase> heads_cases();  // tests/op_footprint_heads_cases.cpp

const std::vector<OpCase>& op_cases() {
  static const std::vector<OpCase> all = [] {
    std::vector<OpCase> v = elementwise();
    for (OpCase& c : matrices()) v.push_back(std::move(c));
    for (OpCase& c : heads_cases()) v.push_back(std::move(c));
    return v;
  }();
  return all;
}

}  // namespace cosda::footprint_probe
