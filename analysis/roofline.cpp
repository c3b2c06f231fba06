// This machine's roofline. Peak: the best large GEMM of Eigen and OpenBLAS (if built), float and
// double, one thread and all cores (a GEMM each). Bandwidth: a read pass (a sum) and a STREAM triad
// a = b + s c over half the L1, half the L2 (per core), half the L3 and 8x the L3 (DRAM). Each is
// the best of several repetitions on each thread's CPU clock (all-core: summed over threads,
// assumed concurrent). Bytes count what the kernel names (triad 24 B per element, as STREAM).
#include "analysis/roofline.hpp"

#include <fmt/format.h>
#include <omp.h>
#include <unistd.h>

#include <Eigen/Core>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "attention/exec.hpp"
#include "attention/kernels/blas.hpp"

namespace cosda::roofline {
namespace {

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

// Sum of x with eight independent 256-bit accumulators. Loads use a may_alias vector type: a
// memcpy into a vector array becomes a memcpy call (GCC 12), far below the L1 read bandwidth.
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

// Each thread's buffers, kept across working sets and grown only as needed (fresh ones spend most
// of the command in page faults). What the passes write stays finite (the triad's a is about 2.5).
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

// What the figures depend on besides the hardware: CPU, load, compiler, vector ISA, OpenBLAS
// (whose threads are set to one here: every figure chooses its own thread count).
void describe(Machine& m) {
  m.strings["cpu"] = cpu_name();
  m.strings["command"] = "cosda roofline";
  m.strings["load_average"] = load_average();  // other processes lower what is measured
  m.strings["compiler"] = __VERSION__;
  m.strings["vector_isa"] = kVectorIsa;
#ifdef COSDA_HAVE_BLAS
  m.strings["openblas"] = std::string(openblas_get_config());
  m.strings["openblas_coretype"] = std::string(openblas_get_corename());
  if (const char* was = std::getenv("COSDA_OPENBLAS_CORETYPE_WAS"))
    m.strings["openblas_coretype_environment"] = was;
  openblas_set_num_threads(1);
#else
  m.strings["openblas"] = "not built in";
#endif
}

void measure_peaks(Machine& m, int cores, int gemm_n, int reps) {
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
}

void measure_levels(Machine& m, const std::int64_t (&ws)[4], int cores, int reps) {
  for (int l = 0; l < 4; ++l) {
    const std::string level = kLevels[l];
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
}

// The read-bandwidth curve of the bounds: per-thread working sets from 16 KiB to `dram`, doubling.
void measure_curve(Machine& m, std::int64_t dram, int cores, int reps) {
  for (const bool all : {false, true}) {
    const int t = all ? cores : 1;
    const std::string th = all ? "all" : "one";
    std::string line;
    for (std::int64_t w = 16 << 10; w <= dram / t; w *= 2) {
      const double rd = bandwidth_gbs(false, w, t, reps);
      m.numbers[fmt::format("read_gbs_ws_{}_{}", w, th)] = rd;
      line += fmt::format(" {}:{:.0f}", bytes_label(double(w)), rd);
    }
    fmt::print(stderr, "  read GB/s by working set per thread, {}:{}\n", th, line);
  }
}

}  // namespace

Machine measure_machine(int gemm_n, int reps) {
  Machine m;
  const int cores = std::max(1, omp_get_num_procs());
  describe(m);
  m.numbers["cores"] = cores;
  m.numbers["l1_bytes"] = double(cache_bytes(1, _SC_LEVEL1_DCACHE_SIZE, 32 << 10));
  m.numbers["l2_bytes"] = double(cache_bytes(2, _SC_LEVEL2_CACHE_SIZE, 1 << 20));
  m.numbers["l3_bytes"] = double(cache_bytes(3, _SC_LEVEL3_CACHE_SIZE, 8 << 20));
  m.numbers["gemm_n"] = gemm_n;
  measure_peaks(m, cores, gemm_n, reps);
  const std::int64_t ws[4] = {
      std::int64_t(m.get("l1_bytes") / 2), std::int64_t(m.get("l2_bytes") / 2),
      std::int64_t(m.get("l3_bytes") / 2), std::int64_t(m.get("l3_bytes") * 8)};
  measure_levels(m, ws, cores, reps);
  measure_curve(m, ws[3], cores, reps);
  return m;
}

}  // namespace cosda::roofline
