// Strict reading of TOML configuration files (tomlplusplus): every key a command reads is
// declared by reading it, and finish() rejects any other key. Wrong types, out-of-range values
// and unknown keys are InputErrors "FILE:LINE: key 'K' [in SECTION] <what>; <fix>".
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cosda {

// Parses TOML text; `source` names it in messages. A syntax error is an InputError
// "<source>:<line>:<column>: not valid TOML: <what>". Headers and non-ASCII text are checked
// first: toml++ 3.3 (Debian 12) asserts on some (e.g. "[#a]") instead of reporting an error.
toml::table parse_toml(std::string_view text, const std::string& source);
// A config file's text; a missing file (or a folder) is an InputError that names `example` as the
// fix, or, for `example` itself run from another folder, the folder to run from.
std::string read_config_text(const std::filesystem::path& path, const std::string& example);

// The valid key closest to `key` by edit distance ("" if none is reasonably close).
std::string closest_key(std::string_view key, const std::vector<std::string_view>& valid);

class TomlTable {
 public:
  // Parses a whole file; a syntax error is an InputError with its line and column, a missing
  // file one that names `example` as the fix.
  static TomlTable parse_file(const std::filesystem::path& path, const std::string& example);
  // Parses text; `source` names it in messages.
  static TomlTable parse(std::string text, const std::string& source);

  std::string str(const std::string& key, std::optional<std::string> fallback = std::nullopt);
  // One of the listed choices.
  std::string choice(const std::string& key, const std::vector<std::string>& choices,
                     std::optional<std::string> fallback = std::nullopt);
  std::int64_t integer(const std::string& key, std::int64_t lo, std::int64_t hi,
                       std::optional<std::int64_t> fallback = std::nullopt);
  // The same, or std::nullopt where the key is absent.
  std::optional<std::int64_t> integer_if(const std::string& key, std::int64_t lo, std::int64_t hi);
  // A float or an integer in [lo, hi].
  double number(const std::string& key, double lo, double hi,
                std::optional<double> fallback = std::nullopt);
  bool boolean(const std::string& key, std::optional<bool> fallback = std::nullopt);
  // A non-empty array of integers in [lo, hi], without repeats.
  std::vector<std::int64_t> integers(
      const std::string& key, std::int64_t lo, std::int64_t hi,
      std::optional<std::vector<std::int64_t>> fallback = std::nullopt);
  // A non-empty array of distinct strings, each one of the choices.
  std::vector<std::string> choices(const std::string& key, const std::vector<std::string>& allowed,
                                   std::optional<std::vector<std::string>> fallback = std::nullopt);
  // An array of tables ([[key]] sections), each strict in turn; empty if absent and not required.
  std::vector<TomlTable> tables(const std::string& key, bool required);
  bool has(const std::string& key) const;
  // A [key] table, strict in turn; its messages name it "in [key]".
  TomlTable table(const std::string& key);
  // A non-empty array of integers in [lo, hi], repeats allowed.
  std::vector<std::int64_t> integer_array(const std::string& key, std::int64_t lo, std::int64_t hi);
  // A non-empty array of arrays of exactly `width` integers in [lo, hi].
  std::vector<std::vector<std::int64_t>> integer_rows(const std::string& key, std::size_t width,
                                                      std::int64_t lo, std::int64_t hi);

  // Throws InputError if the table holds a key nothing read.
  void finish() const;
  // Throws the InputError "FILE:LINE: key 'K' [in SECTION] <what>", at the key's line (the
  // table's where the key is absent).
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;
  const std::filesystem::path& file() const { return file_; }
  // The whole file as parsed: what a results folder's meta.json records.
  const std::string& text() const;

 private:
  struct Document;
  TomlTable(std::shared_ptr<const Document> root, const toml::table* table,
            std::filesystem::path file, std::string section);
  // fail() at the line of `at` (an element of the key's array).
  [[noreturn]] void fail_at(const toml::node& at, const std::string& key,
                            const std::string& what) const;
  // "key 'K' is missing; <add>", naming a key of the table nothing read that may be K misspelt
  // (both of three letters or more).
  [[noreturn]] void missing(const std::string& key, const std::string& add) const;
  // The key's node, marked as read; nullptr if absent and `optional`, else missing(key, add).
  const toml::node* lookup(const std::string& key, bool optional, const std::string& add);
  // The non-empty array at `key` (`want` describes it), each element through elem(element, the
  // elements so far); `fallback` where the key is absent, an error without one.
  template <class T, class Elem>
  std::vector<T> array(const std::string& key, const std::string& want,
                       std::optional<std::vector<T>> fallback, Elem elem);
  // An array element that must be an integer in [lo, hi].
  std::int64_t element(const std::string& key, const toml::node& e, std::int64_t lo,
                       std::int64_t hi, const std::string& want) const;

  std::shared_ptr<const Document> root_;  // keeps the parsed document and its text alive
  const toml::table* table_;
  std::filesystem::path file_;
  std::string section_;  // "" at the top level, else e.g. "[[stream]] #1"
  std::set<std::string> known_;
};

}  // namespace cosda
