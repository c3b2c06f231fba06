// The timed build's kernels for rows of any length (attention/kernels/rows.hpp,
// kernels/elementwise.hpp, vector_matrix.hpp) compute what plain loops compute. Their counts
// are the seam's (tests/counting_test.cpp); these hold their arithmetic and their bounds.
#include <Eigen/Core>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "attention/kernels/elementwise.hpp"
#include "attention/kernels/heads.hpp"
#include "attention/kernels/packet_exp.hpp"
#include "attention/kernels/packet_transpose.hpp"
#include "attention/kernels/rows.hpp"
#include "attention/kernels/vector_matrix.hpp"
#include "tests/test_util.hpp"

namespace cosda::test {
namespace {

// The row kernels (attention/kernels/rows.hpp) compute what plain loops
// compute, at every length from below one packet to past several (tails of every size, odd
// and even packet counts), on rows starting off a packet boundary, and write nothing beyond
// the row.
template <class T>
void expect_row_kernels(double tol) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  for (std::int64_t n = 1; n <= 5 * W + 3; ++n) {
    const std::int64_t off = n % 3 + 1;  // rows that start 1-3 elements into a buffer
    const Mat<T> x = Mat<T>::Random(1, n + off), a = Mat<T>::Random(1, n + off),
                 b = Mat<T>::Random(1, n + off);
    T xa = 0, xb = 0;
    kernels::dot2(x.data() + off, a.data() + off, b.data() + off, n, &xa, &xb);
    T want_a = 0, want_b = 0, scale = 0;
    for (std::int64_t j = off; j < n + off; ++j) {
      want_a += x(0, j) * a(0, j), want_b += x(0, j) * b(0, j);
      scale += std::abs(x(0, j) * a(0, j)) + std::abs(x(0, j) * b(0, j));
    }
    EXPECT_LE(std::abs(xa - want_a), tol * scale) << "dot2 a, n = " << n;
    EXPECT_LE(std::abs(xb - want_b), tol * scale) << "dot2 b, n = " << n;

    Mat<T> y = Mat<T>::Constant(1, n + off + W, T(-7));
    for (std::int64_t j = off; j < n + off; ++j) y(0, j) = T(0.25) * T(j % 5);
    const Mat<T> y0 = y;
    kernels::sub_add_scaled(y.data() + off, T(0.5), x.data() + off, T(-1.5), b.data() + off, n);
    for (std::int64_t j = 0; j < y.cols(); ++j) {
      const bool in = j >= off && j < n + off;
      const T want = in ? y0(0, j) - T(0.5) * x(0, j) + T(-1.5) * b(0, j) : T(-7);
      EXPECT_NEAR(y(0, j), want, tol * 4) << "sub_add_scaled, n = " << n << ", element " << j;
    }
  }
}

TEST(RowKernels, EqualPlainLoopsAtEveryLength) {
  expect_row_kernels<float>(1e-5);
  expect_row_kernels<double>(1e-14);
}

// The element-wise kernels (attention/kernels/elementwise.hpp: whole, half and quarter
// packets, then single elements) compute what plain loops compute at every length up to
// five packets and three, on rows starting off a packet boundary, and write nothing outside
// the row. Products, quotients and sums of two terms are exact in both; sums and
// exponentials within rounding.
template <class T>
void expect_elementwise_kernels(double tol) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  for (std::int64_t n = 1; n <= 5 * W + 3; ++n) {
    const std::int64_t off = n % 3 + 1, len = n + off + W;
    const std::string what = "n = " + std::to_string(n);
    const Mat<T> x = Mat<T>::Random(1, len), y0 = Mat<T>::Random(1, len);
    const auto in = [&](std::int64_t j) { return j >= off && j < n + off; };
    const auto expect_each = [&](const char* kernel, const Mat<T>& got, auto want, double rel) {
      for (std::int64_t j = 0; j < len; ++j) {
        const T w = in(j) ? want(j) : y0(0, j);
        EXPECT_NEAR(got(0, j), w, rel * (std::abs(w) + 1)) << kernel << ", " << what << ", " << j;
      }
    };
    Mat<T> y = y0;
    kernels::scaled_copy(x.data() + off, T(-3), y.data() + off, n);
    expect_each(
        "scaled_copy", y, [&](std::int64_t j) { return T(-3) * x(0, j); }, 0);
    y = y0;
    kernels::scaled_copy(y.data() + off, T(0.5), y.data() + off, n);  // in place
    expect_each(
        "scaled_copy in place", y, [&](std::int64_t j) { return T(0.5) * y0(0, j); }, 0);
    y = y0;
    kernels::quotient(y.data() + off, T(3), n);
    expect_each(
        "quotient", y, [&](std::int64_t j) { return y0(0, j) / T(3); }, 0);
    for (const int sign : {+1, -1}) {
      y = y0;
      kernels::accumulate(x.data() + off, y.data() + off, n, sign);
      expect_each(
          "accumulate", y, [&](std::int64_t j) { return y0(0, j) + T(sign) * x(0, j); }, 0);
      y = y0;
      kernels::axpy(T(0.75), x.data() + off, y.data() + off, n, sign);
      expect_each(
          "axpy", y, [&](std::int64_t j) { return y0(0, j) + T(sign) * T(0.75) * x(0, j); }, tol);
    }
    for (const bool shifted : {false, true}) {
      y = y0;
      kernels::exp_array(y.data() + off, n, shifted, T(0.5));
      expect_each(
          "exp_array", y,
          [&](std::int64_t j) { return std::exp(shifted ? y0(0, j) - T(0.5) : y0(0, j)); }, tol);
    }
    T want = 0, scale = 0;
    for (std::int64_t j = off; j < n + off; ++j) want += x(0, j), scale += std::abs(x(0, j));
    EXPECT_NEAR(kernels::sum(x.data() + off, n), want, tol * scale) << "sum, " << what;
  }
}

