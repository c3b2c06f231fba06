// Formats, verdicts and the CSV table of the verification report.
#include "analysis/verify_text.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "io/csv.hpp"

namespace cosda::verify {

Csv::Csv() {
  for (const std::string_view c : kCsvColumns) (text_ += c) += ',';
  text_.back() = '\n';
}

void Csv::row(const std::string& section, const std::string& source, const std::string& variant,
              const std::string& quantity, const std::string& convention, std::int64_t n,
              std::int64_t d, std::int64_t m, std::int64_t heads, std::int64_t layers,
              std::optional<double> published, std::optional<double> executed,
              std::optional<double> exact, const std::string& verdict, const std::string& cls) {
  auto opt = [](std::optional<double> x) {
    return x && std::isfinite(*x) ? fmt::format("{:.10g}", *x) : std::string();
  };
  const bool comparable = section != "exact" && section != "table1";
  const std::string r =
      comparable && published && executed && *published != 0 && std::isfinite(*executed)
          ? fmt::format("{:.6g}", *executed / *published)
          : "";
  const std::string cells[] = {section,
                               source,
                               variant,
                               quantity,
                               convention,
                               std::to_string(n),
                               std::to_string(d),
                               std::to_string(m),
                               std::to_string(heads),
                               std::to_string(layers),
                               opt(published),
                               opt(executed),
                               opt(exact),
                               r,
                               verdict,
                               cls};
  static_assert(std::size(cells) == kCsvColumns.size());
  for (const std::string& c : cells) (text_ += csv_field(c)) += ',';
  text_.back() = '\n';
}

std::string num(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) return fmt::format("{:.0f}", x);
  return fmt::format("{:.2f}", x);
}

std::string ratio(double ours, double theirs) {
  if (theirs == 0) return "-";
  return fmt::format("{:.3f}", ours / theirs);
}

bool prints_as(double value, double printed, int decimals) {
  const double half = 0.5 * std::pow(10.0, -decimals);
  return value >= printed - half - 1e-12 && value <= printed + half + 1e-12;
}

std::string leading_str(const exact::Form& f) {
  const int db = f.base.degree(), ds = f.per_s.is_zero() ? -1 : f.per_s.degree() + 1;
  if (ds < db) return f.base.leading().str();
  if (db < ds) return exact::Form{{}, f.per_s.leading()}.str();
  return exact::Form{f.base.leading(), f.per_s.leading()}.str();
}

std::string verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kExact:
      return "exact";
    case Verdict::kSameLeading:
      return "same leading term";
    case Verdict::kDifferent:
      return "different";
  }
  return "";
}

Verdict compare_forms(const Poly& published, const exact::Form& ours) {
  if (ours.per_s.is_zero() && ours.base == published) return Verdict::kExact;
  const int db = ours.base.degree(), ds = ours.per_s.is_zero() ? -1 : ours.per_s.degree() + 1;
  if (ds < db && ours.base.leading() == published.leading()) return Verdict::kSameLeading;
  return Verdict::kDifferent;
}

std::pair<std::string, std::string> classify(std::string_view key, std::string_view verdict) {
  const std::string entry = note("class " + std::string(key));
  if (!entry.empty()) {
    const std::size_t colon = entry.find(": ");
    const std::string name = entry.substr(0, colon);
    if (colon == std::string::npos ||
        std::find(kClasses.begin(), kClasses.end(), name) == kClasses.end())
      throw std::logic_error("analysis/verification_notes.md: entry 'class " + std::string(key) +
                             "' does not start with a class and ': '");
    return {name, entry.substr(colon + 2)};
  }
  for (const std::string_view agree :
       {"exact", "reproduced", "agrees", "same power, not asymptotic here", "equal"})
    if (verdict == agree) return {"reproduced", "the verdict is " + std::string(verdict)};
  return {"unexplained", "no class entry for this key"};
}

std::string Text::cls(const std::string& section, const std::string& key,
                      const std::string& verdict) {
  auto [name, detail] = classify(key, verdict);
  for (Classified& c : classes)
    if (c.section == section && c.key == key && c.cls == name) {
      ++c.rows;
      return name;
    }
  classes.push_back({section, key, name, detail, 1});
  return name;
}

std::string Text::claim_cls(const std::string& key, std::optional<bool> holds,
                            const std::string& why, const std::string& section) {
  const auto count = [&](const std::string& name, const std::string& detail) {
    for (Classified& c : classes)
      if (c.section == section && c.key == key && c.cls == name) return ++c.rows, name;
    classes.push_back({section, key, name, detail, 1});
    return name;
  };
  if (!holds) return count(std::string(kNotComputed), why);
  if (*holds) return count("reproduced", "the computed verdict holds");
  auto [name, detail] = classify(key, "does not hold as stated");
  return count(name, detail);
}

std::string explain(std::string_view id, std::string_view quantity) {
  return note(std::string(id) + " " + std::string(quantity));
}

}  // namespace cosda::verify
