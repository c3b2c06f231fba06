// The one list of variants. Adding a variant: write attention/<id>.hpp (a class with
// kTraits and a Config constructor) and attention/<id>.cpp (one line: COSDA_DEFINE_VARIANT),
// then add one line here. Tests, CLI values and result columns
// follow from this list.
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

// Every execution policy the library is built for: X(E) for each, or X(E, args...).
#define COSDA_POLICIES(X, ...)                \
  X(Plain<float> __VA_OPT__(, ) __VA_ARGS__)  \
  X(Plain<double> __VA_OPT__(, ) __VA_ARGS__) \
  X(Tally<float> __VA_OPT__(, ) __VA_ARGS__)  \
  X(Tally<double> __VA_OPT__(, ) __VA_ARGS__) \
  X(Exact __VA_OPT__(, ) __VA_ARGS__)

// The factories are compiled once, with each variant's explicit instantiations: a translation
// unit that builds models through make_variant or make_model compiles no kernel, which keeps
// the build to minutes. make_<id><E> is defined in attention/<id>.cpp by COSDA_DEFINE_VARIANT,
// make_two_block<E> in attention/two_block.cpp.
#define COSDA_DECLARE_FACTORY(id, Class) \
  template <class E>                     \
  std::unique_ptr<Attention<E>> make_##id(const Config& c);
COSDA_VARIANTS(COSDA_DECLARE_FACTORY)
#undef COSDA_DECLARE_FACTORY
template <class E>
std::unique_ptr<Attention<E>> make_two_block(const VariantTraits& traits,
                                             std::unique_ptr<Attention<E>> first, const Config& c);

// In attention/<id>.cpp: the factory, then Class<E> and make_<id><E> for every policy.
#define COSDA_INSTANTIATE_VARIANT(E, id, Class) \
  template class Class<E>;                      \
  template std::unique_ptr<Attention<E>> make_##id<E>(const Config&);
#define COSDA_DEFINE_VARIANT(id, Class)                      \
  template <class E>                                         \
  std::unique_ptr<Attention<E>> make_##id(const Config& c) { \
    return std::make_unique<Class<E>>(c);                    \
  }                                                          \
  COSDA_POLICIES(COSDA_INSTANTIATE_VARIANT, id, Class)

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
  if (id == #vid) return make_##vid<E>(c);
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
  return make_two_block<E>(*t, make_variant<E>(t->first_block, c), c);
}

}  // namespace cosda