TEST(ElementwiseKernels, EqualPlainLoopsAtEveryLength) {
  expect_elementwise_kernels<float>(1e-6);
  expect_elementwise_kernels<double>(1e-15);
}

// kernels::transpose puts every element of x (rows x cols, rows ldx apart) at its transposed
// place in y (rows ldy apart) for every shape up to 9 x 9 (whole 4 x 4 tiles, their edges
// and neither), and writes nothing in the gaps between y's rows.
template <class T>
void expect_transpose() {
  for (std::int64_t rows = 1; rows <= 9; ++rows)
    for (std::int64_t cols = 1; cols <= 9; ++cols) {
      const std::int64_t ldx = cols + 1, ldy = rows + 2;
      const Mat<T> x = Mat<T>::Random(rows, ldx);
      Mat<T> y = Mat<T>::Constant(cols, ldy, T(-7));
      kernels::transpose(rows, cols, x.data(), ldx, y.data(), ldy);
      for (std::int64_t c = 0; c < cols; ++c)
        for (std::int64_t r = 0; r < ldy; ++r)
          EXPECT_EQ(y(c, r), r < rows ? x(r, c) : T(-7))
              << rows << " x " << cols << ": element (" << c << ", " << r << ")";
    }
}

TEST(ElementwiseKernels, TransposeMovesEveryElementAtEveryShape) {
  expect_transpose<float>();
  expect_transpose<double>();
}

// kernels::transpose_block (attention/kernels/packet_transpose.hpp) turns a block of W packets of W
// distinct values into its transpose, for T's full packet and its half packet. (Packet types as
// template arguments: GCC's warning about their vector attributes does not matter here.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
template <class P>
void expect_transpose_block() {
  using namespace Eigen::internal;
  using T = typename unpacket_traits<P>::type;
  constexpr int W = unpacket_traits<P>::size;
  T x[W * W], y[W * W];
  for (int i = 0; i < W * W; ++i) x[i] = T(i + 1);
  PacketBlock<P, W> b;
  for (int k = 0; k < W; ++k) b.packet[k] = ploadu<P>(x + k * W);
  kernels::transpose_block(b);
  for (int k = 0; k < W; ++k) pstoreu(y + k * W, b.packet[k]);
  for (int r = 0; r < W; ++r)
    for (int c = 0; c < W; ++c)
      EXPECT_EQ(y[r * W + c], x[c * W + r])
          << W << " x " << W << ": element (" << r << ", " << c << ")";
}

template <class T>
void expect_transpose_blocks() {
  using namespace Eigen::internal;
  using P = typename packet_traits<T>::type;
  using H = typename unpacket_traits<P>::half;
  expect_transpose_block<P>();
  if constexpr (int(unpacket_traits<H>::size) < int(unpacket_traits<P>::size))
    expect_transpose_block<H>();
}
#pragma GCC diagnostic pop

