#include "io/strict_toml.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"

namespace cosda {
namespace {

std::string join(const std::vector<std::string>& v) {
  return fmt::format("{}", fmt::join(v, ", "));
}

std::string shown(const toml::node& n) {
  if (n.is_table()) return "a table";
  if (n.is_array()) return n.as_array()->empty() ? "an empty array" : "an array";
  if (n.is_string()) return "'" + std::string(**n.as_string()) + "' (a string)";
  if (n.is_integer()) return std::to_string(**n.as_integer());
  if (n.is_floating_point())
    return fmt::format("{} (a floating-point number)", **n.as_floating_point());
  if (n.is_boolean()) return **n.as_boolean() ? "true" : "false";
  return "a date or time";
}

bool bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// "; did you mean 'X'?" for the choice closest to v, or "".
std::string did_you_mean(const std::string& v, const std::vector<std::string>& choices) {
  const std::string near = closest_key(v, {choices.begin(), choices.end()});
  return near.empty() ? "" : "; did you mean '" + near + "'?";
}

std::string shown(char c) {
  const auto b = static_cast<unsigned char>(c);
  return (b < 0x20 || b >= 0x7f) ? fmt::format("0x{:02x}", b) : fmt::format("'{}'", c);
}

// Rejects headers toml++ 3.3 asserts on (a header: a line starting '[' outside a multi-line value);
// `text` is to_ascii's output.
void check_headers(std::string_view text, const std::string& source) {
  int depth = 0;              // open '[' of values continued on later lines
  bool in_multiline = false;  // inside """ or '''
  std::size_t line_no = 0, start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    std::size_t i = line.find_first_not_of(" \t");
    const bool header =
        !in_multiline && depth == 0 && i != std::string_view::npos && line[i] == '[';
    auto fail = [&](const std::string& what, const std::string& fix) {
      throw InputError(fmt::format("{}:{}: not valid TOML: {}; {}", source, line_no, what, fix));
    };
    const std::string header_fix =
        "a table header is [name] or [[name]] with letters, digits, _ or - in the name";
    std::size_t k = 0;
    if (header) {
      ++i;
      if (i < line.size() && line[i] == '[') ++i;
      bool expect_key = true;
      for (; i < line.size(); ++i) {
        const char c = line[i];
        if (c == ' ' || c == '\t') continue;
        if (c == '"' || c == '\'') {
          const std::size_t close = line.find(c, i + 1);
          if (close == std::string_view::npos)
            fail("unterminated quoted key in a table header", header_fix);
          i = close;
          expect_key = false;
        } else if (c == ']') {
          if (expect_key) fail("a table header without a key", header_fix);
          break;
        } else if (c == '.') {
          if (expect_key) fail("empty key in a table header", header_fix);
          expect_key = true;
        } else if (bare_key_char(c)) {
          expect_key = false;
        } else {
          fail(fmt::format("character {} in a table header", shown(c)), header_fix);
        }
      }
      if (i >= line.size()) fail("a table header without its closing ']'", header_fix);
      k = i;
    }
    // Track multi-line arrays and strings (the text is ASCII: to_ascii ran first).
    for (; k < line.size(); ++k) {
      const char c = line[k];
      if (line.substr(k, 3) == "\"\"\"" || line.substr(k, 3) == "'''") {
        in_multiline = !in_multiline;
        k += 2;
      } else if (in_multiline) {
        continue;
      } else if (c == '#') {
        break;
      } else if (c == '"' || c == '\'') {
        std::size_t close = k + 1;
        while (close < line.size() && line[close] != c)
          close += (c == '"' && line[close] == '\\') ? 2 : 1;
        k = close;
      } else if (c == '[') {
        ++depth;
      } else if (c == ']') {
        depth = depth > 0 ? depth - 1 : 0;
      }
    }
  }
}

// Lexical states of to_ascii: where non-ASCII text may stand and what ends it.
enum class Lex { kPlain, kBasic, kLiteral, kMultiBasic, kMultiLiteral, kComment };

// The UTF-8 sequence starting at text[i] as a TOML escape (\uXXXX or \UXXXXXXXX), i moved to
// its last byte; std::nullopt when the bytes are not valid UTF-8.
std::optional<std::string> utf8_escape(std::string_view text, std::size_t& i) {
  const auto b = static_cast<unsigned char>(text[i]);
  const int extra = (b & 0xE0) == 0xC0 ? 1 : (b & 0xF0) == 0xE0 ? 2 : (b & 0xF8) == 0xF0 ? 3 : -1;
  if (extra < 0 || i + std::size_t(extra) >= text.size()) return std::nullopt;
  std::uint32_t cp = b & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    const auto cont = static_cast<unsigned char>(text[i + std::size_t(k)]);
    if ((cont & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (cont & 0x3F);
  }
  const std::uint32_t least[] = {0, 0x80, 0x800, 0x10000};
  if (cp < least[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
  i += std::size_t(extra);
  return cp <= 0xFFFF ? fmt::format("\\u{:04X}", cp) : fmt::format("\\U{:08X}", cp);
}

// Copies the ASCII character text[i] (with the rest of a three-quote delimiter or of an
// escape pair) to out and moves `state` past it; i ends on the last byte consumed.
void ascii_step(Lex& state, std::string_view text, std::size_t& i, std::string& out) {
  const char c = text[i];
  const std::string_view rest = text.substr(i);
  switch (state) {
    case Lex::kPlain:
      if (c == '#') {
        state = Lex::kComment;
      } else if (rest.substr(0, 3) == "\"\"\"" || rest.substr(0, 3) == "'''") {
        state = c == '"' ? Lex::kMultiBasic : Lex::kMultiLiteral;
        out += rest.substr(0, 2);
        i += 2;
      } else if (c == '"') {
        state = Lex::kBasic;
      } else if (c == '\'') {
        state = Lex::kLiteral;
      }
      break;
    case Lex::kBasic:
    case Lex::kMultiBasic:
      if (c == '\\' && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0x80 &&
          text[i + 1] != '\n') {
        out += c;
        out += text[++i];
        return;
      }
      if (state == Lex::kBasic && c == '"') state = Lex::kPlain;
      if (state == Lex::kMultiBasic && rest.substr(0, 3) == "\"\"\"") {
        state = Lex::kPlain;
        out += rest.substr(0, 2);
        i += 2;
      }
      break;
    case Lex::kLiteral:
      if (c == '\'') state = Lex::kPlain;
      break;
    case Lex::kMultiLiteral:
      if (rest.substr(0, 3) == "'''") {
        state = Lex::kPlain;
        out += rest.substr(0, 2);
        i += 2;
      }
      break;
    case Lex::kComment:
      break;
  }
  out += c;
}

// The text with non-ASCII characters escaped (in "..." strings) or dropped (in comments);
// elsewhere they are an InputError. Lines keep their numbers. toml++ 3.3 must see only ASCII:
// it reaches __builtin_unreachable on some non-ASCII (is_non_ascii_horizontal_whitespace).
std::string to_ascii(std::string_view text, const std::string& source) {
  Lex state = Lex::kPlain;
  std::string out;
  out.reserve(text.size());
  std::size_t line_no = 1;
  auto fail = [&](const std::string& what, const std::string& fix) {
    throw InputError(fmt::format("{}:{}: not valid TOML: {}; {}", source, line_no, what, fix));
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line_no;
      if (state != Lex::kMultiBasic && state != Lex::kMultiLiteral) state = Lex::kPlain;
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x80) {
      ascii_step(state, text, i, out);
    } else if (state != Lex::kComment) {
      if (state != Lex::kBasic && state != Lex::kMultiBasic)
        fail("a non-ASCII character outside a \"...\" string or comment",
             "write non-ASCII text in double quotes or after #");
      const std::optional<std::string> escape = utf8_escape(text, i);
      if (!escape) fail("invalid UTF-8", "save the file as UTF-8");
      out += *escape;
    }
  }
  return out;
}

}  // namespace

toml::table parse_toml(std::string_view text, const std::string& source) {
  const std::string ascii = to_ascii(text, source);
  check_headers(ascii, source);
  try {
    return toml::parse(ascii, source);
  } catch (const toml::parse_error& e) {
    std::string what(e.description());
    for (char& c : what)
      if (c == '\n' || c == '\r') c = ' ';
    throw InputError(fmt::format("{}:{}:{}: not valid TOML: {}", source, e.source().begin.line,
                                 e.source().begin.column, what));
  }
}

std::string read_config_text(const std::filesystem::path& path, const std::string& example) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    if (path.is_relative() && path == example)  // a default, or the example, from another folder
      throw InputError(fmt::format(
          "{}: no such config file in {}; run cosda from the folder that holds configs/ (the "
          "cosda checkout), or give the file's full path",
          path.string(), std::filesystem::current_path(ec).string()));
    throw InputError(fmt::format("{}: no such config file; pass a TOML file such as {}",
                                 path.string(), example));
  }
  std::optional<std::string> text = read_file(path);
  if (!text) throw InputError(path.string() + ": cannot read it; check its permissions");
  return *text;
}

