#include "sweeps/sweep.hpp"

#include <fmt/format.h>
#include <omp.h>
#include <toml++/toml.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <exception>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "analysis/exact.hpp"
#include "analysis/heap.hpp"
#include "analysis/published.hpp"
#include "attention/registry.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/errors.hpp"
#include "sweeps/roofline_model.hpp"

namespace cosda {
namespace {

namespace pub = published;

const char* const kColumns[] = {"variant",
                                "layers",
                                "heads",
                                "n",
                                "d",
                                "m",
                                "flops",
                                "mul",
                                "add",
                                "div",
                                "exp",
                                "other",
                                "valley",
                                "peak",
                                "heap_peak_bytes",
                                "published_flops",
                                "published_valley",
                                "published_peak",
                                "exact_flops",
                                "update_flops",
                                "plain_flops",
                                "cycle_steps",
                                "update_steps",
                                "skip_reason"};

bool continual_landmarks(const std::string& id) {
  const VariantTraits* t = find_variant(id);
  return t != nullptr && t->landmarks == LandmarkKind::kContinual;
}

// One block of the published per-step FLOPs, per head (d is the head width).
std::optional<double> block_flops(const std::string& id, double n, double d, double m,
                                  const std::string& formulas) {
  if (formulas == "cotrans") {
    const pub::MulAddExp* t = pub::cotrans_text(id);
    if (t == nullptr) return std::nullopt;
    return pub::total_flops(*t).eval(n, d, m);  // CoTrans Sec. 3.4: FLOPs = mul + add + exp
  }
  const pub::Published* f = pub::flops(id);
  if (f == nullptr) return std::nullopt;
  if (!continual_landmarks(id)) return f->total.eval(n, d, m);
  // Sec. IV-A: one landmark refresh every n/m steps; the other steps are the fixed-landmark
  // update of Sec. IV-B.
  const std::string fixed = id.substr(0, id.size() - 4) + "fix";
  const pub::Published* g = pub::flops(fixed);
  if (g == nullptr) return std::nullopt;
  const double period = n / m;
  return (f->total.eval(n, d, m) + (period - 1) * g->total.eval(n, d, m)) / period;
}

using BlockFn = std::function<std::optional<double>(const std::string&, double, double, double)>;

// heads x (one block, or the two-layer composition), at the per-head width d / heads.
std::optional<double> composed(const Point& p, const BlockFn& block) {
  const double n = double(p.n), d = double(p.d) / double(p.heads), m = double(p.m);
  const double h = double(p.heads);
  if (p.layers == 1) {
    const auto v = block(p.variant, n, d, m);
    return v ? std::optional<double>(h * *v) : std::nullopt;
  }
  const auto [first, second] = two_layer_blocks(p.variant);
  const auto a = block(first, n, d, m), b = block(second, n, d, m);
  if (!a || !b) return std::nullopt;
  return h * (*a + *b);
}

std::optional<double> memory(const pub::Published* (*table)(std::string_view),
                             const std::string& id, double n, double d, double m) {
  const pub::Published* f = table(id);
  if (f == nullptr) return std::nullopt;
  return f->total.eval(n, d, m);
}

std::string num(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
    return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{}", v);
}
std::string num(const std::optional<double>& v) { return v ? num(*v) : std::string(); }

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (b < 0x20) {
      out += fmt::format("\\u{:04x}", b);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string shell_line(const char* command) {
  std::string out;
  if (std::FILE* f = ::popen(command, "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, f) != nullptr) out += buf;
    if (::pclose(f) != 0) return "";
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

SweepRow measure_row(const Point& p, const SweepConfig& c) {
  SweepRow r;
  r.point = p;
  r.published_flops = published_flops(p, c.formulas);
  r.published_valley = published_valley(p);
  r.published_peak = published_peak(p);
  r.skip_reason = skip_reason(p);
  if (!r.executed()) return r;
  // Our exact closed forms cover one-layer points (analysis/exact.hpp).
  if (p.layers == 1) r.exact_flops = exact::evaluate(p).amortized_flops();
  const Cost cost =
      measure(p, Counting::kTally, c.scalar == "float" ? Precision::kFloat : Precision::kDouble);
  r.flops = cost.amortized_flops();
  r.mul = cost.amortized(&OpCounts::mul);
  r.add = cost.amortized(&OpCounts::add);
  r.div = cost.amortized(&OpCounts::div);
  r.exp = cost.amortized(&OpCounts::exp);
  r.other = cost.amortized(&OpCounts::other);
  r.valley = cost.valley;
  r.peak = cost.peak;
  r.heap_peak_bytes = cost.heap_peak_bytes;
  r.cycle_steps = cost.cycle_steps;
  r.update_steps = cost.update_steps;
  if (cost.update_steps > 0) r.update_flops = double(cost.update_step.flops());
  if (cost.plain_steps > 0) r.plain_flops = double(cost.plain_step.flops());
  return r;
}

// A rough relative cost of measuring a point, to start the long ones first: a window of n
// tokens of width d, per layer, over a landmark cycle of n steps for continual landmarks (the
// points that take longest are the cycles of large n).
double cost_proxy(const Point& p) {
  const double n = double(p.n), d = double(p.d);
  return n * n * d * double(p.layers) * (continual_landmarks(p.variant) ? n : 1.0);
}

}  // namespace

std::pair<std::string, std::string> two_layer_blocks(const std::string& id) {
  const VariantTraits& v = variant(id);
  return {std::string(first_block(v).id), std::string(second_block(v).id)};
}

std::optional<double> published_flops(const Point& p, const std::string& formulas) {
  return composed(p, [&](const std::string& id, double n, double d, double m) {
    return block_flops(id, n, d, m, formulas);
  });
}

std::optional<double> published_valley(const Point& p) {
  return composed(p, [](const std::string& id, double n, double d, double m) {
    return memory(&pub::valley, id, n, d, m);
  });
}

std::optional<double> published_peak(const Point& p) {
  if (p.layers == 1)
    return composed(p, [](const std::string& id, double n, double d, double m) {
      return memory(&pub::peak, id, n, d, m);
    });
  const auto [first, second] = two_layer_blocks(p.variant);
  const double n = double(p.n), d = double(p.d) / double(p.heads), m = double(p.m);
  const auto p1 = memory(&pub::peak, first, n, d, m), v1 = memory(&pub::valley, first, n, d, m);
  const auto p2 = memory(&pub::peak, second, n, d, m), v2 = memory(&pub::valley, second, n, d, m);
  if (!p1 || !v1 || !p2 || !v2) return std::nullopt;
  return double(p.heads) * std::max(*p1 + *v2, *v1 + *p2);
}

std::optional<double> SweepRow::value(const std::string& column) const {
  if (column == "published_flops") return published_flops;
  if (column == "published_valley") return published_valley;
  if (column == "published_peak") return published_peak;
  if (column == "exact_flops") return exact_flops;
  if (column == "update_flops") return executed() ? update_flops : std::nullopt;
  if (column == "plain_flops") return executed() ? plain_flops : std::nullopt;
  if (!executed()) return std::nullopt;
  if (column == "flops") return flops;
  if (column == "peak") return double(peak);
  if (column == "valley") return double(valley);
  if (column == "heap_peak_bytes")
    return heap_peak_bytes < 0 ? std::nullopt : std::optional<double>(double(heap_peak_bytes));
  return std::nullopt;
}

std::vector<SweepRow> run_sweep(const SweepConfig& c, int jobs,
                                const std::function<void(int, int)>& progress) {
  SweepPlan plan;
  plan.jobs = jobs;
  plan.progress = progress;
  return run_sweep(c, plan).rows;
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  auto fail = [&] {
    throw InputError("cosda sweep: --shard " + text +
                     " is not K/N with 1 <= K <= N, e.g. --shard 2/8 for the second of 8 slices");
  };
  if (slash == std::string::npos) fail();
  Shard s;
  try {
    std::size_t u1 = 0, u2 = 0;
    s.k = std::stoi(text.substr(0, slash), &u1);
    s.n = std::stoi(text.substr(slash + 1), &u2);
    if (u1 != slash || u2 != text.size() - slash - 1) fail();
  } catch (const std::logic_error&) {
    fail();
  }
  if (s.n < 1 || s.k < 1 || s.k > s.n) fail();
  return s;
}

std::string point_key(const Point& p) {
  return fmt::format("{}/{}/{}/{}/{}/{}{}", p.variant, p.layers, p.heads, p.n, p.d, p.m,
                     p.stabilised ? "/stabilised" : "");
}

namespace {

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 1469598103934665603ull) {
  for (const char ch : bytes) {
    h ^= static_cast<unsigned char>(ch);
    h *= 1099511628211ull;
  }
  return h;
}

// The journal's header line and each row's hash tie it to the config text and the build.
std::string journal_header(const SweepConfig& c) {
  return fmt::format("cosda-journal 1 {:016x}", fnv1a(c.text, build_hash()));
}
std::string row_hash(const SweepConfig& c, const Point& p) {
  return fmt::format("{:016x}", fnv1a(point_key(p), fnv1a(c.text, build_hash())));
}

// One points.csv line (no header, no newline).
std::string csv_row(const SweepRow& r) {
  std::string text = points_csv({r});
  text = text.substr(text.find('\n') + 1);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// Rows of an earlier run's journal that belong to this config and build, by hash.
std::map<std::string, SweepRow> read_journal(const SweepConfig& c,
                                             const std::filesystem::path& path) {
  std::map<std::string, SweepRow> kept;
  std::ifstream in(path, std::ios::binary);
  if (!in) return kept;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t start = text.find('\n');
  if (start == std::string::npos || text.substr(0, start) != journal_header(c)) return kept;
  std::string header;
  for (const char* col : kColumns) header += std::string(header.empty() ? "" : ",") + col;
  ++start;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // cut short by a kill
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    const std::size_t comma = line.find(',');
    if (comma == std::string::npos) continue;
    try {
      std::vector<SweepRow> rows =
          read_points_csv(header + "\n" + line.substr(comma + 1) + "\n", path.string());
      if (rows.size() == 1 && row_hash(c, rows[0].point) == line.substr(0, comma))
        kept[point_key(rows[0].point)] = std::move(rows[0]);
    } catch (const std::exception&) {
      // A damaged line: the point runs again.
    }
  }
  return kept;
}

}  // namespace

std::uint64_t build_hash() {
  static const std::uint64_t hash = [] {
    std::ifstream in("/proc/self/exe", std::ios::binary);
    std::uint64_t h = fnv1a("cosda-build");
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0)
      h = fnv1a(std::string_view(buffer, std::size_t(in.gcount())), h);
    return h;
  }();
  return hash;
}

double point_memory_bytes(const Point& p) {
  Point one = p;
  one.layers = 1;
  one.stabilised = false;
  double elements = 0;
  try {
    const Cost c = exact::evaluate(one);
    elements = double(c.peak + c.valley);
  } catch (const std::exception&) {
    // No closed form here: bound by the largest state any variant keeps.
    elements = double(p.n) * double(p.n) + 4.0 * double(p.n) * double(p.d);
  }
  return 2.0 * double(p.layers) * elements * 8.0 + 4.0 * double(p.n) * double(p.d) * 8.0;
}

double available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  double kib = 0;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024.0;
  return 0;
}

void check_memory(const SweepConfig& c, const Shard& shard, int jobs, double available_bytes) {
  if (available_bytes <= 0) return;
  const std::vector<Point> points = grid_points(c);
  std::vector<std::pair<double, std::size_t>> need;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (shard.holds(i) && skip_reason(points[i]).empty())
      need.emplace_back(point_memory_bytes(points[i]), i);
  std::sort(need.begin(), need.end(), std::greater<>());
  double together = 0;
  for (std::size_t i = 0; i < need.size() && i < std::size_t(std::max(jobs, 1)); ++i)
    together += need[i].first;
  if (need.empty() || together <= available_bytes) return;
  std::ostringstream where;
  where << points[need.front().second];
  auto size = [](double bytes) {
    const double mib = bytes / (1024.0 * 1024.0);
    return mib < 1024.0 ? fmt::format("{:.1f} MiB", mib) : fmt::format("{:.1f} GiB", mib / 1024);
  };
  throw InputError(fmt::format(
      "{}: point {} needs about {} and the {} largest points at once {}, but {} are available; "
      "lower n or d in the config, run fewer --jobs, or raise --memory-limit",
      c.source, where.str(), size(need.front().first),
      std::min<std::size_t>(need.size(), std::size_t(std::max(jobs, 1))), size(together),
      size(available_bytes)));
}

SweepOutcome run_sweep(const SweepConfig& c, const SweepPlan& plan) {
  const std::vector<Point> points = grid_points(c);
  std::vector<std::size_t> mine;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (plan.shard.holds(i)) mine.push_back(i);

  SweepOutcome out;
  std::vector<SweepRow> rows(points.size());
  std::vector<char> have(points.size(), 0);
  if (plan.resume && !plan.journal.empty()) {
    std::map<std::string, SweepRow> kept = read_journal(c, plan.journal);
    for (const std::size_t i : mine)
      if (auto it = kept.find(point_key(points[i])); it != kept.end()) {
        rows[i] = std::move(it->second);
        have[i] = 1;
        ++out.kept;
      }
  }
  // The journal is rewritten with the kept rows, then appended to point by point.
  std::ofstream journal;
  if (!plan.journal.empty()) {
    std::filesystem::create_directories(plan.journal.parent_path());
    std::string text = journal_header(c) + "\n";
    for (const std::size_t i : mine)
      if (have[i]) text += row_hash(c, points[i]) + "," + csv_row(rows[i]) + "\n";
    write_file_atomic(plan.journal, text);
    journal.open(plan.journal, std::ios::binary | std::ios::app);
    if (!journal)
      throw std::runtime_error("cannot append to " + plan.journal.string() +
                               "; check the folder is writable");
  }

  std::vector<std::size_t> todo;
  for (const std::size_t i : mine)
    if (!have[i]) todo.push_back(i);
  // Most expensive first, so that the long points do not start last.
  std::vector<double> proxy(points.size());
  for (const std::size_t i : todo) proxy[i] = cost_proxy(points[i]);
  std::stable_sort(todo.begin(), todo.end(),
                   [&](std::size_t a, std::size_t b) { return proxy[a] > proxy[b]; });

  std::vector<std::string> errors(points.size());
  const int total = static_cast<int>(mine.size());
  // NOLINTNEXTLINE(clang-analyzer-deadcode.DeadStores): read by num_threads below
  const int threads = plan.jobs > 0 ? plan.jobs : omp_get_max_threads();
  int done = out.kept;
  bool stopped = false;
  // Counting is per thread (thread_counts(), heap counters), and MultiHead runs the heads of
  // a counted point one after another, so points can run side by side.
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::size_t t = 0; t < todo.size(); ++t) {
    const std::size_t k = todo[t];
    if (plan.stop != nullptr && plan.stop->load()) {
#pragma omp critical(cosda_sweep_progress)
      stopped = true;
      continue;
    }
    try {
      rows[k] = measure_row(points[k], c);
    } catch (const std::exception& e) {
      errors[k] = e.what();
    }
#pragma omp critical(cosda_sweep_progress)
    {
      if (errors[k].empty()) {
        have[k] = 1;
        if (journal.is_open()) {
          journal << row_hash(c, points[k]) << ',' << csv_row(rows[k]) << '\n';
          journal.flush();
        }
      }
      ++done;
      if (plan.progress) plan.progress(done, total);
    }
  }
  for (const std::size_t k : mine)
    if (!errors[k].empty()) {
      std::ostringstream where;
      where << points[k];
      throw std::runtime_error("measuring " + where.str() + ": " + errors[k]);
    }
  out.interrupted = stopped;
  for (const std::size_t k : mine)
    if (have[k]) out.rows.push_back(std::move(rows[k]));
  return out;
}

std::string points_csv(const std::vector<SweepRow>& rows) {
  std::string out;
  for (const char* col : kColumns) out += std::string(out.empty() ? "" : ",") + col;
  out += "\n";
  for (const SweepRow& r : rows) {
    const Point& p = r.point;
    const bool e = r.executed();
    auto exec = [&](double v) { return e ? num(v) : std::string(); };
    const std::string fields[] = {p.variant,
                                  num(double(p.layers)),
                                  num(double(p.heads)),
                                  num(double(p.n)),
                                  num(double(p.d)),
                                  num(double(p.m)),
                                  exec(r.flops),
                                  exec(r.mul),
                                  exec(r.add),
                                  exec(r.div),
                                  exec(r.exp),
                                  exec(r.other),
                                  exec(double(r.valley)),
                                  exec(double(r.peak)),
                                  exec(double(r.heap_peak_bytes)),
                                  num(r.published_flops),
                                  num(r.published_valley),
                                  num(r.published_peak),
                                  num(r.exact_flops),
                                  e ? num(r.update_flops) : "",
                                  e ? num(r.plain_flops) : "",
                                  exec(double(r.cycle_steps)),
                                  exec(double(r.update_steps)),
                                  csv_field(r.skip_reason)};
    for (std::size_t i = 0; i < std::size(fields); ++i) out += (i ? "," : "") + fields[i];
    out += "\n";
  }
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
    auto fail = [&](const std::string& what) {
      throw InputError(source + ":" + std::to_string(line_no) + ": " + what +
                       "; regenerate it with cosda sweep");
    };
    if (col.empty()) {
      for (std::size_t i = 0; i < f.size(); ++i) col[f[i]] = i;
      for (const char* c : kColumns)
        if (!col.count(c)) fail(std::string("missing column '") + c + "'");
      continue;
    }
    if (f.size() != col.size())
      fail("expected " + std::to_string(col.size()) + " fields, found " + std::to_string(f.size()));
    auto text_of = [&](const char* c) -> const std::string& { return f[col.at(c)]; };
    auto opt = [&](const char* c) -> std::optional<double> {
      const std::string& s = text_of(c);
      if (s.empty()) return std::nullopt;
      try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        if (used != s.size()) throw std::invalid_argument(s);
        return v;
      } catch (const std::exception&) {
        fail(std::string("column '") + c + "' is not a number: '" + s + "'");
      }
      return std::nullopt;
    };
    auto req = [&](const char* c) { return opt(c).value_or(0.0); };
    SweepRow r;
    r.point.variant = text_of("variant");
    r.point.layers = std::int64_t(req("layers"));
    r.point.heads = std::int64_t(req("heads"));
    r.point.n = std::int64_t(req("n"));
    r.point.d = std::int64_t(req("d"));
    r.point.m = std::int64_t(req("m"));
    r.skip_reason = text_of("skip_reason");
    r.flops = req("flops");
    r.mul = req("mul");
    r.add = req("add");
    r.div = req("div");
    r.exp = req("exp");
    r.other = req("other");
    r.valley = std::int64_t(req("valley"));
    r.peak = std::int64_t(req("peak"));
    r.heap_peak_bytes = std::int64_t(opt("heap_peak_bytes").value_or(-1));
    r.published_flops = opt("published_flops");
    r.published_valley = opt("published_valley");
    r.published_peak = opt("published_peak");
    r.exact_flops = opt("exact_flops");
    r.update_flops = opt("update_flops");
    r.plain_flops = opt("plain_flops");
    r.cycle_steps = std::int64_t(req("cycle_steps"));
    r.update_steps = std::int64_t(req("update_steps"));
    rows.push_back(r);
  }
  if (col.empty()) throw InputError(source + ": empty file; regenerate it with cosda sweep");
  return rows;
}