TEST(ElementwiseKernels, TransposeBlockTransposesEveryPacketWidth) {
  expect_transpose_blocks<float>();
  expect_transpose_blocks<double>();
}

// kernels::vector_matrix (attention/kernels/vector_matrix.hpp) equals the plain sum of scaled rows
// at every row length up to its limit (every mix of 4-, 2- and 1-packet blocks, half and quarter
// packets and single columns), at depths 1 to 9, on rows starting off a packet boundary and
// ldb apart with a gap, and writes nothing beyond y's n elements.
template <class T>
void expect_vector_matrix(double tol) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  for (std::int64_t n = 1; n <= kernels::kVectorMatrixMaxCols<T>; ++n)
    for (std::int64_t k = 1; k <= 9; k += 4) {
      const std::int64_t off = n % 3 + 1, ldb = n + off + 2;
      const Mat<T> x = Mat<T>::Random(1, k), b = Mat<T>::Random(k, ldb);
      Mat<T> y = Mat<T>::Constant(1, n + 1 + W, T(-7));
      kernels::vector_matrix(k, x.data(), b.data() + off, ldb, n, y.data() + 1);
      for (std::int64_t j = 0; j < y.cols(); ++j) {
        if (j < 1 || j > n) {
          EXPECT_EQ(y(0, j), T(-7)) << "written beyond y: n = " << n << ", element " << j;
          continue;
        }
        T want = 0, scale = 0;
        for (std::int64_t l = 0; l < k; ++l)
          want += x(0, l) * b(l, off + j - 1), scale += std::abs(x(0, l) * b(l, off + j - 1));
        EXPECT_LE(std::abs(y(0, j) - want), tol * scale)
            << "n = " << n << ", k = " << k << ", " << j;
      }
    }
}

// kernels::matrix_vector equals plain dot products at every depth up to three packets and
// three (whole packets, a half packet, single elements), for 1 to 9 rows (blocks of four and
// the rows after them), rows starting off a packet boundary and ldb apart with a gap; and each
// row has the bits of that row computed alone (a row's block does not change its sum's order).
template <class T>
void expect_matrix_vector(double tol) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  for (std::int64_t k = 1; k <= 3 * W + 3; ++k)
    for (std::int64_t n = 1; n <= 9; ++n) {
      const std::int64_t off = k % 3 + 1, ldb = k + off + 2;
      const Mat<T> x = Mat<T>::Random(1, k), b = Mat<T>::Random(n, ldb);
      Mat<T> y = Mat<T>::Constant(1, n + 2, T(-7));
      kernels::matrix_vector(k, x.data(), b.data() + off, ldb, n, y.data() + 1);
      EXPECT_EQ(y(0, 0), T(-7)) << "written before y: k = " << k << ", n = " << n;
      EXPECT_EQ(y(0, n + 1), T(-7)) << "written beyond y: k = " << k << ", n = " << n;
      for (std::int64_t j = 0; j < n; ++j) {
        T want = 0, scale = 0;
        for (std::int64_t l = 0; l < k; ++l)
          want += x(0, l) * b(j, off + l), scale += std::abs(x(0, l) * b(j, off + l));
        EXPECT_LE(std::abs(y(0, j + 1) - want), tol * scale)
            << "k = " << k << ", n = " << n << ", row " << j;
        T alone = 0;
        kernels::matrix_vector(k, x.data(), b.data() + j * ldb + off, ldb, 1, &alone);
        EXPECT_EQ(y(0, j + 1), alone) << "k = " << k << ", n = " << n << ", row " << j;
      }
    }
}

