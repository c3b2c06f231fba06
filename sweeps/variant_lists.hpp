// Variant lists for help texts and messages, built from the registry (never spelled out).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "attention/registry.hpp"

namespace cosda {

// The variants `keep` selects as comma-separated patterns: a continual id folds to its first
// word, "*" and with `last_word` its last word (co_*, cony_*_fix); other ids stay whole.
template <class Keep>
std::string id_patterns(Keep keep, bool last_word) {
  std::vector<std::string> patterns;
  for (const auto& v : kVariants) {
    if (!keep(v)) continue;
    std::string p(v.id);
    if (v.continual)
      p = p.substr(0, p.find('_')) + "_*" + (last_word ? p.substr(p.rfind('_')) : "");
    if (std::find(patterns.begin(), patterns.end(), p) == patterns.end()) patterns.push_back(p);
  }
  std::string s;
  for (const auto& p : patterns) s += (s.empty() ? "" : ", ") + p;
  return s;
}

// The variants with a rank m (landmarks or random features), as patterns: what --m applies to.
inline std::string landmark_patterns() {
  return id_patterns([](const VariantTraits& v) { return v.landmarks != LandmarkKind::kNone; },
                     false);
}

// Whether v computes a pseudo-inverse (the Nyström variants): what --exact-pinv applies to.
inline bool has_pinv(const VariantTraits& v) {
  return v.family == Family::kNystrom && v.landmarks != LandmarkKind::kNone;
}
inline std::string pinv_patterns() { return id_patterns(has_pinv, false); }

}  // namespace cosda
