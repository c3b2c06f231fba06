// Seeded token streams for the accuracy and numerics studies (cosda accuracy, drift, overflow).
// Features have unit variance before `scale` multiplies them, so one knob sets how peaked the
// softmax is: scores q.k/sqrt(d) grow as scale^2 (about N(0, scale^4) when projected).
//   gaussian  i.i.d. N(0, I)
//   ar1       x_t = a x_{t-1} + sqrt(1 - a^2) e_t, a near 1: a smooth stream
//   periodic  x_tj = sqrt(2 (1 - eta^2)) sin(2 pi h_j t / P + phi_j) + eta e_tj, h_j in {1,2,3}
//   regime    x_t = mu_r + s_r e_t, regimes of 1 + geometric length; mu_r ~ N(0, regime_mean^2 I),
//             s_r log-uniform in [1/regime_scale, regime_scale]
//   data      the rows of a given matrix (a user .npy), in order, then an error when exhausted
// A stream is a pure function of its spec (same seed, same tokens).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>

namespace cosda {

enum class StreamKind { kGaussian, kAr1, kPeriodic, kRegime, kData };

// "gaussian", "ar1", "periodic", "regime", "npy" (kData); null for an unknown name.
const StreamKind* stream_kind(std::string_view name);
std::string_view stream_kind_name(StreamKind k);

struct StreamSpec {
  StreamKind kind = StreamKind::kGaussian;
  double scale = 1.0;  // multiplies every token (peaked vs flat softmax)
  std::uint64_t seed = 1;
  double ar_coefficient = 0.99;                 // ar1, in (-1, 1)
  std::int64_t period = 37;                     // periodic, tokens per period (>= 2)
  double periodic_noise = 0.1;                  // periodic, eta in [0, 1]
  std::int64_t regime_length = 200;             // regime, mean tokens per regime (>= 1)
  double regime_mean = 1.0;                     // regime, std of regime means (>= 0)
  double regime_scale = 3.0;                    // regime, largest scale factor (>= 1)
  std::shared_ptr<const Eigen::MatrixXd> data;  // kData: T x d tokens
};

// Throws std::invalid_argument naming the parameter out of range.
void validate(const StreamSpec& s, std::int64_t d);

class TokenStream {
 public:
  TokenStream(const StreamSpec& spec, std::int64_t d);
  // Writes the next token (d values).
  void next(double* x);

 private:
  StreamSpec spec_;
  std::int64_t d_, t_ = 0;
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_{0.0, 1.0};
  Eigen::VectorXd state_, phase_, mean_;  // ar1 state; periodic phases; regime mean
  double regime_s_ = 1.0;
  std::int64_t regime_left_ = 0;
};

// The first `rows` tokens of the stream, T x d.
Eigen::MatrixXd generate(const StreamSpec& spec, std::int64_t rows, std::int64_t d);

// How a token x becomes (q, k, v). kShared: q = k = v = x (self-attention, as `cosda stream` runs
// it); kProjected: x Wq, x Wk, x Wv, seeded random orthogonal d x d (norms kept, no q.k self-peak).
enum class Projection { kShared, kProjected };
const Projection* projection_kind(std::string_view name);  // "shared", "projected"
std::string_view projection_name(Projection p);

class Projector {
 public:
  Projector(Projection p, std::int64_t d, std::uint64_t seed);
  // q, k, v: d values each (none may alias x).
  void apply(const double* x, double* q, double* k, double* v) const;
  Projection kind() const { return kind_; }

 private:
  Projection kind_;
  std::int64_t d_;
  Eigen::MatrixXd wq_, wk_, wv_;
};

// q, k, v rows of a whole token matrix.
struct Qkv {
  Eigen::MatrixXd q, k, v;
  std::int64_t rows() const { return q.rows(); }
  Qkv middle_rows(std::int64_t first, std::int64_t count) const {
    return {q.middleRows(first, count), k.middleRows(first, count), v.middleRows(first, count)};
  }
};
Qkv project(const Projector& p, const Eigen::MatrixXd& x);

// A stream of a study config ([[stream]] section): its tokens and how they become q, k, v.
struct NamedStream {
  std::string name;
  StreamSpec spec;
  Projection projection = Projection::kProjected;
  std::uint64_t projection_seed = 2;
  // Given q, k, v (kind "npy" with q, k, v files): used as they are, unprojected; spec.data unused.
  std::shared_ptr<const Qkv> qkv;
  // The .npy files read, for meta.json: "path (T x d, values fnv1a64 <hash>)" each.
  std::vector<std::string> inputs;
};

// q, k, v of the stream's first `rows` tokens. A stream too short (a user .npy) is an
// InputError "stream '<name>': <why> (<need> = <rows> tokens)".
Qkv stream_qkv(const NamedStream& s, std::int64_t rows, std::int64_t d, const std::string& need);

}  // namespace cosda
