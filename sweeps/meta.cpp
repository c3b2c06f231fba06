#include "sweeps/meta.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <Eigen/Core>
#include <cstdio>
#include <ctime>

#include "analysis/heap.hpp"
#include "sweeps/points.hpp"
#include "sweeps/roofline_model.hpp"

namespace cosda {
namespace {

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

// The checkout's commit, marked when tracked files differ from it ("unknown" outside git).
std::string git_commit() {
  std::string commit = shell_line("git rev-parse HEAD 2>/dev/null");
  if (commit.empty())
    commit = "unknown";
  else if (!shell_line("git status --porcelain --untracked-files=no 2>/dev/null").empty())
    commit += " (with uncommitted changes)";
  return commit;
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace

std::string meta_json(const SweepConfig& c, int jobs, double seconds, const Shard& shard) {
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
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
      json_string(git_commit()), json_string(compiler()), json_string(roofline::cpu_name()),
      json_string(Eigen::SimdInstructionSetsInUse()), EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION,
      EIGEN_MINOR_VERSION, FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100,
      TOML_LIB_MAJOR, TOML_LIB_MINOR, TOML_LIB_PATCH, date, json_string(c.scalar),
      heap::enabled() ? "true" : "false", shard.k, shard.n, jobs, seconds);
}

}  // namespace cosda
