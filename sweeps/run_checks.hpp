// The one argument checker of cosda count, cosda stream and Python, so they cannot drift: ranges
// of n, d, m, heads, layers, feature seed, and the variants each optional argument applies to.
// Only the messages' spelling differs ("cosda stream: flag --m ...; drop --m" / "m ...; drop m").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "attention/registry.hpp"
#include "sweeps/args.hpp"

namespace cosda {

// How a front end names its arguments in messages.
struct Spelling {
  bool cli = true;
  std::string command;  // "count" or "stream" (CLI messages start "cosda <command>: ")

  static Spelling command_line(std::string command) { return {true, std::move(command)}; }
  static Spelling python() { return {false, ""}; }

  // The whole message: "cosda stream: " + text on the command line, text in Python.
  std::string error(const std::string& text) const;
  // An argument as a message's subject: "flag --exact-pinv" / "exact_pinv".
  std::string subject(std::string_view key) const;
  // An argument as the messages' fixes name it: "--exact-pinv" / "exact_pinv".
  std::string name(std::string_view key) const;
};

// The arguments as given (CLI keys: "exact-pinv", "feature-seed"); nullopt: not given.
struct RunRequest {
  std::string variant;
  std::optional<std::int64_t> n, d, m, heads, layers, feature_seed;
  bool landmarks = false, exact_pinv = false, exp_shift = false;
  // Without m, a variant with a rank gets this m (count: 1); nullopt: m is required (stream).
  std::optional<std::int64_t> default_m;
};

struct RunPlan {
  std::string id;
  const VariantTraits* traits = nullptr;
  std::int64_t n = 0, d = 0, m = 1, heads = 1;  // d: 0 when not given (stream: the data's)
  int layers = 1;
  std::optional<std::uint64_t> feature_seed;
  bool one_row = false;  // each step's output is 1 x d (else n x d)
};

// The inclusive range of an integer argument (CLI key).
struct Range {
  std::int64_t lo, hi;
};
Range range_of(std::string_view key);

// Every check, in one order, on what was given; InputError with the front's spelling.
RunPlan check_run(const RunRequest& r, const Spelling& s);

// heads must divide d (the width of all heads); `of` names where d came from (" of X.npy").
void check_heads_divide(std::int64_t heads, std::int64_t d, const std::string& of,
                        const Spelling& s);

// The request of a command's flags: the integers read (and range-checked) by Args.
RunRequest request_of(const Args& a);

}  // namespace cosda
