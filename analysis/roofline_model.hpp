// The machine's roofline as `cosda roofline` measures it (results/roofline/machine.json): a flat
// JSON object of strings and numbers: peak_gflops_<float|double>_<one|all>, read_gbs_ and
// triad_gbs_<l1|l2|l3|dram>_<one|all>, cache sizes.
// Roofline bound (Williams et al.) of a step of F FLOPs touching B bytes: min(peak, F/B * bw), bw
// the read bandwidth at a working set of B bytes per thread, interpolated on the measured curve
// (read_gbs_ws_<bytes>_<threads>), else that of the smallest level holding B (per core for L1,
// L2). The curve matters on shared VMs, where part of the reported L3 may stream from memory.
#pragma once

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "io/errors.hpp"

namespace cosda::roofline {

// Seconds on this thread's CPU clock, so time descheduled on a shared machine does not count.
inline double thread_seconds() {
  timespec ts;
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// The widest vector instruction set this build may use (-march), as recorded with figures.
#if defined(__AVX512F__)
inline constexpr const char* kVectorIsa = "AVX-512";
#elif defined(__AVX2__)
inline constexpr const char* kVectorIsa = "AVX2";
#else
inline constexpr const char* kVectorIsa = "SSE2";
#endif

// The first processor's model name from /proc/cpuinfo (or text in its format) with family, model
// and stepping ("unknown" without a name): VMs often report a bare name ("AMD EPYC"), and the
// numbers tell the core generation (family 25 model 17 is Zen 4, family 26 Zen 5).
inline std::string cpu_name(std::istream& in) {
  std::string line, name, family, model, stepping;
  // "key<spaces or tabs>: value" -> value, for exactly this key.
  const auto field = [&line](const std::string& key, std::string* out) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || line.rfind(key, 0) != 0 ||
        line.find_first_not_of(" \t", key.size()) != colon)
      return;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    *out = start == std::string::npos ? std::string() : line.substr(start);
  };
  while (std::getline(in, line) && !line.empty()) {  // the first processor's block
    field("model name", &name), field("cpu family", &family), field("model", &model);
    field("stepping", &stepping);
  }
  if (name.empty()) return "unknown";
  if (family.empty() || model.empty()) return name;
  return name + " (family " + family + ", model " + model +
         (stepping.empty() ? std::string() : ", stepping " + stepping) + ")";
}
inline std::string cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  return cpu_name(in);
}

// The 1-minute load average ("unknown" if unreadable); above the core count, timings are inflated.
inline std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one;
  return in >> one ? one : "unknown";
}

inline const char* const kLevels[] = {"l1", "l2", "l3", "dram"};

struct Machine {
  std::map<std::string, double> numbers;
  std::map<std::string, std::string> strings;

  double get(const std::string& key) const {
    auto it = numbers.find(key);
    return it == numbers.end() ? 0.0 : it->second;
  }
  double peak_gflops(bool single, bool all) const {
    return get(std::string("peak_gflops_") + (single ? "float" : "double") +
               (all ? "_all" : "_one"));
  }
  double read_gbs(const std::string& level, bool all) const {
    return get("read_gbs_" + level + (all ? "_all" : "_one"));
  }
  // Read bandwidth at `bytes` per thread, log-linear between measured sets, clamped; 0 if no curve.
  double read_gbs_at(double bytes, bool all) const {
    const std::string prefix = "read_gbs_ws_", suffix = all ? "_all" : "_one";
    std::vector<std::pair<double, double>> curve;  // (working set, GB/s), by working set
    for (const auto& [k, v] : numbers)
      if (k.size() > prefix.size() + suffix.size() && k.rfind(prefix, 0) == 0 &&
          k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0)
        curve.emplace_back(std::strtod(k.c_str() + prefix.size(), nullptr), v);
    if (curve.empty()) return 0;
    std::sort(curve.begin(), curve.end());
    if (bytes <= curve.front().first) return curve.front().second;
    for (std::size_t i = 1; i < curve.size(); ++i)
      if (bytes <= curve[i].first) {
        const auto [x0, y0] = curve[i - 1];
        const auto [x1, y1] = curve[i];
        const double t = std::log(bytes / x0) / std::log(x1 / x0);
        return y0 + t * (y1 - y0);
      }
    return curve.back().second;
  }
  // The smallest level whose capacity holds `bytes` (L1, L2 per core, times cores in use).
  std::string level_for(double bytes, int cores) const {
    if (bytes <= get("l1_bytes") * cores) return "l1";
    if (bytes <= get("l2_bytes") * cores) return "l2";
    if (bytes <= get("l3_bytes")) return "l3";
    return "dram";
  }
};