// kernels::heads_matrix_vector equals plain per-head dot products (row f against head
// f / dh's x) at every depth up to two packets and three, for head widths a multiple of four
// (groups of W rows across heads, and the rows after them) and not (per head), rows ldb
// apart with a gap, and writes nothing outside y.
template <class T>
void expect_heads_matrix_vector(double tol) {
  constexpr std::int64_t W = Eigen::internal::packet_traits<T>::size;
  for (const std::int64_t h : {1, 3, 16})
    for (const std::int64_t dh : {4, 5, 12, 20})
      for (std::int64_t k = 1; k <= 2 * W + 3; ++k) {
        const std::int64_t d = h * dh, ldb = k + 3, ldx = k + 1;
        const Mat<T> x = Mat<T>::Random(h, ldx), b = Mat<T>::Random(d, ldb);
        Mat<T> y = Mat<T>::Constant(1, d + 2, T(-7));
        kernels::heads_matrix_vector(k, dh, d, x.data(), ldx, b.data(), ldb, y.data() + 1);
        const std::string what = "h = " + std::to_string(h) + ", dh = " + std::to_string(dh) +
                                 ", k = " + std::to_string(k);
        EXPECT_EQ(y(0, 0), T(-7)) << "written before y: " << what;
        EXPECT_EQ(y(0, d + 1), T(-7)) << "written beyond y: " << what;
        for (std::int64_t f = 0; f < d; ++f) {
          T want = 0, scale = 0;
          for (std::int64_t l = 0; l < k; ++l)
            want += x(f / dh, l) * b(f, l), scale += std::abs(x(f / dh, l) * b(f, l));
          EXPECT_LE(std::abs(y(0, f + 1) - want), tol * scale) << what << ", row " << f;
        }
      }
}

TEST(VectorMatrix, HeadsMatrixVectorEqualsPerHeadDotProducts) {
  expect_heads_matrix_vector<float>(1e-5);
  expect_heads_matrix_vector<double>(1e-14);
}

TEST(VectorMatrix, EqualsPlainSumOfScaledRowsAtEveryLength) {
  expect_vector_matrix<float>(1e-5);
  expect_vector_matrix<double>(1e-14);
}

TEST(VectorMatrix, MatrixVectorEqualsPlainDotProductsAtEveryDepth) {
  expect_matrix_vector<float>(1e-5);
  expect_matrix_vector<double>(1e-14);
}

// Packet types carry alignment attributes that template arguments drop (harmlessly here).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"

// Units in the last place between two non-negative floats or doubles (their bit patterns order
// as they do); inf is one ulp above the largest finite value.
template <class T>
std::int64_t ulps(T a, T b) {
  using I = std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t>;
  return std::abs(std::int64_t{std::bit_cast<I>(a)} - std::int64_t{std::bit_cast<I>(b)});
}

// kernels::pexp on one packet of T: every lane x[i] to within max_ulps of libm's exp.
template <class T>
void expect_packet_exp(const T* x, std::int64_t max_ulps) {
  using P = typename Eigen::internal::packet_traits<T>::type;
  constexpr int W = Eigen::internal::unpacket_traits<P>::size;
  T y[W];
  Eigen::internal::pstoreu(y, kernels::pexp(Eigen::internal::ploadu<P>(x)));
  for (int i = 0; i < W; ++i) {
    const T want = std::exp(x[i]);
    if (std::isnan(want))
      EXPECT_TRUE(std::isnan(y[i])) << "exp(" << x[i] << ") = " << y[i];
    else
      EXPECT_LE(ulps(y[i], want), max_ulps)
          << "exp(" << x[i] << ") = " << y[i] << ", libm " << want;
  }
}

// The timed build's exponentials (attention/kernels/packet_exp.hpp) are within 2 ulp of libm over
// the whole domain, on packets entirely inside their fast path (|x| <= 708 in double, 87 in float)
// and on packets with one lane beyond it (the other path, for every other lane too), and give
// libm's inf, 0, subnormals and NaN at and beyond the ends.
template <class T>
void expect_exp_within_two_ulp(T lo, T hi, T fast, std::initializer_list<T> specials) {
  using P = typename Eigen::internal::packet_traits<T>::type;
  constexpr int W = Eigen::internal::unpacket_traits<P>::size;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<T> wide(lo, hi), narrow(T(-20), T(20));
  T x[W];
  for (int rep = 0; rep < 20000; ++rep) {
    for (int i = 0; i < W; ++i) x[i] = rep % 2 ? narrow(rng) : wide(rng);
    expect_packet_exp(x, 2);
    x[rep % W] = rep % 3 ? fast + T(0.5) : -fast - T(0.5);  // one lane off the fast path
    expect_packet_exp(x, 2);
  }
  const std::vector<T> s(specials);
  for (std::size_t k = 0; k < s.size(); ++k) {
    for (int i = 0; i < W; ++i) x[i] = s[(k + i) % s.size()];
    expect_packet_exp(x, 2);
  }
}