struct TomlTable::Document {
  std::string text;
  toml::table table;
};

TomlTable::TomlTable(std::shared_ptr<const Document> root, const toml::table* table,
                     std::filesystem::path file, std::string section)
    : root_(std::move(root)), table_(table), file_(std::move(file)), section_(std::move(section)) {}

TomlTable TomlTable::parse_file(const std::filesystem::path& path, const std::string& example) {
  return parse(read_config_text(path, example), path.string());
}

TomlTable TomlTable::parse(std::string text, const std::string& source) {
  toml::table table = parse_toml(text, source);
  auto root = std::make_shared<const Document>(Document{std::move(text), std::move(table)});
  return TomlTable(root, &root->table, source, "");
}

const std::string& TomlTable::text() const { return root_->text; }

std::string closest_key(std::string_view key, const std::vector<std::string_view>& valid) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, key.size() / 2) + 1;
  for (std::string_view v : valid) {
    // Edit distance with adjacent transpositions (optimal string alignment).
    const std::size_t a = key.size(), b = v.size();
    std::vector<std::vector<std::size_t>> t(a + 1, std::vector<std::size_t>(b + 1));
    for (std::size_t i = 0; i <= a; ++i) t[i][0] = i;
    for (std::size_t j = 0; j <= b; ++j) t[0][j] = j;
    for (std::size_t i = 1; i <= a; ++i)
      for (std::size_t j = 1; j <= b; ++j) {
        t[i][j] = std::min(
            {t[i - 1][j] + 1, t[i][j - 1] + 1, t[i - 1][j - 1] + (key[i - 1] != v[j - 1])});
        if (i > 1 && j > 1 && key[i - 1] == v[j - 2] && key[i - 2] == v[j - 1])
          t[i][j] = std::min(t[i][j], t[i - 2][j - 2] + 1);
      }
    if (t[a][b] < best_distance) {
      best_distance = t[a][b];
      best = v;
    }
  }
  return best;
}