struct Bound {
  double gflops = 0;  // the roofline bound, GFLOP/s
  std::string limit;  // "compute" or "<level> bandwidth"
  double ridge = 0;   // FLOP/byte where the bandwidth line meets the peak
};

// "640 KiB", "8 MiB": a working set for labels.
inline std::string bytes_label(double bytes) {
  char buf[32];
  if (bytes >= 1 << 20)
    std::snprintf(buf, sizeof buf, "%.3g MiB", bytes / (1 << 20));
  else
    std::snprintf(buf, sizeof buf, "%.3g KiB", bytes / (1 << 10));
  return buf;
}

inline Bound bound(const Machine& m, bool single, bool all, int cores, double flops, double bytes) {
  const double peak = m.peak_gflops(single, all);
  const double per_thread = all ? bytes / std::max(1, cores) : bytes;
  double bw = m.read_gbs_at(per_thread, all);
  std::string where = "read at " + bytes_label(per_thread);
  if (bw <= 0) {
    const std::string level = m.level_for(bytes, all ? cores : 1);
    bw = m.read_gbs(level, all);
    where = level + " bandwidth";
  }
  const double ridge = bw > 0 ? peak / bw : 0;
  const double mem = bytes > 0 ? flops / bytes * bw : peak;
  return mem < peak ? Bound{mem, where, ridge} : Bound{peak, "compute", ridge};
}

inline std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) o += c;
  }
  return o;
}

inline std::string to_json(const Machine& m) {
  std::ostringstream os;
  os << "{\n  \"schema\": \"cosda.roofline.v1\"";
  for (const auto& [k, v] : m.strings) os << ",\n  \"" << k << "\": \"" << json_escape(v) << "\"";
  for (const auto& [k, v] : m.numbers) {
    char buf[64];  // whole numbers (sizes in bytes, counts) exactly, measurements to 6 digits
    std::snprintf(buf, sizeof buf, v == std::floor(v) && std::fabs(v) < 1e15 ? "%.0f" : "%.6g", v);
    os << ",\n  \"" << k << "\": " << buf;
  }
  os << "\n}\n";
  return os.str();
}

