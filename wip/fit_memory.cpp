#include <cstdio>
#include <cstdlib>
#include <set>
#include "analysis/exact.hpp"
#include "analysis/fit.hpp"
#include "analysis/measure.hpp"
#include "attention/registry.hpp"
using namespace cosda;
int main(int argc, char** argv) {
  for (const auto& idv : kVariantIds) {
    std::string id(idv);
    if (argc > 1 && id != argv[1]) continue;
    const auto* t = find_variant(id);
    const bool lm = t->landmarks != LandmarkKind::kNone;
    const bool cont = t->landmarks == LandmarkKind::kContinual;
    std::vector<fit::Sample> vs, ps, pps, pus, all, allp; const long nmin = getenv("NMIN") ? atol(getenv("NMIN")) : 3;
    for (std::int64_t n : {1, 2, 3, 5, 7, 8, 12, 13})
      for (std::int64_t d : {1, 2, 3, 6, 40})
        for (std::int64_t m : std::set<std::int64_t>{1, 2, 3, 5, n}) {
          if (m > n || (!lm && m != 1)) continue;
          const Cost c = measure({id, n, d, m, 1});
          const auto seg = exact::segments(n, lm ? m : 1);
          if (n >= nmin) vs.push_back({n, d, m, seg.c, c.valley});
          if (n >= nmin) ps.push_back({n, d, m, seg.c, c.peak - c.valley});
          all.push_back({n, d, m, seg.c, c.valley}); allp.push_back({n, d, m, seg.c, c.peak - c.valley});
          const Cost old = exact::evaluate({id, n, d, m, 1});
          if (argc > 2) std::printf("%s n=%ld d=%ld m=%ld valley %ld (old %ld) peak %ld (old %ld)\n", id.c_str(), n, d, m, c.valley, old.valley, c.peak, old.peak);
        }
    auto b = fit::basis(2, 1, lm ? 3 : 0, 3, cont ? 1 : -1);
    auto fv = fit::fit_form(b, vs);
    auto fp = fit::fit_form(b, ps);
    std::printf("%-14s valley: %s\n", id.c_str(), fv ? fv->str().c_str() : "NO FIT");
    std::printf("%-14s live  : %s\n", id.c_str(), fp ? fp->str().c_str() : "NO FIT");
    if (fv) for (auto& q : all) if (fv->eval(q.n,q.d,q.m,q.s) != q.value) std::printf("   valley off n=%ld d=%ld m=%ld: %ld vs %ld\n", q.n,q.d,q.m,q.value, fv->eval(q.n,q.d,q.m,q.s));
    if (fp) for (auto& q : allp) if (fp->eval(q.n,q.d,q.m,q.s) != q.value) std::printf("   live off n=%ld d=%ld m=%ld: %ld vs %ld\n", q.n,q.d,q.m,q.value, fp->eval(q.n,q.d,q.m,q.s));
    const auto* f = exact::forms(id);
    std::printf("%-14s old valley: %s\n", id.c_str(), f->valley.str().c_str());
  }
}
