// The one list of variants, which all else asks. To add one (docs/adding-a-variant.md): write
// variants/<id>.hpp (kTraits) and <id>.cpp (COSDA_DEFINE_VARIANT, forms); add X(id, Class) below.
#pragma once

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "attention/variants/att.hpp"
#include "attention/variants/co_re.hpp"
#include "attention/variants/co_si.hpp"
#include "attention/variants/cony_re_cont.hpp"
#include "attention/variants/cony_re_fix.hpp"
#include "attention/variants/cony_si_cont.hpp"
#include "attention/variants/cony_si_fix.hpp"
#include "attention/variants/corf_re.hpp"
#include "attention/variants/corf_si.hpp"
#include "attention/variants/ny.hpp"
#include "attention/variants/ny_fix.hpp"
#include "attention/variants/rf.hpp"

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
  X(cony_re_fix, CoNyReFix)   \
  X(rf, Rf)                   \
  X(corf_si, CoRfSi)          \
  X(corf_re, CoRfRe)

namespace cosda {

#define COSDA_TRAITS(id, Class) Class<Plain<double>>::kTraits,
inline constexpr std::array kVariants{COSDA_VARIANTS(COSDA_TRAITS)};
#undef COSDA_TRAITS

inline constexpr const VariantTraits* find_variant(std::string_view id) {
  for (const auto& v : kVariants)
    if (v.id == id) return &v;
  return nullptr;
}

inline constexpr auto kVariantIds = [] {
  std::array<std::string_view, kVariants.size()> ids{};
  for (std::size_t i = 0; i < kVariants.size(); ++i) ids[i] = kVariants[i].id;
  return ids;
}();

// Regular attention re-run over the window: what every relative (Rel.) column divides by.
inline constexpr const VariantTraits& reference_variant() {
  for (const auto& w : kVariants)
    if (w.family == Family::kSoftmax && !w.continual) return w;
  throw std::logic_error("the registry needs regular softmax attention");
}

// A continual v's sibling with the given output (same family, landmarks, continuity), v for the
// others, nullptr if none. Relations search `list` (a test's may add a variant), else kVariants.
template <class List>
constexpr const VariantTraits* sibling(const List& list, const VariantTraits& v,
                                       bool single_output) {
  for (const auto& w : list)
    if (w.family == v.family && w.landmarks == v.landmarks && w.continual == v.continual &&
        w.single_output == (v.continual ? single_output : v.single_output))
      return &w;
  return nullptr;
}
inline constexpr const VariantTraits* sibling(const VariantTraits& v, bool single_output) {
  return sibling(kVariants, v, single_output);
}

// Whether v has the two-block model: a continual v needs both siblings (a lone one has none).
template <class List>
constexpr bool has_two_block_model(const List& list, const VariantTraits& v) {
  return sibling(list, v, false) != nullptr && sibling(list, v, true) != nullptr;
}
inline constexpr bool has_two_block_model(const VariantTraits& v) {
  return has_two_block_model(kVariants, v);
}

// The papers' two-block model (Nyström Sec. V-A; CoTrans Sec. 3.8): v's retroactive then its
// single-output sibling for continual families, else v twice (v where a sibling is missing).
inline constexpr const VariantTraits& first_block(const VariantTraits& v) {
  const VariantTraits* s = sibling(v, false);
  return s != nullptr ? *s : v;
}
inline constexpr const VariantTraits& second_block(const VariantTraits& v) {
  const VariantTraits* s = sibling(v, true);
  return s != nullptr ? *s : v;
}

// The re-running variant of v's family and landmarks (co_si -> att; v if v re-runs), which every
// output of v equals; nullptr for continual landmarks (checked against ny with their set).
template <class List>
constexpr const VariantTraits* recomputed_of(const List& list, const VariantTraits& v) {
  for (const auto& w : list)
    if (w.family == v.family && w.landmarks == v.landmarks && !w.continual) return &w;
  return nullptr;
}
inline constexpr const VariantTraits* recomputed_of(const VariantTraits& v) {
  return recomputed_of(kVariants, v);
}

// v with fixed landmarks (cony_si_cont -> cony_si_fix); nullptr where there is none.
inline constexpr const VariantTraits* fixed_landmarks_of(const VariantTraits& v) {
  for (const auto& w : kVariants)
    if (w.family == v.family && w.continual == v.continual && w.single_output == v.single_output &&
        w.landmarks == LandmarkKind::kFixed)
      return &w;
  return nullptr;
}

namespace registry_checks {
// Ids and styles unique, one variant per (family, landmarks, continual, output) (sibling() is a
// function), continual landmarks have a fixed counterpart; a family may be one continual variant.
template <class List>
constexpr bool well_formed(const List& list) {
  for (std::size_t i = 0; i < list.size(); ++i)
    for (std::size_t j = i + 1; j < list.size(); ++j) {
      const VariantTraits &a = list[i], &b = list[j];
      if (a.id == b.id || (a.style.colour == b.style.colour && a.style.point == b.style.point))
        return false;
      if (a.family == b.family && a.landmarks == b.landmarks && a.continual == b.continual &&
          a.single_output == b.single_output)
        return false;
    }
  for (const VariantTraits& v : list) {
    if (!v.continual || v.landmarks != LandmarkKind::kContinual) continue;
    bool fixed = false;
    for (const VariantTraits& w : list)
      fixed = fixed || (w.family == v.family && w.continual && w.single_output == v.single_output &&
                        w.landmarks == LandmarkKind::kFixed);
    if (!fixed) return false;
  }
  return true;
}
}  // namespace registry_checks
static_assert(registry_checks::well_formed(kVariants),
              "variant ids and figure styles are unique, one variant per (family, landmarks, "
              "continual, output) kind, and continual landmarks have their fixed counterpart");

// Comma-separated ids, for messages.
inline std::string variant_list() {
  std::string s;
  for (const auto& v : kVariants) s += (s.empty() ? "" : ", ") + std::string(v.id);
  return s;
}

inline const VariantTraits& variant(std::string_view id) {
  const VariantTraits* t = find_variant(id);
  if (t == nullptr)
    throw std::invalid_argument("unknown variant '" + std::string(id) +
                                "'; known: " + variant_list());
  return *t;
}

// Every execution policy the library is built for: X(E) for each, or X(E, args...).
#define COSDA_POLICIES(X, ...)                \
  X(Plain<float> __VA_OPT__(, ) __VA_ARGS__)  \
  X(Plain<double> __VA_OPT__(, ) __VA_ARGS__) \
  X(Tally<float> __VA_OPT__(, ) __VA_ARGS__)  \
  X(Tally<double> __VA_OPT__(, ) __VA_ARGS__) \
  X(Exact __VA_OPT__(, ) __VA_ARGS__)

// Factories are instantiated once, in attention/variants/<id>.cpp (COSDA_DEFINE_VARIANT), so a
// unit using make_variant or make_model compiles no kernel; make_two_block: models/two_block.cpp.
#define COSDA_DECLARE_FACTORY(id, Class) \
  template <class E>                     \
  std::unique_ptr<Attention<E>> make_##id(const Config& c);
COSDA_VARIANTS(COSDA_DECLARE_FACTORY)
#undef COSDA_DECLARE_FACTORY
template <class E>
std::unique_ptr<Attention<E>> make_two_block(const VariantTraits& traits,
                                             std::unique_ptr<Attention<E>> first, const Config& c);
// Variants with a head-batched kernel: their class, Class(const Config&, heads), holds all heads
// of a block (c.d the full width); made in attention/variants/<id>.cpp by COSDA_DEFINE_HEADS.
#define COSDA_BATCHED(X)      \
  X(att, Att)                 \
  X(co_si, CoSi)              \
  X(co_re, CoRe)              \
  X(cony_si_fix, CoNySiFix)   \
  X(cony_si_cont, CoNySiCont) \
  X(corf_si, CoRfSi)          \
  X(corf_re, CoRfRe)          \
  X(cony_re_cont, CoNyReCont) \
  X(cony_re_fix, CoNyReFix)   \
  X(ny_fix, NyFix)            \
  X(ny, Ny)                   \
  X(rf, Rf)
#define COSDA_DECLARE_BATCHED(id, Class) \
  template <class E>                     \
  std::unique_ptr<Attention<E>> make_##id##_heads(const Config& c, std::int64_t heads);
COSDA_BATCHED(COSDA_DECLARE_BATCHED)
#undef COSDA_DECLARE_BATCHED
#define COSDA_BATCHED_ID(id, Class) std::string_view(#id),
inline constexpr std::array kBatchedIds{COSDA_BATCHED(COSDA_BATCHED_ID)};
#undef COSDA_BATCHED_ID

// In attention/variants/<id>.cpp: the factory, then Class<E> and make_<id><E> for every policy.
#define COSDA_INSTANTIATE_VARIANT(E, id, Class) \
  template class Class<E>;                      \
  template std::unique_ptr<Attention<E>> make_##id<E>(const Config&);
#define COSDA_DEFINE_VARIANT(id, Class)                      \
  template <class E>                                         \
  std::unique_ptr<Attention<E>> make_##id(const Config& c) { \
    return std::make_unique<Class<E>>(c);                    \
  }                                                          \
  COSDA_POLICIES(COSDA_INSTANTIATE_VARIANT, id, Class)