void TomlTable::fail(const std::string& key, const std::string& what) const {
  const toml::node* n = table_->get(key);
  fail_at(n != nullptr ? *n : *table_, key, what);
}

void TomlTable::fail_at(const toml::node& at, const std::string& key,
                        const std::string& what) const {
  const auto line = at.source().begin.line;  // none for a key missing at the top level
  throw InputError(fmt::format("{}{}: key '{}'{} {}", file_.string(),
                               line > 0 && &at != &root_->table ? fmt::format(":{}", line) : "",
                               key, section_.empty() ? "" : " in " + section_, what));
}

void TomlTable::missing(const std::string& key, const std::string& add) const {
  std::vector<std::string> unread;  // of three letters or more: 'd' is no misspelling of 'n'
  if (key.size() >= 3)
    for (const auto& [k, v] : *table_)
      if (k.length() >= 3 && known_.count(std::string(k.str())) == 0) unread.emplace_back(k.str());
  const std::string near = closest_key(key, {unread.begin(), unread.end()});
  fail(key, "is missing" + (near.empty() ? "" : " (is '" + near + "' a misspelling of it?)") +
                "; " + add);
}

bool TomlTable::has(const std::string& key) const { return table_->contains(key); }

const toml::node* TomlTable::lookup(const std::string& key, bool optional, const std::string& add) {
  known_.insert(key);
  const toml::node* n = table_->get(key);
  if (n == nullptr && !optional) missing(key, add);
  return n;
}

