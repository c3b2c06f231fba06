#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>
#include "analysis/exact.hpp"
#include "analysis/fit.hpp"
#include "analysis/measure.hpp"
#include "attention/registry.hpp"
using namespace cosda;
struct Pt { std::int64_t n, d, m, s, valley, live; bool update_only; };
int main(int argc, char** argv) {
  const long nmin = getenv("NMIN") ? atol(getenv("NMIN")) : 3;
  for (const auto& idv : kVariantIds) {
    std::string id(idv);
    if (argc > 1 && id != argv[1]) continue;
    const auto* t = find_variant(id);
    const bool lm = t->landmarks != LandmarkKind::kNone;
    const bool cont = t->landmarks == LandmarkKind::kContinual;
    std::vector<Pt> pts;
    for (std::int64_t n : {1, 2, 3, 5, 7, 8, 12, 13})
      for (std::int64_t d : {1, 2, 3, 6, 40})
        for (std::int64_t m : std::set<std::int64_t>{1, 2, 3, 5, n}) {
          if (m > n || (!lm && m != 1) || n < nmin) continue;
          { const char* r = getenv("REG"); std::string reg = r ? r : "all";
            if (lm && reg == "generic" && (m == 1 || m == n)) continue;
            if (lm && reg == "m1" && m != 1) continue;
            if (lm && reg == "mn" && (m != n || m == 1)) continue; }
          const Cost c = measure({id, n, d, m, 1});
          const auto seg = exact::segments(n, lm ? m : 1);
          pts.push_back({n, d, lm ? m : 1, seg.c, c.valley, c.peak - c.valley, c.plain_steps == 0});
        }
    auto b = fit::basis(2, 1, lm ? 3 : 0, 3, cont ? 1 : -1);
    std::vector<fit::Sample> vs;
    for (auto& p : pts) vs.push_back({p.n, p.d, p.m, p.s, p.valley});
    auto fv = vs.size() >= b.size() ? fit::fit_form(b, vs) : std::nullopt;
    std::printf("%s valley %s\n", id.c_str(), fv ? fv->str().c_str() : "NO FIT");
    if (fv) for (auto& p : pts) if (fv->eval(p.n,p.d,p.m,p.s) != p.valley) std::printf("   valley off n=%ld d=%ld m=%ld\n", p.n,p.d,p.m);
    auto b2 = fit::basis(2, 1, lm ? 3 : 0, getenv("DEG") ? atoi(getenv("DEG")) : 3, cont ? 1 : -1);
    std::vector<std::pair<std::string, std::function<bool(const Pt&)>>> preds = {
      {"all", [](const Pt&) { return true; }},
      {"s=1", [](const Pt& p) { return p.s == 1; }},
      {"s>=2", [](const Pt& p) { return p.s >= 2; }},
      {"d>=s", [](const Pt& p) { return p.d >= p.s; }},
      {"d<s", [](const Pt& p) { return p.d < p.s; }},
      {"d=40", [](const Pt& p) { return p.d == 40; }},
      {"d<=6", [](const Pt& p) { return p.d <= 6; }},
      {"d<=3", [](const Pt& p) { return p.d <= 3; }},
      {"d>=n", [](const Pt& p) { return p.d >= p.n; }},
      {"d<n", [](const Pt& p) { return p.d < p.n; }},
      {"m<n", [](const Pt& p) { return p.m < p.n; }},
      {"m=n", [](const Pt& p) { return p.m == p.n; }},
      {"d<m", [](const Pt& p) { return p.d < p.m; }},
      {"d>=m", [](const Pt& p) { return p.d >= p.m; }},
      {"d=1", [](const Pt& p) { return p.d == 1; }},
      {"d<=2", [](const Pt& p) { return p.d <= 2; }},
      {"m<n,d=40", [](const Pt& p) { return p.m < p.n && p.d == 40; }},
      {"m<n,d<=6", [](const Pt& p) { return p.m < p.n && p.d <= 6; }},
      {"m=1", [](const Pt& p) { return p.m == 1; }},
      {"m>=2", [](const Pt& p) { return p.m >= 2; }},
      {"m<=2", [](const Pt& p) { return p.m <= 2; }},
      {"m>=3", [](const Pt& p) { return p.m >= 3; }},
      {"d>=6", [](const Pt& p) { return p.d >= 6; }},
      {"d>=3", [](const Pt& p) { return p.d >= 3; }},
      {"d>=2", [](const Pt& p) { return p.d >= 2; }},
      {"d>=n,m<n", [](const Pt& p) { return p.d >= p.n && p.m < p.n; }},
      {"d<n,m<n", [](const Pt& p) { return p.d < p.n && p.m < p.n; }},
      {"d<=m", [](const Pt& p) { return p.d <= p.m; }},
      {"d>m", [](const Pt& p) { return p.d > p.m; }},
      {"d>=2m", [](const Pt& p) { return p.d >= 2*p.m; }},
    };
    std::vector<Pt> rest = pts;
    std::vector<exact::Form> phases;
    for (int round = 0; round < 6 && !rest.empty(); ++round) {
      bool found = false;
      for (auto& [name, pr] : preds) {
        std::vector<fit::Sample> ss;
        for (auto& p : rest) if (pr(p)) ss.push_back({p.n, p.d, p.m, p.s, p.live});
        if (ss.size() < (getenv("MINS") ? size_t(atol(getenv("MINS"))) : 12)) continue;
        if (ss.size() < b2.size()) continue;
        auto f = fit::fit_form(b2, ss);
        if (!f) continue;
        bool below = true;
        for (auto& p : pts) below = below && f->eval(p.n, p.d, p.m, p.s) <= p.live;
        if (!below) continue;
        std::printf("  phase on %s: %s\n", name.c_str(), f->str().c_str());
        phases.push_back(*f);
        std::vector<Pt> r2;
        for (auto& p : rest) if (f->eval(p.n, p.d, p.m, p.s) != p.live) r2.push_back(p);
        rest = r2; found = true; break;
      }
      if (!found) break;
    }
    std::printf("  unexplained: %zu\n", rest.size());
    for (size_t i = 0; i < rest.size() && i < 8; ++i) std::printf("    n=%ld d=%ld m=%ld live=%ld%s\n", rest[i].n, rest[i].d, rest[i].m, rest[i].live, rest[i].update_only ? " (m=n)" : "");
  }
}
