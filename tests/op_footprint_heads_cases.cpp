// The op-footprint cases of the head-batched seam ops (tests/op_footprint_test.cpp): h heads
// side by side, at the scalar level (one head per block, packets of one Probe).
#include "attention/families/landmarks.hpp"
#include "attention/ops/heads.hpp"
#include "attention/ops/heads_attention.hpp"
#include "attention/ops/heads_landmarks.hpp"
#include "attention/ops/heads_minor.hpp"
#include "attention/ops/heads_rf.hpp"
#include "attention/ops/heads_rows.hpp"
#include "tests/op_footprint.hpp"

namespace cosda::footprint_probe {
namespace {

using W = Watched;
namespace o = ops;

// h = 2 heads of dh = 2 features (d = 4), windows of n = 3 tokens, m = 2 landmarks or
// features, unless a case says otherwise.
std::vector<OpCase> heads_rows() {
  return {
      OpCase{"heads_gemm_nn",
             [] {
               Bench b;
               M& q = b.mat("q", 1, 4);
               M& k = b.mat("k", 4, 3);
               M& a = b.mat("a", 2, 3);
               return b.check([&] { o::heads_gemm_nn<W>(q, k, a); });
             }},
      OpCase{"heads_exp_scores",
             [] {
               Bench b;
               M& q = b.mat("q", 1, 4);
               M& k = b.mat("k", 4, 3);
               M& a = b.mat("a", 2, 3);
               P* s = b.vec("sums", 2);
               return b.check([&] { o::heads_exp_scores<W>(q, k, a, s, kOn); });
             }},
      OpCase{"heads_gemm_nt",
             [] {
               Bench b;
               M& a = b.mat("a", 2, 3);
               M& v = b.mat("v", 4, 3);
               M& y = b.mat("out", 1, 4);
               return b.check([&] { o::heads_gemm_nt<W>(a, v, y); });
             }},
      OpCase{"heads_gemm_lm",
             [] {
               Bench b;
               M& a = b.mat("a", 6, 2);
               M& x = b.mat("x", 6, 3);
               M& y = b.mat("y", 6, 3);
               return b.check([&] { o::heads_gemm_lm<W>(a, x, y, 1, 2); });
             }},
      OpCase{"heads_slide_sums",
             [] {
               Bench b;
               P* ao = b.vec("a_old", 6);
               P* an = b.vec("a_new", 6);
               P* vo = b.vec("v_old", 4);
               P* vn = b.vec("v_new", 4);
               P* s = b.vec("sums", 6);
               M& y = b.mat("y", 6, 2);
               return b.check([&] { o::heads_slide_sums<W>(2, ao, an, vo, vn, s, y); });
             }},
      OpCase{"heads_retro_update_cols",
             [] {
               Bench b;
               M& x = b.mat("xt", 4, 5);
               M& k = b.mat("k", 4, 5);
               M& v = b.mat("v", 6, 5);
               M& eo = b.mat("e_old", 2, 5);
               M& en = b.mat("e_new", 2, 5);
               M& s = b.mat("sums", 2, 5, 5.0);
               M& y = b.mat("yt", 6, 5);
               return b.check([&] {
                 o::heads_retro_update_cols<W>(4, 1, x, k.middleCols(1, 1), k.middleCols(2, 1),
                                               v.middleCols(1, 1), v.middleCols(2, 1), eo, en, s, y,
                                               kOn);
               });
             }},
      OpCase{"heads_scale_rows_into",
             [] {
               Bench b;
               M& x = b.mat("src", 4, 5);
               M& s = b.mat("s", 2, 5);
               M& y = b.mat("dst", 3, 4);
               return b.check([&] { o::heads_scale_rows_into<W>(x, s, 2, y); });
             }},
      OpCase{"heads_key_exp",
             [] {
               Bench b;
               M& k = b.mat("k", 1, 4);
               M& u = b.mat("u", 2, 3);
               return b.check([&] { o::heads_key_exp<W>(k, P(0.5), kOn, u); });
             }},
      OpCase{"heads_max_exp",
             [] {
               Bench b;
               M& u = b.mat("u", 2, 3);
               return b.check([&] { o::heads_max_exp<W>(u); });
             }},
      OpCase{"heads_ring_gemm_nn",
             [] {
               Bench b;
               M& w = b.mat("w", 3, 4);
               M& x = b.mat("b", 4, 2);
               M& y = b.mat("out", 3, 4);
               return b.check([&] { o::heads_ring_gemm_nn<W>(w, x, 1, y); });
             }},
      OpCase{"heads_ring_gemm_lm",
             [] {
               Bench b;
               M& w = b.mat("wt", 6, 5);
               M& x = b.mat("b", 2, 6);
               M& y = b.mat("out", 4, 6);
               return b.check([&] { o::heads_ring_gemm_lm<W>(w, x, 1, y, 1, 2); });
             }},
      // ops/heads_rf.hpp: h = 2, m = 2, dh = 2, r = 3 ring slots of c = 5 columns
      OpCase{"heads_attend_cols",
             [] {
               Bench b;
               M& u = b.mat("ut", 4, 5);
               M& s = b.mat("s", 4, 2);
               M& z = b.mat("z", 4, 1, 1.0);
               M& den = b.mat("den", 2, 5);
               M& y = b.mat("dst", 3, 4);
               return b.check([&] { o::heads_attend_cols<W>(u, s, z, 1, den, y); });
             }},
      // one head's features a token per row: m = 2, dh = 2, r = 3
      OpCase{"heads_attend_cols/by_row",
             [] {
               Bench b;
               M& u = b.mat("u", 3, 2);
               M& s = b.mat("s", 2, 2);
               M& z = b.mat("z", 2, 1, 1.0);
               M& den = b.mat("den", 1, 5);
               M& y = b.mat("dst", 3, 2);
               return b.check([&] { o::heads_attend_cols<W>(u, s, z, 1, den, y, true); });
             }},
      OpCase{"heads_key_exp_cols",
             [] {
               Bench b;
               M& k = b.mat("k", 6, 5);
               M& u = b.mat("u", 6, 5);
               M& off = b.scratch("off", 1, 5);
               return b.check([&] { o::heads_key_exp_cols<W>(k, P(0.5), 3, 1, 2, 3, u, off); });
             }},
      OpCase{"heads_max_exp_cols",
             [] {
               Bench b;
               M& u = b.mat("u", 4, 5);
               M& top = b.scratch("top", 1, 5);
               return b.check([&] { o::heads_max_exp_cols<W>(2, 3, u, top); });
             }},
  };
}

// Head panels (ops/heads_attention.hpp): h = 3 heads of dh = 2 over rings of n = 4 tokens.
std::vector<OpCase> heads_panels() {
  return {
      OpCase{"heads_panels_enter",
             [] {
               Bench b;
               P* x = b.vec("x", 6);
               P* ring = b.vec("ring", 24);
               return b.check([&] { o::heads_panels_enter<W>(3, 2, 4, x, ring, 2); });
             }},
      OpCase{"heads_ring_enter/panels",
             [] {
               Bench b;
               P* x = b.vec("x", 6);
               M& ring = b.mat("ring", 6, 4);
               return b.check([&] { o::heads_ring_enter<W>(true, 3, 2, x, ring, 1); });
             }},
      OpCase{"heads_ring_enter/columns",
             [] {
               Bench b;
               P* x = b.vec("x", 6);
               M& ring = b.mat("ring", 6, 4);
               return b.check([&] { o::heads_ring_enter<W>(false, 3, 2, x, ring, 1); });
             }},
      OpCase{"heads_panels_leave",
             [] {
               Bench b;
               P* ring = b.vec("ring", 24);
               P* x = b.vec("x", 6);
               return b.check([&] { o::heads_panels_leave<W>(3, 2, 4, ring, 3, x); });
             }},
      OpCase{"heads_panels_attention",
             [] {
               Bench b;
               P* q = b.vec("q", 24);
               P* k = b.vec("k", 24);
               P* v = b.vec("v", 24);
               M& y = b.mat("dst", 4, 6);
               P* w = b.scratch("work", o::heads_attention_scratch<W>(4, 2));
               return b.check(
                   [&] { o::heads_panels_attention<W>(4, 2, 3, q, k, v, P(0.5), 1, 1, 2, y, w); });
             }},
      OpCase{"heads_panels_single",
             [] {
               Bench b;
               P* q = b.vec("q", 6);
               P* k = b.vec("k", 24);
               P* v = b.vec("v", 24);
               M& y = b.mat("dst", 1, 6);
               P* w = b.scratch("work", o::heads_single_scratch<W>(2));
               return b.check(
                   [&] { o::heads_panels_single<W>(4, 2, 3, q, k, v, P(0.5), kOn, y, w); });
             }},
      OpCase{"heads_panels_row",
             [] {
               Bench b;
               P* q = b.vec("q", 6);
               P* k = b.vec("k", 24);
               P* v = b.vec("v", 24);
               M& y = b.mat("dst", 1, 6);
               P* s = b.vec("sums", 3);
               P* w = b.scratch("work", o::heads_single_scratch<W>(2));
               return b.check([&] { o::heads_panels_row<W>(4, 2, 3, q, k, v, kOff, y, s, w); });
             }},
  };
}

// Head-minor ops (ops/heads_minor.hpp, ops/heads_landmarks.hpp): h = 3 heads.
std::vector<OpCase> heads_minor() {
  return {
      OpCase{"heads_minor_from_heads",
             [] {
               Bench b;
               P* x = b.vec("x", 6);
               P* y = b.vec("y", 6);
               return b.check([&] { o::heads_minor_from_heads<W>(3, 2, x, y); });
             }},
      OpCase{"heads_minor_to_heads",
             [] {
               Bench b;
               P* x = b.vec("x", 6);
               P* y = b.vec("y", 6);
               return b.check([&] { o::heads_minor_to_heads<W>(3, 2, x, y); });
             }},
      OpCase{"heads_minor_transpose_to_heads",
             [] {
               Bench b;
               P* x = b.vec("x", 12);
               P* y = b.vec("y", 12);
               return b.check([&] { o::heads_minor_transpose_to_heads<W>(3, 2, x, y); });
             }},
      OpCase{"heads_minor_gemm",
             [] {
               Bench b;
               P* x = b.vec("x", 18);
               P* z = b.vec("z", 12);
               P* y = b.vec("y", 18);
               return b.check([&] { o::heads_minor_gemm<W>(3, 2, 2, 3, x, z, y); });
             }},
      OpCase{"heads_minor_gemm_nt",
             [] {
               Bench b;
               P* x = b.vec("x", 18);
               P* z = b.vec("z", 12);
               P* y = b.vec("y", 18);
               return b.check([&] { o::heads_minor_gemm_nt<W>(3, 2, 2, 3, x, z, y); });
             }},
      OpCase{"heads_minor_row_sums",
             [] {
               Bench b;
               P* x = b.vec("x", 18);
               P* s = b.vec("sums", 9);
               return b.check([&] { o::heads_minor_row_sums<W>(3, 2, 3, x, s); });
             }},
      OpCase{"heads_minor_normalize_rows",
             [] {
               Bench b;
               P* x = b.vec("x", 18);
               P* s = b.vec("sums", 9);
               return b.check([&] { o::heads_minor_normalize_rows<W>(3, 2, 3, x, s); });
             }},
      OpCase{"heads_minor_scale_rows/into",
             [] {
               Bench b;
               P* x = b.vec("x", 18);
               P* s = b.vec("s", 9);
               P* y = b.vec("y", 18);
               return b.check([&] { o::heads_minor_scale_rows<W>(3, 2, 3, x, s, y); });
             }},
      OpCase{"heads_minor_scale_rows/in_place",
             [] {
               Bench b;
               P* x = b.vec("x", 18);
               P* s = b.vec("s", 9);
               return b.check([&] { o::heads_minor_scale_rows<W>(3, 2, 3, x, s, x); });
             }},
      OpCase{"heads_minor_retro_update",
             [] {
               Bench b;
               P* x = b.vec("x", 12);
               P* ko = b.vec("k_old", 6);
               P* kn = b.vec("k_new", 6);
               P* vo = b.vec("v_old", 9);
               P* vn = b.vec("v_new", 9);
               P* eo = b.vec("e_old", 6);
               P* en = b.vec("e_new", 6);
               P* s = b.vec("sums", 6, 5.0);
               P* y = b.vec("y", 18);
               return b.check([&] {
                 o::heads_minor_retro_update<W>(2, 2, 3, 3, x, ko, kn, vo, vn, eo, en, s, y, kOn);
               });
             }},
      OpCase{"heads_minor_slide_sums",
             [] {
               Bench b;
               P* ao = b.vec("a_old", 6);
               P* an = b.vec("a_new", 6);
               P* vo = b.vec("v_old", 9);
               P* vn = b.vec("v_new", 9);
               P* s = b.vec("sums", 6);
               P* y = b.vec("y", 18);
               return b.check([&] { o::heads_minor_slide_sums<W>(2, 3, 3, ao, an, vo, vn, s, y); });
             }},
      OpCase{"heads_minor_enter",
             [] {
               Bench b;
               P* a = b.vec("a", 6);
               P* v = b.vec("v", 9);
               P* s = b.vec("sums", 6);
               P* y = b.vec("y", 18);
               return b.check([&] { o::heads_minor_enter<W>(2, 3, 3, a, v, s, y); });
             }},
      OpCase{"heads_minor_gemm_nt_shared",
             [] {
               Bench b;
               P* x = b.vec("x", 6);
               M& w = b.mat("w", 4, 2);
               P* u = b.vec("u", 12);
               return b.check([&] { o::heads_minor_gemm_nt_shared<W>(2, 4, 3, x, w, u); });
             }},
      OpCase{"heads_minor_key_exp",
             [] {
               Bench b;
               P* k = b.vec("k", 6);
               P* u = b.vec("u", 12);
               return b.check([&] { o::heads_minor_key_exp<W>(4, 2, 3, k, P(0.5), kOn, u); });
             }},
      OpCase{"heads_minor_max_exp",
             [] {
               Bench b;
               P* u = b.vec("u", 12);
               return b.check([&] { o::heads_minor_max_exp<W>(4, 3, u); });
             }},
      OpCase{"segment_mean_cols/wrapped",
             [] {
               Bench b;
               M& x = b.mat("x", 4, 5);
               P* y = b.vec("y", 4);
               return b.check([&] { o::segment_mean_cols<W>(x, 3, 3, y); });
             }},
      OpCase{"segment_mean_cols/run",
             [] {
               Bench b;
               M& x = b.mat("x", 4, 5);
               P* y = b.vec("y", 4);
               return b.check([&] { o::segment_mean_cols<W>(x, 1, 2, y); });
             }},
      OpCase{"segment_mean/wrapped",
             [] {
               Bench b;
               M& x = b.mat("x", 5, 3);
               P* y = b.vec("y", 3);
               return b.check([&] { segment_mean<W>(x, 4, 3, y); });
             }},
      OpCase{"heads_minor_gram",
             [] {
               Bench b;
               M& x = b.mat("x", 2, 6);
               M& z = b.mat("z", 2, 6);
               P* y = b.vec("y", 12);
               return b.check([&] { o::heads_minor_gram<W>(x, z, 3, y); });
             }},
      OpCase{"heads_minor_pinv_start",
             [] {
               Bench b;
               P* x = b.vec("x", 12);
               P* z = b.vec("z", 12);
               P* s = b.vec("scale", 3);
               return b.check([&] { o::heads_minor_pinv_start<W>(2, 3, x, z, s); });
             }},
      OpCase{"heads_minor_shifted_negation",
             [] {
               Bench b;
               P* x = b.vec("x", 12);
               P* y = b.vec("y", 12);
               return b.check([&] { o::heads_minor_shifted_negation<W>(2, 3, x, P(2.0), y); });
             }},
      OpCase{"heads_minor_pinv",
             [] {
               Bench b;
               P* x = b.vec("x", 12);
               P* z = b.vec("z", 12);
               P* w = b.scratch("work", 36);
               return b.check([&] { o::heads_minor_pinv<W>(2, 3, 2, x, z, w); });
             }},
  };
}

}  // namespace

std::vector<OpCase> heads_cases() {
  std::vector<OpCase> v = heads_rows();
  for (auto* part : {&heads_panels, &heads_minor})
    for (OpCase& c : part()) v.push_back(std::move(c));
  return v;
}

}  // namespace cosda::footprint_probe