std::string TomlTable::str(const std::string& key, std::optional<std::string> fallback) {
  const toml::node* n = lookup(key, fallback.has_value(), "add it (a string)");
  if (n == nullptr) return *fallback;
  if (!n->is_string()) fail(key, "must be a string, got " + shown(*n));
  return std::string(**n->as_string());
}

std::string TomlTable::choice(const std::string& key, const std::vector<std::string>& choices,
                              std::optional<std::string> fallback) {
  if (!fallback && !has(key)) missing(key, "add it (one of " + join(choices) + ")");
  std::string v = str(key, std::move(fallback));
  if (std::find(choices.begin(), choices.end(), v) != choices.end()) return v;
  fail(key, "must be one of " + join(choices) + ", got '" + v + "'" + did_you_mean(v, choices));
}

std::int64_t TomlTable::integer(const std::string& key, std::int64_t lo, std::int64_t hi,
                                std::optional<std::int64_t> fallback) {
  const toml::node* n =
      lookup(key, fallback.has_value(), fmt::format("add it (an integer in [{}, {}])", lo, hi));
  if (n == nullptr) return *fallback;
  if (!n->is_integer() || **n->as_integer() < lo || **n->as_integer() > hi)
    fail(key, fmt::format("must be an integer in [{}, {}], got {}", lo, hi, shown(*n)));
  return **n->as_integer();
}

std::optional<std::int64_t> TomlTable::integer_if(const std::string& key, std::int64_t lo,
                                                  std::int64_t hi) {
  if (lookup(key, true, "") == nullptr) return std::nullopt;
  return integer(key, lo, hi);
}

double TomlTable::number(const std::string& key, double lo, double hi,
                         std::optional<double> fallback) {
  const toml::node* n =
      lookup(key, fallback.has_value(), fmt::format("add it (a number in [{}, {}])", lo, hi));
  if (n == nullptr) return *fallback;
  const double v = n->is_integer()          ? double(**n->as_integer())
                   : n->is_floating_point() ? **n->as_floating_point()
                                            : std::numeric_limits<double>::quiet_NaN();
  if (!std::isfinite(v) || v < lo || v > hi)
    fail(key, fmt::format("must be a number in [{}, {}], got {}", lo, hi, shown(*n)));
  return v;
}

bool TomlTable::boolean(const std::string& key, std::optional<bool> fallback) {
  const toml::node* n = lookup(key, fallback.has_value(), "add it (true or false)");
  if (n == nullptr) return *fallback;
  if (!n->is_boolean()) fail(key, "must be true or false, got " + shown(*n));
  return **n->as_boolean();
}

template <class T, class Elem>
std::vector<T> TomlTable::array(const std::string& key, const std::string& want,
                                std::optional<std::vector<T>> fallback, Elem elem) {
  const toml::node* n = lookup(key, fallback.has_value(), "add it (" + want + ")");
  if (n == nullptr) return *std::move(fallback);
  const toml::array* a = n->as_array();
  if (a == nullptr || a->empty()) fail(key, "must be " + want + ", got " + shown(*n));
  std::vector<T> out;
  for (const toml::node& e : *a) out.push_back(elem(e, out));
  return out;
}

std::int64_t TomlTable::element(const std::string& key, const toml::node& e, std::int64_t lo,
                                std::int64_t hi, const std::string& want) const {
  if (!e.is_integer() || **e.as_integer() < lo || **e.as_integer() > hi)
    fail_at(e, key, "must be " + want + ", got element " + shown(e));
  return **e.as_integer();
}

std::vector<std::int64_t> TomlTable::integers(const std::string& key, std::int64_t lo,
                                              std::int64_t hi,
                                              std::optional<std::vector<std::int64_t>> fallback) {
  const std::string want =
      fmt::format("a non-empty array of distinct integers in [{}, {}]", lo, hi);
  return array(key, want, std::move(fallback), [&](const toml::node& e, const auto& out) {
    const std::int64_t v = element(key, e, lo, hi, want);
    for (const auto x : out)
      if (x == v) fail_at(e, key, fmt::format("lists {} twice; give each value once", v));
    return v;
  });
}

