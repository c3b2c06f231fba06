#include "sweeps/points.hpp"

#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <functional>
#include <map>
#include <stdexcept>
#include <type_traits>

#include "io/csv.hpp"
#include "io/errors.hpp"

namespace cosda {
namespace {

// Whole numbers without a decimal point, others in fmt's shortest round-trip form.
std::string num(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
    return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{}", v);
}
std::string num(const std::optional<double>& v) { return v ? num(*v) : std::string(); }

// A numeric cell: nullopt when empty; std::invalid_argument unless the whole cell is a number.
std::optional<double> parse_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  std::size_t used = 0;
  const double v = std::stod(s, &used);
  if (used != s.size()) throw std::invalid_argument(s);
  return v;
}

template <class T>
std::optional<double> as_number(const T& v) {
  if constexpr (std::is_same_v<T, std::optional<double>>)
    return v;
  else
    return double(v);
}

// The member that obj.*First.*Rest... reaches (a row's field, or one of its point's).
template <auto First, auto... Rest>
constexpr auto& field(auto& obj) {
  if constexpr (sizeof...(Rest) == 0)
    return obj.*First;
  else
    return field<Rest...>(obj.*First);
}

// How a column writes, reads and values the field at Path.
template <auto... Path>
std::string write_cell(const SweepRow& r) {
  const auto& v = field<Path...>(r);
  if constexpr (std::is_same_v<std::remove_cvref_t<decltype(v)>, std::string>)
    return csv_field(v);
  else
    return num(as_number(v));
}

// An empty cell reads as kEmpty (nullopt for an optional field).
template <int kEmpty, auto... Path>
void read_cell(SweepRow& r, const std::string& s) {
  auto& v = field<Path...>(r);
  using T = std::remove_cvref_t<decltype(v)>;
  if constexpr (std::is_same_v<T, std::string>)
    v = s;
  else if constexpr (std::is_same_v<T, std::optional<double>>)
    v = parse_number(s);
  else
    v = T(parse_number(s).value_or(double(kEmpty)));
}

// A negative kEmpty marks an "unknown" sentinel (heap_peak_bytes -1), so negatives are no value.
template <int kEmpty, auto... Path>
std::optional<double> number_of(const SweepRow& r) {
  const auto& v = field<Path...>(r);
  if constexpr (std::is_same_v<std::remove_cvref_t<decltype(v)>, std::string>) {
    return std::nullopt;
  } else {
    const std::optional<double> x = as_number(v);
    if constexpr (kEmpty < 0)
      if (x && *x < 0) return std::nullopt;
    return x;
  }
}

template <int kEmpty, auto... Path>
constexpr PointsColumn column(std::string_view name, bool executed_only) {
  return {name, executed_only, &write_cell<Path...>, &read_cell<kEmpty, Path...>,
          &number_of<kEmpty, Path...>};
}

constexpr auto kPoint = &SweepRow::point;
constexpr bool kAlways = false, kExecuted = true;

// The points.csv columns, in file order (see points.hpp for what each holds).
const PointsColumn kColumns[] = {
    column<0, kPoint, &Point::variant>("variant", kAlways),
    column<0, kPoint, &Point::layers>("layers", kAlways),
    column<0, kPoint, &Point::heads>("heads", kAlways),
    column<0, kPoint, &Point::n>("n", kAlways),
    column<0, kPoint, &Point::d>("d", kAlways),
    column<0, kPoint, &Point::m>("m", kAlways),
    column<0, &SweepRow::flops>("flops", kExecuted),
    column<0, &SweepRow::mul>("mul", kExecuted),
    column<0, &SweepRow::add>("add", kExecuted),
    column<0, &SweepRow::div>("div", kExecuted),
    column<0, &SweepRow::exp>("exp", kExecuted),
    column<0, &SweepRow::other>("other", kExecuted),
    column<0, &SweepRow::valley>("valley", kExecuted),
    column<0, &SweepRow::peak>("peak", kExecuted),
    column<-1, &SweepRow::heap_peak_bytes>("heap_peak_bytes", kExecuted),
    column<0, &SweepRow::published_flops>("published_flops", kAlways),
    column<0, &SweepRow::published_valley>("published_valley", kAlways),
    column<0, &SweepRow::published_peak>("published_peak", kAlways),
    column<0, &SweepRow::exact_flops>("exact_flops", kAlways),
    column<0, &SweepRow::update_flops>("update_flops", kExecuted),
    column<0, &SweepRow::plain_flops>("plain_flops", kExecuted),
    column<0, &SweepRow::cycle_steps>("cycle_steps", kExecuted),
    column<0, &SweepRow::update_steps>("update_steps", kExecuted),
    column<0, &SweepRow::skip_reason>("skip_reason", kAlways),
};

// Reads the rows after the header; `col` maps header names to cell positions.
SweepRow read_row(const std::vector<std::string>& f, const std::map<std::string, std::size_t>& col,
                  const std::function<void(const std::string&)>& fail) {
  SweepRow r;
  for (const PointsColumn& c : kColumns) {
    const std::string& cell = f[col.at(std::string(c.name))];
    bool ok = true;
    try {
      c.read(r, cell);
    } catch (const std::exception&) {
      ok = false;
    }
    if (!ok) fail("column '" + std::string(c.name) + "' is not a number: '" + cell + "'");
  }
  return r;
}

}  // namespace