// In <id>.cpp of a COSDA_BATCHED variant, after COSDA_DEFINE_VARIANT: make_<id>_heads<E>.
#define COSDA_INSTANTIATE_HEADS(E, id, Class) \
  template std::unique_ptr<Attention<E>> make_##id##_heads<E>(const Config&, std::int64_t);
#define COSDA_DEFINE_HEADS(id, Class)                                                    \
  template <class E>                                                                     \
  std::unique_ptr<Attention<E>> make_##id##_heads(const Config& c, std::int64_t heads) { \
    return std::make_unique<Class<E>>(c, heads);                                         \
  }                                                                                      \
  COSDA_POLICIES(COSDA_INSTANTIATE_HEADS, id, Class)

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
  const VariantTraits& t = variant(id);
  require(has_two_block_model(t),
          "layers = 2: " + std::string(id) +
              " has no two-block model (no retroactive and single-output siblings in "
              "attention/registry.hpp); use layers = 1");
  return make_two_block<E>(t, make_variant<E>(first_block(t).id, c), c);
}

// One object for all h > 1 heads of one block (head-batched variants only; else nullptr).
template <class E>
std::unique_ptr<Attention<E>> make_batched(std::string_view id, const Config& c, std::int64_t heads,
                                           int layers) {
  if (heads <= 1 || layers != 1) return nullptr;
#define COSDA_MAKE_BATCHED(vid, Class) \
  if (id == #vid) return make_##vid##_heads<E>(c, heads);
  COSDA_BATCHED(COSDA_MAKE_BATCHED)
#undef COSDA_MAKE_BATCHED
  return nullptr;
}

}  // namespace cosda