std::vector<std::string> TomlTable::choices(const std::string& key,
                                            const std::vector<std::string>& allowed,
                                            std::optional<std::vector<std::string>> fallback) {
  const std::string want = "a non-empty array of distinct strings from: " + join(allowed);
  return array(key, want, std::move(fallback), [&](const toml::node& e, const auto& out) {
    if (!e.is_string()) fail_at(e, key, "must be " + want + ", got element " + shown(e));
    std::string v(**e.as_string());
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end())
      fail_at(e, key, "must be " + want + ", got '" + v + "'" + did_you_mean(v, allowed));
    if (std::find(out.begin(), out.end(), v) != out.end())
      fail_at(e, key, "lists '" + v + "' twice; give each value once");
    return v;
  });
}

std::vector<TomlTable> TomlTable::tables(const std::string& key, bool required) {
  const toml::node* n = lookup(key, !required, "add at least one [[" + key + "]] section");
  if (n == nullptr) return {};
  const toml::array* a = n->as_array();
  if (a != nullptr && a->empty() && !required) return {};  // `key = []`: none, as if absent
  if (a == nullptr || !a->is_array_of_tables() || a->empty())
    fail(key, "must be one or more [[" + key + "]] sections, got " + shown(*n));
  std::vector<TomlTable> out;
  for (std::size_t i = 0; i < a->size(); ++i)
    out.push_back(
        TomlTable(root_, (*a)[i].as_table(), file_, fmt::format("[[{}]] #{}", key, i + 1)));
  return out;
}

void TomlTable::finish() const {
  for (const auto& [k, v] : *table_) {
    const std::string key(k.str());
    if (known_.count(key) == 0) {
      const std::vector<std::string> allowed(known_.begin(), known_.end());
      // Of three letters or more, as in missing(), or a shorter key that begins `key` ('nn': 'n').
      std::vector<std::string_view> near_ones;
      for (const std::string& a : allowed)
        if (key.size() >= 3 && a.size() >= 3) near_ones.push_back(a);
      std::string near = closest_key(key, near_ones);
      for (const std::string& a : allowed)
        if (near.empty() && a.size() < 3 && key.size() <= 3 && key.rfind(a, 0) == 0) near = a;
      fail(key, "is not known here" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                    "; allowed keys: " + join(allowed));
    }
  }
}

TomlTable TomlTable::table(const std::string& key) {
  const toml::node* n = lookup(key, false, "add the [" + key + "] table");
  if (!n->is_table()) fail(key, "must be a [" + key + "] table, got " + shown(*n));
  return TomlTable(root_, n->as_table(), file_, "[" + key + "]");
}

std::vector<std::int64_t> TomlTable::integer_array(const std::string& key, std::int64_t lo,
                                                   std::int64_t hi) {
  const std::string want = fmt::format("a non-empty array of integers in [{}, {}]", lo, hi);
  return array<std::int64_t>(key, want, std::nullopt, [&](const toml::node& e, const auto&) {
    return element(key, e, lo, hi, want);
  });
}

std::vector<std::vector<std::int64_t>> TomlTable::integer_rows(const std::string& key,
                                                               std::size_t width, std::int64_t lo,
                                                               std::int64_t hi) {
  const std::string want =
      fmt::format("a non-empty array of {}-element arrays of integers in [{}, {}]", width, lo, hi);
  return array<std::vector<std::int64_t>>(
      key, want, std::nullopt, [&](const toml::node& e, const auto&) {
        const toml::array* row = e.as_array();
        if (row == nullptr || row->size() != width)
          fail(key, "must be " + want + ", got " +
                        (row == nullptr ? "element " + shown(e)
                                        : fmt::format("an element of {} values", row->size())));
        std::vector<std::int64_t> values;
        for (const toml::node& x : *row) values.push_back(element(key, x, lo, hi, want));
        return values;
      });
}

}  // namespace cosda
