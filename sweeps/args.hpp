// Strict command-line flags, each declared with its help. Unknown or repeated flags, missing
// values, bad numbers and switches set to other than true/false: InputError naming flag and fix.
#pragma once

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "io/errors.hpp"

namespace cosda {

struct FlagSpec {
  std::string name;   // without the leading "--"
  std::string value;  // placeholder for the value ("" for a switch)
  std::string help;
};

// While collecting_flags() is true, constructing an Args throws its FlagTable instead of
// parsing: how `cosda completion` learns each command's flags from the command itself.
struct FlagTable {
  std::vector<FlagSpec> specs;
};
inline bool& collecting_flags() {
  static bool on = false;
  return on;
}

class Args {
 public:
  Args(std::string command, std::vector<FlagSpec> specs, std::vector<std::string> argv)
      : command_(std::move(command)), specs_(std::move(specs)) {
    if (collecting_flags()) throw FlagTable{specs_};
    for (std::size_t i = 0; i < argv.size(); ++i) {
      const std::string& a = argv[i];
      if (a == "--help" || a == "-h") {
        help_ = true;
        continue;
      }
      if (a.rfind("--", 0) != 0) {
        positional_.push_back(a);
        continue;
      }
      std::string name = a.substr(2), value;
      bool inline_value = false;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inline_value = true;
      }
      const FlagSpec* spec = find(name);
      if (spec == nullptr)
        throw InputError("cosda " + command_ + ": unknown flag --" + name +
                         "; allowed: " + allowed() + " (see cosda " + command_ + " --help)");
      if (!given_.insert(name).second)
        throw InputError("cosda " + command_ + ": flag --" + name + " given twice; give it once");
      if (spec->value.empty() && inline_value) {
        if (value == "false") continue;  // --x=false: as if absent
        if (value != "true")
          throw InputError("cosda " + command_ + ": flag --" + name + " is a switch: give --" +
                           name + ", --" + name + "=true or --" + name + "=false, got '--" + name +
                           "=" + value + "'");
      }
      if (!spec->value.empty() && !inline_value) {
        if (i + 1 >= argv.size())
          throw InputError("cosda " + command_ + ": flag --" + name + " needs a value (--" + name +
                           " " + spec->value + ")");
        value = argv[++i];
      }
      values_[name] = value;
    }
  }

  // With --help: prints `text`, a blank line and the flags, and returns true.
  bool print_help(std::string_view text) const {
    if (help_) fmt::print("{}\n\n{}", text, usage());
    return help_;
  }
  // Every input is a flag: InputError for a positional argument, with " (see <see>)" if given.
  void reject_positional(std::string_view see = {}) const {
    if (positional_.empty()) return;
    throw InputError("cosda " + command_ + ": unexpected argument '" + positional_[0] +
                     "'; all inputs are flags" +
                     (see.empty() ? std::string() : " (see " + std::string(see) + ")"));
  }
  const std::vector<std::string>& positional() const { return positional_; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }

  std::string usage() const {
    std::string s;
    for (const auto& f : specs_) {
      std::string left = "  --" + f.name + (f.value.empty() ? "" : " " + f.value);
      if (left.size() < 28) left.resize(28, ' ');
      s += left + " " + f.help + "\n";
    }
    return s;
  }

  std::optional<std::string> get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  std::string require(const std::string& name) const {
    auto v = get(name);
    if (!v)
      throw InputError("cosda " + command_ + ": missing required flag --" + name + " " +
                       find(name)->value);
    return *v;
  }

  // An integer flag in [lo, hi].
  std::int64_t integer(const std::string& name, std::int64_t lo, std::int64_t hi,
                       std::optional<std::int64_t> fallback = std::nullopt) const {
    auto v = get(name);
    if (!v) {
      if (fallback) return *fallback;
      require(name);
    }
    std::int64_t x = 0;
    const char* end = v->data() + v->size();
    auto [p, ec] = std::from_chars(v->data(), end, x);
    if (ec != std::errc() || p != end || x < lo || x > hi)
      throw InputError("cosda " + command_ + ": flag --" + name + " must be an integer in [" +
                       std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + *v + "'");
    return x;
  }

  // A real-valued flag in [lo, hi].
  double real(const std::string& name, double lo, double hi, double fallback) const {
    auto v = get(name);
    if (!v) return fallback;
    double x = 0;
    const char* end = v->data() + v->size();
    auto [p, ec] = std::from_chars(v->data(), end, x);
    if (ec != std::errc() || p != end || !(x >= lo && x <= hi))
      throw InputError("cosda " + command_ + ": flag --" + name + " must be a number in [" +
                       fmt_number(lo) + ", " + fmt_number(hi) + "], got '" + *v + "'");
    return x;
  }

  // A size in bytes >= 1, optional suffix K, M, G, T (KiB, ... also read); nullopt if absent.
  std::optional<double> bytes(const std::string& name) const {
    auto v = get(name);
    if (!v) return std::nullopt;
    std::string s = *v;
    for (const char* tail : {"iB", "B"})
      if (s.size() > std::strlen(tail) && s.ends_with(tail)) {
        s.resize(s.size() - std::strlen(tail));
        break;
      }
    double scale = 1;
    static constexpr std::string_view kUnits = "KMGT";
    if (const auto u = s.empty() ? std::string_view::npos
                                 : kUnits.find(char(std::toupper((unsigned char)s.back())));
        u != std::string_view::npos) {
      scale = std::pow(1024.0, double(u + 1));
      s.pop_back();
    }
    double x = 0;
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, x);
    if (s.empty() || ec != std::errc() || p != end || !(x * scale >= 1) || !(x * scale < 1e18))
      throw InputError("cosda " + command_ + ": flag --" + name +
                       " must be a size in bytes with an optional K, M, G or T suffix (e.g. 3G), "
                       "got '" +
                       *v + "'");
    return x * scale;
  }

  // One of the listed choices.
  std::string choice(const std::string& name, const std::vector<std::string>& choices,
                     const std::string& fallback) const {
    std::string v = get(name).value_or(fallback);
    for (const auto& c : choices)
      if (c == v) return v;
    std::string list;
    for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
    throw InputError("cosda " + command_ + ": flag --" + name + " must be one of " + list +
                     ", got '" + v + "'");
  }

 private:
  static std::string fmt_number(double x) {
    std::string s = std::to_string(x);
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  }
  const FlagSpec* find(const std::string& name) const {
    for (const auto& f : specs_)
      if (f.name == name) return &f;
    return nullptr;
  }
  std::string allowed() const {
    std::string s;
    for (const auto& f : specs_) s += (s.empty() ? "--" : ", --") + f.name;
    return s;
  }

  std::string command_;
  std::vector<FlagSpec> specs_;
  std::map<std::string, std::string> values_;
  std::set<std::string> given_;
  std::vector<std::string> positional_;
  bool help_ = false;
};

}  // namespace cosda