std::string meta_json(const SweepConfig& c, int jobs, double seconds, const Shard& shard) {
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string commit = shell_line("git rev-parse HEAD 2>/dev/null");
  if (commit.empty())
    commit = "unknown";
  else if (!shell_line("git status --porcelain --untracked-files=no 2>/dev/null").empty())
    commit += " (with uncommitted changes)";
#if defined(__clang__)
  const std::string compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  const std::string compiler = std::string("gcc ") + __VERSION__;
#else
  const std::string compiler = "unknown";
#endif
  return fmt::format(
      "{{\n"
      "  \"schema_version\": {},\n"
      "  \"name\": {},\n"
      "  \"config_file\": {},\n"
      "  \"config_text\": {},\n"
      "  \"git_commit\": {},\n"
      "  \"compiler\": {},\n"
      "  \"cpu\": {},\n"
      "  \"simd\": {},\n"
      "  \"eigen_version\": \"{}.{}.{}\",\n"
      "  \"fmt_version\": \"{}.{}.{}\",\n"
      "  \"tomlplusplus_version\": \"{}.{}.{}\",\n"
      "  \"date_utc\": \"{}\",\n"
      "  \"counting\": \"fast path (Tally), every executed scalar operation is one FLOP\",\n"
      "  \"scalar\": {},\n"
      "  \"heap_hooks\": {},\n"
      "  \"shard\": \"{}/{}\",\n"
      "  \"jobs\": {},\n"
      "  \"seconds\": {:.1f}\n"
      "}}\n",
      kSweepSchemaVersion, json_string(c.name), json_string(c.source), json_string(c.text),
      json_string(commit), json_string(compiler), json_string(roofline::cpu_name()),
      json_string(Eigen::SimdInstructionSetsInUse()), EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION,
      EIGEN_MINOR_VERSION, FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100,
      TOML_LIB_MAJOR, TOML_LIB_MINOR, TOML_LIB_PATCH, date, json_string(c.scalar),
      heap::enabled() ? "true" : "false", shard.k, shard.n, jobs, seconds);
}

}  // namespace cosda
