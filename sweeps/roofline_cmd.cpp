// cosda roofline: this machine's compute peak and memory bandwidths, and the roofline figure
// with every benchmarked variant's measured point.
//
// Compute peak: the best of a large GEMM through Eigen and through OpenBLAS (when the build
// has it), float and double, on one thread and on all cores (one GEMM per core side by side).
// Bandwidth: a read-only pass (a sum)
// and a STREAM triad a = b + s c, over working sets of half the L1, half the L2 (per core),
// half the L3 and 8x the L3 (DRAM), on one thread and on all cores (each core its own slice).
// Every figure is the best of several repetitions timed on each thread's CPU clock (so other
// processes sharing the cores do not lower it; all-core figures are the sum over threads and
// assume the threads ran at the same time). Bytes count what the kernel names
// (triad: 24 B per element, no write-allocate), as STREAM does.
#include <fmt/format.h>
#include <omp.h>
#include <unistd.h>

#include <Eigen/Core>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <thread>

#include "attention/blas.hpp"
#include "attention/exec.hpp"
#include "io/atomic_file.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/roofline_model.hpp"

namespace cosda {
namespace {

// Seconds on this thread's CPU clock: the machine may be shared, and time spent descheduled
// must not lower a figure meant to say what a core can do.
double thread_seconds() {
  timespec ts;
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Best rate over `reps` timed repetitions of f (which returns the work it did).
template <class F>
double best_rate(int reps, F&& f) {
  double best = 0;
  for (int r = 0; r < reps; ++r) {
    const double t0 = thread_seconds();
    const double work = f();
    best = std::max(best, work / (thread_seconds() - t0));
  }
  return best;
}

template <class T>
void blas_gemm(int n, const T* a, const T* b, T* c) {
#ifdef COSDA_HAVE_BLAS
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
#else
  (void)n, (void)a, (void)b, (void)c;
#endif
}

// GFLOP/s of n x n GEMMs (2 n^3 FLOPs each) on `threads` cores: one independent GEMM per core.
template <class T>
double gemm_gflops(bool use_blas, int n, int threads, int reps) {
  double rate = 0;
#pragma omp parallel num_threads(threads) reduction(+ : rate)
  {
    Mat<T> a = Mat<T>::Random(n, n), b = Mat<T>::Random(n, n), c(n, n);
    auto once = [&] {
      if (use_blas)
        blas_gemm<T>(n, a.data(), b.data(), c.data());
      else
        c.noalias() = a * b;
    };
    once();
#pragma omp barrier
    rate += best_rate(reps, [&] {
      once();
      return 2.0 * n * n * n;
    });
  }
  return rate / 1e9;
}

// Sum of x: eight independent 256-bit accumulators, so the adds do not wait on each other.
// The loads go through a may_alias vector type: a memcpy into a vector array becomes a call
// to memcpy (GCC 12), far below the L1 read bandwidth (docs/performance.md).
double read_pass(const double* x, std::int64_t len) {
  typedef double V __attribute__((vector_size(32), aligned(8), may_alias));
  V a0 = {}, a1 = {}, a2 = {}, a3 = {}, a4 = {}, a5 = {}, a6 = {}, a7 = {};
  std::int64_t i = 0;
  for (; i + 32 <= len; i += 32) {
    const V* v = reinterpret_cast<const V*>(x + i);
    a0 += v[0];
    a1 += v[1];
    a2 += v[2];
    a3 += v[3];
    a4 += v[4];
    a5 += v[5];
    a6 += v[6];
    a7 += v[7];
  }
  const V a = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
  double s = a[0] + a[1] + a[2] + a[3];
  for (; i < len; ++i) s += x[i];
  return s;
}

void triad_pass(double* a, const double* b, const double* c, std::int64_t len, double s) {
  for (std::int64_t i = 0; i < len; ++i) a[i] = b[i] + s * c[i];
}

// Aligned as the kernels' matrices are (Eigen's allocator, to the vector width): glibc's large
// blocks start 16 bytes past a page, and every other 256-bit load would straddle two lines.
using Buffer = std::vector<double, Eigen::aligned_allocator<double>>;

// Each thread's three buffers, kept from one working set to the next and grown only when a
// larger one needs it: fresh buffers per working set spend most of the command in page faults
// (docs/performance.md). Reused, they hold what the passes wrote, which stays finite (the
// triad writes a = b + s c, about 2.5).
struct Buffers {
  Buffer a, b, c;
};
// This thread's buffers with at least len elements in a (and in b and c when all three).
Buffers& thread_buffers(std::int64_t len, bool all_three) {
  static std::vector<Buffers> pool(std::size_t(std::max(1, omp_get_num_procs())));
  Buffers& mine = pool.at(std::size_t(omp_get_thread_num()));
  const auto grow = [len](Buffer& x, double value) {
    if (std::int64_t(x.size()) < len) x = Buffer(std::size_t(len), value);
  };
  grow(mine.a, 1.0);
  if (all_three) grow(mine.b, 2.0), grow(mine.c, 0.5);
  return mine;
}

// GB/s of the read pass (triad: false) or the triad over `bytes` of working set per thread.
double bandwidth_gbs(bool triad, std::int64_t bytes, int threads, int reps) {
  double rate = 0;
  volatile double sink = 0;
#pragma omp parallel num_threads(threads) reduction(+ : rate)
  {
    const std::int64_t len = std::max<std::int64_t>(64, bytes / (triad ? 3 : 1) / 8);
    Buffers& buf = thread_buffers(len, triad);
    double* a = buf.a.data();
    const double* b = buf.b.data();
    const double* c = buf.c.data();
    // Enough passes per repetition for about 20 ms at 50 GB/s, at least one.
    const std::int64_t passes = std::max<std::int64_t>(1, std::int64_t(1e9 / double(bytes)));
    double local = 0;
    auto once = [&] {
      for (std::int64_t p = 0; p < passes; ++p) {
        if (triad) {
          triad_pass(a, b, c, len, 1.0 + 1e-9 * double(p));
          local += a[p % len];
        } else {
          local += read_pass(a, len);
        }
      }
      return double(passes) * double(len) * (triad ? 24.0 : 8.0);
    };
    once();
#pragma omp barrier
    rate += best_rate(reps, once);
    sink = sink + local;
  }
  return rate / 1e9;
}

// Data or unified cache of `level` per cpu0's sysfs (sysconf's L3 figure is wrong under some
// hypervisors), else sysconf, else the fallback.
std::int64_t cache_bytes(int level, int sysconf_name, std::int64_t fallback) {
  for (int i = 0; i < 8; ++i) {
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu0/cache/index{}/", i);
    std::ifstream lv(dir + "level"), ty(dir + "type"), sz(dir + "size");
    int l = 0;
    std::string type, size;
    if (!(lv >> l) || !(ty >> type) || !(sz >> size) || l != level || type == "Instruction")
      continue;
    std::int64_t bytes = std::atoll(size.c_str());
    if (size.back() == 'K') bytes <<= 10;
    if (size.back() == 'M') bytes <<= 20;
    if (bytes > 0) return bytes;
  }
  const long v = ::sysconf(sysconf_name);
  return v > 0 ? v : fallback;
}

roofline::Machine measure_machine(int gemm_n, int reps) {
  roofline::Machine m;
  const int cores = std::max(1, omp_get_num_procs());
  m.strings["cpu"] = roofline::cpu_name();
  m.strings["command"] = "cosda roofline";
  if (std::ifstream in("/proc/loadavg"); in) {
    std::string one;
    if (in >> one) m.strings["load_average"] = one;  // other processes lower what is measured
  }
  m.strings["compiler"] = __VERSION__;
#if defined(__AVX512F__)
  m.strings["vector_isa"] = "AVX-512";
#elif defined(__AVX2__)
  m.strings["vector_isa"] = "AVX2";
#else
  m.strings["vector_isa"] = "SSE2";
#endif
#ifdef COSDA_HAVE_BLAS
  m.strings["openblas"] = std::string(openblas_get_config());
  m.strings["openblas_coretype"] = std::string(openblas_get_corename());
  if (const char* was = std::getenv("COSDA_OPENBLAS_CORETYPE_WAS"))
    m.strings["openblas_coretype_environment"] = was;
  openblas_set_num_threads(1);
#else
  m.strings["openblas"] = "not built in";
#endif
  m.numbers["cores"] = cores;
  m.numbers["l1_bytes"] = double(cache_bytes(1, _SC_LEVEL1_DCACHE_SIZE, 32 << 10));
  m.numbers["l2_bytes"] = double(cache_bytes(2, _SC_LEVEL2_CACHE_SIZE, 1 << 20));
  m.numbers["l3_bytes"] = double(cache_bytes(3, _SC_LEVEL3_CACHE_SIZE, 8 << 20));
  m.numbers["gemm_n"] = gemm_n;

  for (const bool single : {true, false}) {
    const std::string s = single ? "float" : "double";
    for (const bool all : {false, true}) {
      const int t = all ? cores : 1;
      const std::string th = all ? "all" : "one";
      const double eig = single ? gemm_gflops<float>(false, gemm_n, t, reps)
                                : gemm_gflops<double>(false, gemm_n, t, reps);
      double bl = 0;
      if (blas::kAvailable) {
        bl = single ? gemm_gflops<float>(true, gemm_n, t, reps)
                    : gemm_gflops<double>(true, gemm_n, t, reps);
        m.numbers["openblas_gemm_gflops_" + s + "_" + th] = bl;
      }
      m.numbers["eigen_gemm_gflops_" + s + "_" + th] = eig;
      m.numbers["peak_gflops_" + s + "_" + th] = std::max(eig, bl);
      fmt::print(stderr, "  GEMM {} {:<3}  Eigen {:7.1f}  OpenBLAS {:7.1f} GFLOP/s\n", s, th, eig,
                 bl);
    }
  }
  const std::int64_t ws[] = {
      std::int64_t(m.get("l1_bytes") / 2), std::int64_t(m.get("l2_bytes") / 2),
      std::int64_t(m.get("l3_bytes") / 2), std::int64_t(m.get("l3_bytes") * 8)};
  for (int l = 0; l < 4; ++l) {
    const std::string level = roofline::kLevels[l];
    m.numbers["ws_bytes_" + level] = double(ws[l]);
    for (const bool all : {false, true}) {
      const int t = all ? cores : 1;
      // The L3 and DRAM working sets are shared: split across the cores in use.
      const std::int64_t per_thread = l >= 2 ? ws[l] / t : ws[l];
      const std::string th = all ? "all" : "one";
      const double rd = bandwidth_gbs(false, per_thread, t, reps);
      const double tr = bandwidth_gbs(true, per_thread, t, reps);
      m.numbers["read_gbs_" + level + "_" + th] = rd;
      m.numbers["triad_gbs_" + level + "_" + th] = tr;
      fmt::print(stderr, "  {:<4} {:<3} read {:7.1f}  triad {:7.1f} GB/s  ({} KiB per thread)\n",
                 level, th, rd, tr, per_thread >> 10);
    }
  }
  // The read-bandwidth curve the bounds use (roofline_model.hpp): working sets per thread from
  // 16 KiB up to the DRAM set, doubling.
  for (const bool all : {false, true}) {
    const int t = all ? cores : 1;
    const std::string th = all ? "all" : "one";
    std::string line;
    for (std::int64_t w = 16 << 10; w <= ws[3] / t; w *= 2) {
      const double rd = bandwidth_gbs(false, w, t, reps);
      m.numbers[fmt::format("read_gbs_ws_{}_{}", w, th)] = rd;
      line += fmt::format(" {}:{:.0f}", roofline::bytes_label(double(w)), rd);
    }
    fmt::print(stderr, "  read GB/s by working set per thread, {}:{}\n", th, line);
  }
  return m;
}

std::vector<roofline::MeasuredPoint> read_points(const std::string& path) {
  std::vector<roofline::MeasuredPoint> pts;
  std::ifstream in(path);
  std::string line;
  int row = 0;
  while (std::getline(in, line)) {
    ++row;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream is(line);
    roofline::MeasuredPoint p;
    if (!(is >> p.variant >> p.shape >> p.scalar >> p.intensity >> p.gflops))
      throw InputError(path + ": line " + std::to_string(row) +
                       " is not 'variant shape scalar flop_per_byte gflops'; rerun cosda-bench "
                       "with --cosda_report");
    pts.push_back(p);
  }
  return pts;
}

// Draws roofline.png with gnuplot: one-thread compute roofs (float, double), read-bandwidth
// lines per level, and the measured points (filled: float, open: double).
void draw(const roofline::Machine& m, const std::vector<roofline::MeasuredPoint>& pts,
          const std::filesystem::path& png) {
  std::string script;
  script += "set terminal pngcairo size 1400,900 font ',11'\n";
  const std::filesystem::path tmp =
      png.parent_path() / fmt::format(".{}.tmp.{}", png.filename().string(), ::getpid());
  script += fmt::format("set output '{}'\n", tmp.string());
  script +=
      fmt::format("set title 'Roofline of {} (one thread; {}), measured steady-state steps'\n",
                  m.strings.count("cpu") ? m.strings.at("cpu") : "this machine",
                  m.strings.count("vector_isa") ? m.strings.at("vector_isa") : "");
  script +=
      "set logscale xy\nset xlabel 'arithmetic intensity: executed FLOPs / bytes touched per "
      "step'\n"
      "set ylabel 'GFLOP/s'\nset xrange [0.01:1000]\nset yrange [0.05:1000]\n"
      "set key outside right top\nset grid\nset samples 400\n";
  std::vector<std::string> plots;
  const double pf = m.peak_gflops(true, false), pd = m.peak_gflops(false, false);
  plots.push_back(fmt::format("{} w l lw 3 lc rgb 'black' t 'float peak {:.0f} GFLOP/s'", pf, pf));
  plots.push_back(
      fmt::format("{} w l lw 3 dt 2 lc rgb 'black' t 'double peak {:.0f} GFLOP/s'", pd, pd));
  const char* colors[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a"};
  for (int l = 0; l < 4; ++l) {
    const std::string level = roofline::kLevels[l];
    const double bw = m.read_gbs(level, false);
    if (bw <= 0) continue;
    plots.push_back(
        fmt::format("(x*{} < {} ? x*{} : 1/0) w l lw 2 lc rgb '{}' t '{} read {:.0f} GB/s'", bw, pf,
                    bw, colors[l], level, bw));
  }
  std::map<std::string, std::vector<const roofline::MeasuredPoint*>> groups;
  std::vector<std::string> order;
  for (const auto& p : pts) {
    const std::string key = p.variant + " " + p.scalar;
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&p);
  }
  int block = 0, variant_index = 0;
  std::map<std::string, int> variant_style;
  for (const auto& key : order) {
    const auto& g = groups[key];
    const std::string variant = g[0]->variant;
    if (!variant_style.count(variant)) variant_style[variant] = variant_index++;
    const int style = variant_style[variant];
    script += fmt::format("$P{} << EOD\n", block);
    for (const auto* p : g) script += fmt::format("{} {}\n", p->intensity, p->gflops);
    script += "EOD\n";
    const bool single = g[0]->scalar == "float";
    const int pt = 4 + 2 * (style % 4) + (single ? 1 : 0);  // filled for float, open for double
    plots.push_back(
        fmt::format("$P{} u 1:2 w p pt {} ps 1.6 lc {} t '{}'", block, pt, style + 1, key));
    ++block;
  }
  script += "plot ";
  for (std::size_t i = 0; i < plots.size(); ++i) script += (i ? ", \\\n  " : "") + plots[i];
  script += "\nset output\n";
  std::FILE* gp = ::popen("gnuplot", "w");
  if (gp == nullptr) throw std::runtime_error("cannot start gnuplot; install gnuplot-nox");
  std::fwrite(script.data(), 1, script.size(), gp);
  const int status = ::pclose(gp);
  if (status != 0 || !std::filesystem::exists(tmp)) {
    std::filesystem::remove(tmp);
    throw std::runtime_error("gnuplot failed to draw " + png.string() +
                             "; is gnuplot-nox (with the pngcairo terminal) installed?");
  }
  std::filesystem::rename(tmp, png);
}

}  // namespace

int cmd_roofline(const Argv& argv) {
  Args a("roofline",
         {{"out", "DIR", "where machine.json and roofline.png go (default results/roofline)"},
          {"points", "FILE",
           "measured steps to plot (default results/timing/points.tsv, written by "
           "cosda-bench --cosda_report; skipped when absent)"},
          {"plot-only", "", "do not measure: redraw from DIR/machine.json"},
          {"repetitions", "R", "timed repetitions per figure, the best counts (default 10)"}},
         argv);
  if (a.help()) {
    fmt::print(
        "usage: cosda roofline [--out DIR] [--points FILE] [--plot-only] [--repetitions R]\n"
        "Measures this machine's compute peak (large GEMMs through Eigen and OpenBLAS, float\n"
        "and double, one thread and all cores) and its read and triad bandwidth at L1, L2, L3\n"
        "and DRAM working sets; writes DIR/machine.json and draws DIR/roofline.png with the\n"
        "measured points of cosda-bench. Takes about 20 seconds.\n\n{}",
        a.usage());
    return 0;
  }
  if (!a.positional().empty())
    throw InputError("cosda roofline: unexpected argument '" + a.positional()[0] +
                     "'; all inputs are flags (see cosda roofline --help)");
  const std::filesystem::path out = a.get("out").value_or("results/roofline");
  const std::string points = a.get("points").value_or("results/timing/points.tsv");
  const int reps = int(a.integer("repetitions", 1, 100, 10));
  if (a.has("points") && !std::filesystem::exists(points))
    throw InputError("cosda roofline: flag --points: no file '" + points +
                     "'; run cosda-bench with --cosda_report first");
  roofline::Machine m;
  const std::filesystem::path json = out / "machine.json";
  if (a.has("plot-only")) {
    auto read = roofline::read_machine(json.string());
    if (!read)
      throw InputError("cosda roofline: --plot-only needs " + json.string() +
                       "; run cosda roofline without --plot-only first");
    m = *read;
  } else {
    fmt::print(stderr, "measuring the roofline of this machine\n");
    m = measure_machine(1536, reps);
    write_file_atomic(json, roofline::to_json(m));
    fmt::print("wrote {}\n", json.string());
  }
  const auto pts = std::filesystem::exists(points) ? read_points(points)
                                                   : std::vector<roofline::MeasuredPoint>{};
  std::filesystem::create_directories(out);
  draw(m, pts, out / "roofline.png");
  fmt::print("wrote {} ({} measured points)\n", (out / "roofline.png").string(), pts.size());
  return 0;
}

// Re-executes `cosda roofline ...` with the AVX-512 OpenBLAS kernels when that applies
// (roofline_model.hpp); called before anything touches OpenBLAS.
int cmd_roofline_entry(const Argv& args) {
  std::vector<std::string> full = {"cosda", "roofline"};
  full.insert(full.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : full) argv.push_back(s.data());
  argv.push_back(nullptr);
  roofline::select_openblas_kernels(argv.data());
  return cmd_roofline(args);
}

}  // namespace cosda
