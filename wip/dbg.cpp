#include <cstdio>
#include <random>
#include <sstream>
#include <vector>
#include <Eigen/Core>
#define private public
#include "attention/co_re.hpp"
#undef private
#include "attention/registry.hpp"
using namespace cosda;
int main(int argc, char** argv) {
  std::int64_t n = atoi(argv[1]), d = atoi(argv[2]);
  Config c; c.n = n; c.d = d;
  CoRe<Tally<double>> a(c);
  std::printf("transposed %d\n", int(a.transposed_));
  auto pr = [&](const char* name, const void* p, std::int64_t elems) {
    std::printf("%s %p..%p\n", name, p, (const void*)((const double*)p + elems)); };
  pr("q", a.q_.data(), a.q_.size()); pr("k", a.k_.data(), a.k_.size()); pr("v", a.v_.data(), a.v_.size());
  pr("av", a.av_.data(), a.av_.size()); pr("den", a.den_.data(), n); pr("inv", a.inv_.data(), n);
  pr("eold", a.e_old_.data(), n); pr("enew", a.e_new_.data(), n); pr("out", a.out_.data(), n*d);
  std::vector<double> x(3 * d); std::mt19937_64 rng(1); std::normal_distribution<double> nd;
  Liveness l(8);
  auto step = [&](bool measured) {
    for (auto& e : x) e = nd(rng);
    thread_liveness() = &l; l.begin_step(measured); l.write(x.data(), 3*d*8);
    bool r = a.step(x.data(), x.data()+d, x.data()+2*d); l.end_step();
    if (r) l.read(a.output().data(), a.output().size()*8); thread_liveness() = nullptr; };
  for (int t = 0; t < n; ++t) step(false);
  step(true); l.mark_pending();
  for (int t = 0; t < n + 2 && l.pending() > 0; ++t) step(false);
  auto [v, p] = l.finish();
  std::printf("valley %ld peak %ld\n", v, p);
}
