// Internal to analysis/verify*.cpp: the report under construction (Markdown, CSV, findings,
// verdicts), number formats, verdicts on symbolic forms, prose (analysis/verification_notes.md).
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/exact.hpp"
#include "analysis/verify.hpp"
#include "attention/counting/poly.hpp"

namespace cosda::verify {

// The columns of verification.csv, in order.
inline constexpr std::array<std::string_view, 16> kCsvColumns = {
    "section", "source", "variant",   "quantity", "convention", "n",     "d",       "m",
    "heads",   "layers", "published", "executed", "exact",      "ratio", "verdict", "class"};

// The verdict classes of a compared row: why a published number and an executed one agree or
// differ. `class <key>` entries of analysis/verification_notes.md read "<class>: <detail>".
inline constexpr std::array<std::string_view, 6> kClasses = {
    "reproduced", "convention", "paper error", "paper error (internal)", "implementation choice",
    "unexplained"};
// A claim whose verdict cosda cannot compute: a state of its own, counted apart from kClasses.
inline constexpr std::string_view kNotComputed = "not computed";

class Csv {
 public:
  Csv();
  // One row; `ratio` (executed / published) is filled in for the comparable sections.
  void row(const std::string& section, const std::string& source, const std::string& variant,
           const std::string& quantity, const std::string& convention, std::int64_t n,
           std::int64_t d, std::int64_t m, std::int64_t heads, std::int64_t layers,
           std::optional<double> published, std::optional<double> executed,
           std::optional<double> exact, const std::string& verdict, const std::string& cls);
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

struct Text {
  std::string md;
  Csv csv;
  std::vector<std::string> findings;
  // (section, "id quantity", verdict) of every symbolic comparison.
  std::vector<std::array<std::string, 3>> verdicts;
  // Every class key, in first-use order.
  std::vector<Classified> classes;
  // The class of one compared row with class key `key` (its `class <key>` notes entry; without
  // one, a verdict of agreement is `reproduced` and anything else `unexplained`), counted.
  std::string cls(const std::string& section, const std::string& key, const std::string& verdict);
  // The class of a claim from its computed verdict: `reproduced` when it holds, its notes entry
  // when it does not, kNotComputed (with `why`) when cosda cannot compute it.
  std::string claim_cls(const std::string& key, std::optional<bool> holds, const std::string& why,
                        const std::string& section = "claims");
  template <class... T>
  void p(fmt::format_string<T...> f, T&&... args) {
    fmt::format_to(std::back_inserter(md), f, std::forward<T>(args)...);
  }
};

// An integer as such, anything else with two decimals.
std::string num(double x);
// ours / theirs with three decimals; "-" when theirs is 0.
std::string ratio(double ours, double theirs);
// Whether `value` prints as `printed` with `decimals` decimals.
bool prints_as(double value, double printed, int decimals);

// Leading terms (highest total degree) of a form; s counts as degree 1 (s <= n).
std::string leading_str(const exact::Form& f);

enum class Verdict { kExact, kSameLeading, kDifferent };
std::string verdict_name(Verdict v);
Verdict compare_forms(const Poly& published, const exact::Form& ours);

// The entry `key` of analysis/verification_notes.md as one paragraph; empty when absent.
std::string note(std::string_view key);
// The same for an entry that must exist (std::logic_error otherwise).
std::string required_note(std::string_view key);
// A list entry: one string per paragraph.
std::vector<std::string> note_list(std::string_view key);
// The class and detail of `key`: its `class <key>` entry, else from the verdict.
std::pair<std::string, std::string> classify(std::string_view key, std::string_view verdict);

// Why a published formula differs for variant `id`: the entry "<id> <quantity>".
std::string explain(std::string_view id, std::string_view quantity);

}  // namespace cosda::verify