std::span<const PointsColumn> points_columns() { return kColumns; }

const PointsColumn* find_points_column(std::string_view name) {
  for (const PointsColumn& c : kColumns)
    if (c.name == name) return &c;
  return nullptr;
}

std::optional<double> SweepRow::value(std::string_view column) const {
  const PointsColumn* c = find_points_column(column);
  if (c == nullptr || (c->executed_only && !executed())) return std::nullopt;
  return c->number(*this);
}

std::string points_csv_header() {
  std::string out;
  for (const PointsColumn& c : kColumns) out += (out.empty() ? "" : ",") + std::string(c.name);
  return out;
}

std::string points_csv_line(const SweepRow& r) {
  std::string out;
  bool first = true;
  for (const PointsColumn& c : kColumns) {
    if (!first) out += ',';
    first = false;
    if (!c.executed_only || r.executed()) out += c.write(r);
  }
  return out;
}

std::string points_csv(const std::vector<SweepRow>& rows) {
  std::string out = points_csv_header() + "\n";
  for (const SweepRow& r : rows) out += points_csv_line(r) + "\n";
  return out;
}

std::vector<SweepRow> read_points_csv(const std::string& text, const std::string& source) {
  std::vector<SweepRow> rows;
  std::map<std::string, std::size_t> col;
  std::size_t start = 0, line_no = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (line.empty()) continue;
    const std::vector<std::string> f = split_csv(line);
    const std::function<void(const std::string&)> fail = [&](const std::string& what) {
      throw InputError(source + ":" + std::to_string(line_no) + ": " + what +
                       "; regenerate it with cosda sweep");
    };
    if (col.empty()) {
      for (std::size_t i = 0; i < f.size(); ++i) col[f[i]] = i;
      for (const PointsColumn& c : kColumns)
        if (!col.count(std::string(c.name))) fail("missing column '" + std::string(c.name) + "'");
      continue;
    }
    if (f.size() != col.size())
      fail("expected " + std::to_string(col.size()) + " fields, found " + std::to_string(f.size()));
    rows.push_back(read_row(f, col, fail));
  }
  if (col.empty()) throw InputError(source + ": empty file; regenerate it with cosda sweep");
  return rows;
}

void set_measured(SweepRow& r, const Cost& c) {
  r.flops = c.amortized_flops();
  r.mul = c.amortized(&OpCounts::mul);
  r.add = c.amortized(&OpCounts::add);
  r.div = c.amortized(&OpCounts::div);
  r.exp = c.amortized(&OpCounts::exp);
  r.other = c.amortized(&OpCounts::other);
  r.valley = c.valley;
  r.peak = c.peak;
  r.heap_peak_bytes = c.heap_peak_bytes;
  r.cycle_steps = c.cycle_steps;
  r.update_steps = c.update_steps;
  if (c.update_steps > 0) r.update_flops = double(c.update_step.flops());
  if (c.plain_steps > 0) r.plain_flops = double(c.plain_step.flops());
}

}  // namespace cosda