TEST(PacketExp, DoubleWithinTwoUlpOfLibmOverTheWholeDomain) {
  if constexpr (!kernels::detail::HasExponentField<Eigen::internal::packet_traits<double>::type>)
    GTEST_SKIP() << "no FMA or no integer packet shifts here: double packets take Eigen's pexp";
  const double inf = std::numeric_limits<double>::infinity();
  expect_exp_within_two_ulp<double>(
      -745.2, 709.78, 708.0,
      {0.0,    -0.0,   1.0,    -1.0,   708.0,
       -708.0, 709.78, 709.79, 710.0,  1e300,
       inf,    -inf,   -1e300, -745.0, -746.0,
       -740.0, -720.5, -709.9, 1e-300, -1e-20,
       0.5,    -0.5,   700.0,  -700.0, std::numeric_limits<double>::quiet_NaN()});
}

TEST(PacketExp, FloatWithinTwoUlpOfLibmOverTheWholeDomain) {
  if constexpr (!kernels::detail::HasExponentField<Eigen::internal::packet_traits<float>::type>)
    GTEST_SKIP() << "no FMA or no integer packet shifts here: float packets take Eigen's pexp";
  const float inf = std::numeric_limits<float>::infinity();
  expect_exp_within_two_ulp<float>(
      -103.9f, 88.72f, 87.0f,
      {0.0f,    -0.0f,  1.0f,   -1.0f,   87.0f,
       -87.0f,  88.72f, 88.73f, 89.0f,   1e30f,
       inf,     -inf,   -1e30f, -103.0f, -104.0f,
       -100.0f, -90.5f, -87.5f, 1e-30f,  -1e-20f,
       0.5f,    -0.5f,  80.0f,  -80.0f,  std::numeric_limits<float>::quiet_NaN()});
}

// Every one of the 2^32 floats, a packet at a time: within 1 ulp of libm's expf (NaN for NaN).
// About half a minute in the Release tree, so run on demand (docs/performance.md):
// build/bin/cosda_timed_tests --gtest_filter='*FloatExhaustive*' --gtest_also_run_disabled_tests
TEST(PacketExp, DISABLED_FloatExhaustiveWithinOneUlpOfLibm) {
  using P = Eigen::internal::packet_traits<float>::type;
  if constexpr (!kernels::detail::HasExponentField<P>)
    GTEST_SKIP() << "no FMA or no integer packet shifts here: float packets take Eigen's pexp";
  constexpr int W = Eigen::internal::unpacket_traits<P>::size;
  std::int64_t off = 0;  // floats more than 1 ulp from libm, or not NaN where libm's is
  float x[W], y[W], first = 0;
  for (std::uint64_t b = 0; b < (std::uint64_t{1} << 32); b += W) {
    for (int i = 0; i < W; ++i) x[i] = std::bit_cast<float>(std::uint32_t(b + std::uint64_t(i)));
    Eigen::internal::pstoreu(y, kernels::pexp(Eigen::internal::ploadu<P>(x)));
    for (int i = 0; i < W; ++i) {
      const float want = std::exp(x[i]);
      const bool bad = std::isnan(want) ? !std::isnan(y[i]) : ulps(y[i], want) > 1;
      if (bad && off++ == 0) first = x[i];
    }
  }
  EXPECT_EQ(off, 0) << "the first: exp(" << first << ")";
}

// exp_of (an Eigen expression through kernels::Exp) equals libm's exp within 2 ulp on every
// element of an array whose length leaves a scalar tail.
template <class T>
void expect_exp_of_matches_libm(T scale) {
  using A = Eigen::Array<T, Eigen::Dynamic, 1>;
  const A x = A::Random(1003) * scale;
  const A y = kernels::exp_of(x);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    EXPECT_LE(ulps(y[i], std::exp(x[i])), 2) << "exp(" << x[i] << ")";
}

TEST(PacketExp, ExpOfArrayExpressionsMatchesLibm) {
  using namespace Eigen::internal;
  constexpr bool doubles = kernels::detail::HasExponentField<packet_traits<double>::type>;
  constexpr bool floats = kernels::detail::HasExponentField<packet_traits<float>::type>;
  if constexpr (doubles) expect_exp_of_matches_libm<double>(700.0);
  if constexpr (floats) expect_exp_of_matches_libm<float>(86.0f);
  if constexpr (!doubles && !floats)
    GTEST_SKIP() << "no FMA or no integer packet shifts here: exp_of takes Eigen's pexp";
}

#pragma GCC diagnostic pop

}  // namespace
}  // namespace cosda::test
