// The one list of variants. Adding a variant: write attention/<id>.hpp (a class with
// kTraits and a Config constructor) and attention/<id>.cpp (its explicit instantiations),
// then add one line here. Tests, CLI values and result columns follow from this list.
#pragma once

#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "attention/att.hpp"
#include "attention/co_re.hpp"
#include "attention/co_si.hpp"
#include "attention/cony_re_cont.hpp"
#include "attention/cony_re_fix.hpp"
#include "attention/cony_si_cont.hpp"
#include "attention/cony_si_fix.hpp"
#include "attention/ny.hpp"
#include "attention/ny_fix.hpp"
#include "attention/two_block.hpp"

// X(id, Class)
#define COSDA_VARIANTS(X)     \
  X(att, Att)                 \
  X(ny, Ny)                   \
  X(ny_fix, NyFix)            \
  X(co_si, CoSi)              \
  X(co_re, CoRe)              \
  X(cony_si_cont, CoNySiCont) \
  X(cony_re_cont, CoNyReCont) \
  X(cony_si_fix, CoNySiFix)   \
  X(cony_re_fix, CoNyReFix)

namespace cosda {

#define COSDA_TRAITS(id, Class) Class<Plain<double>>::kTraits,
inline constexpr std::array kVariants{COSDA_VARIANTS(COSDA_TRAITS)};
#undef COSDA_TRAITS
static_assert(kVariants.size() == 9, "the papers define nine variants; update docs and tests");

inline const VariantTraits* find_variant(std::string_view id) {
  for (const auto& v : kVariants)
    if (v.id == id) return &v;
  return nullptr;
}

// Comma-separated ids, for messages.
inline std::string variant_list() {
  std::string s;
  for (const auto& v : kVariants) s += (s.empty() ? "" : ", ") + std::string(v.id);
  return s;
}

template <class E>
std::unique_ptr<Attention<E>> make_variant(std::string_view id, const Config& c) {
  require(c.n >= 1 && c.d >= 1, "variant: needs n >= 1 and d >= 1");
  if (c.exp_shift) {  // the stabilised mode (Config::exp_shift)
    const VariantTraits* t = find_variant(id);
    require(std::isfinite(*c.exp_shift), "exp_shift must be a finite number");
    require(t == nullptr || t->continual,
            "exp_shift (the stabilised mode) applies to the continual variants, not " +
                std::string(id));
  }
#define COSDA_MAKE(vid, Class) \
  if (id == #vid) return std::make_unique<Class<E>>(c);
  COSDA_VARIANTS(COSDA_MAKE)
#undef COSDA_MAKE
  throw std::invalid_argument("unknown variant '" + std::string(id) +
                              "'; known: " + variant_list());
}

// One block (layers = 1) or the papers' two-block model of the variant (layers = 2).
template <class E>
std::unique_ptr<Attention<E>> make_model(std::string_view id, const Config& c, int layers) {
  require(layers == 1 || layers == 2, "layers must be 1 or 2");
  if (layers == 1) return make_variant<E>(id, c);
  const VariantTraits* t = find_variant(id);
  require(t != nullptr, "unknown variant '" + std::string(id) + "'; known: " + variant_list());
  return std::make_unique<TwoBlock<E>>(*t, make_variant<E>(t->first_block, c), c);
}

// Every execution policy the library is built for (explicit instantiations in each variant's
// .cpp keep compile times down).
#define COSDA_POLICIES(X) X(Plain<float>) X(Plain<double>) X(Tally<float>) X(Tally<double>) X(Exact)

}  // namespace cosda