// Reads a machine.json written by to_json(): nullopt if missing, InputError naming it if malformed.
inline std::optional<Machine> read_machine(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  Machine m;
  std::string line;
  bool schema = false, closed = false;
  while (std::getline(in, line)) {
    closed = line == "}";
    const auto q1 = line.find('"');
    if (q1 == std::string::npos) continue;
    const auto q2 = line.find('"', q1 + 1);
    const auto colon = line.find(':', q2);
    if (q2 == std::string::npos || colon == std::string::npos) continue;
    const std::string key = line.substr(q1 + 1, q2 - q1 - 1);
    std::string value = line.substr(colon + 1);
    while (!value.empty() && (value.back() == ',' || value.back() == ' ')) value.pop_back();
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    if (key == "schema") {
      schema = value == "\"cosda.roofline.v1\"";
    } else if (!value.empty() && value.front() == '"') {
      std::string text;  // json_escape undone: a backslash stands before '"' or '\\'
      for (std::size_t i = 1; i + 1 < value.size(); ++i) {
        if (value[i] == '\\' && i + 2 < value.size()) ++i;
        text += value[i];
      }
      m.strings[key] = text;
    } else {
      char* end = nullptr;
      const double x = std::strtod(value.c_str(), &end);
      if (end == value.c_str() || *end != '\0' || !std::isfinite(x))
        throw InputError(path + ": field " + key + " is not a number; rerun `cosda roofline`");
      m.numbers[key] = x;
    }
  }
  if (!schema)
    throw InputError(path +
                     ": not a cosda roofline file (schema cosda.roofline.v1); rerun "
                     "`cosda roofline`");
  if (!closed) throw InputError(path + ": cut short (no closing brace); rerun `cosda roofline`");
  // The roofs every figure draws: a missing or non-positive one would be a roof at 0.
  for (const std::string threads : {"_one", "_all"})
    for (const std::string& key :
         {"peak_gflops_float" + threads, "peak_gflops_double" + threads, "read_gbs_dram" + threads})
      if (!(m.get(key) > 0))
        throw InputError(path + ": field " + key +
                         " is missing or not positive; rerun `cosda roofline`");
  return m;
}

// "<cpu>, <cores> cores": the machine a roofline or a timing was measured on.
inline std::string machine_name(const std::string& cpu, int cores) {
  return cpu + ", " + std::to_string(cores) + " cores";
}
inline std::string machine_name(const Machine& m) {
  const auto cpu = m.strings.find("cpu");
  return machine_name(cpu == m.strings.end() ? "an unnamed CPU" : cpu->second, int(m.get("cores")));
}

// "" if `m`, read from `path`, was measured on this CPU with `cores` cores; else why its peaks
// and bandwidths cannot bound steps timed here.
inline std::string measured_elsewhere(const Machine& m, const std::string& path, int cores) {
  const std::string its = machine_name(m), here = machine_name(cpu_name(), cores);
  return its == here ? ""
                     : path + " is the roofline of " + its + ", not of this machine (" + here + ")";
}

// One measured step on the roofline figure (results/timing/points.tsv, written by cosda-bench).
struct MeasuredPoint {
  std::string variant, shape, scalar;
  double intensity = 0, gflops = 0;  // FLOP/byte, GFLOP/s
};

inline const char* const kPointsHeader = "# variant\tshape\tscalar\tflop_per_byte\tgflops\n";
inline const char* const kPointsMachine = "# measured on ";  // + machine_name(), a line

// Debian's OpenBLAS 0.3.21 predates Zen 5 and gives it AVX2 kernels despite its AVX-512 (so may a
// pinned OPENBLAS_CORETYPE). So that the roofline and timed kernels get the AVX-512 GEMM, CPUs with
// AVX-512 F/BW/DQ/VL re-execute once with OPENBLAS_CORETYPE=SkylakeX (read at load), keeping the
// old value in COSDA_OPENBLAS_CORETYPE_WAS. COSDA_OPENBLAS_CORETYPE=keep turns this off.
inline void select_openblas_kernels(char** argv) {
#if defined(COSDA_HAVE_BLAS) && defined(__x86_64__)
  const char* mode = std::getenv("COSDA_OPENBLAS_CORETYPE");
  if ((mode != nullptr && std::string(mode) == "keep") || std::getenv("COSDA_OPENBLAS_REEXEC"))
    return;
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512vl"))
    return;
  const char* was = std::getenv("OPENBLAS_CORETYPE");
  if (was != nullptr && std::string(was) == "SkylakeX") return;
  ::setenv("COSDA_OPENBLAS_CORETYPE_WAS", was != nullptr ? was : "unset", 1);
  ::setenv("OPENBLAS_CORETYPE", "SkylakeX", 1);
  ::setenv("COSDA_OPENBLAS_REEXEC", "1", 1);
  ::execv("/proc/self/exe", argv);  // returns only on failure: go on with the default
#else
  (void)argv;
#endif
}

}  // namespace cosda::roofline
