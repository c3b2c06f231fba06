// The .npy header dict: parsed into values with their byte ranges, then checked key by key.
#include "io/npy_header.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "io/errors.hpp"
#include "io/npy.hpp"

namespace cosda::npy_detail {
namespace {

constexpr std::size_t kMaxNesting = 32;  // tuples/lists inside the header
constexpr std::size_t kMaxExcerpt = 48;  // bytes of input quoted in messages
constexpr std::string_view kAcceptedDtypes = "accepted dtypes: '<f4' (float32), '<f8' (float64)";
constexpr std::string_view kDictExample =
    "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }";

struct PyValue {
  enum class Kind { kString, kBool, kInt, kTuple, kList };
  Kind kind = Kind::kString;
  std::size_t begin = 0;  // byte range of the literal within the header
  std::size_t end = 0;
  std::string_view text;        // kString: the contents between the quotes
  bool truth = false;           // kBool
  bool negative = false;        // kInt
  bool too_large = false;       // kInt: the magnitude does not fit in uint64
  std::uint64_t magnitude = 0;  // kInt
  std::vector<PyValue> items;   // kTuple, kList
};

struct DictEntry {
  PyValue key;
  PyValue value;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

class HeaderParser {
 public:
  HeaderParser(std::string_view header, std::string_view name) : header_(header), name_(name) {}

  std::vector<DictEntry> parse_dict() {
    std::vector<DictEntry> entries;
    skip_space();
    if (!eat('{')) error("expected '{' at the start of the header");
    while (true) {
      skip_space();
      if (eat('}')) break;
      if (at_end() || (peek() != '\'' && peek() != '"')) error("expected a quoted key or '}'");
      DictEntry entry;
      entry.key = parse_string();
      skip_space();
      if (!eat(':')) error("expected ':' after the key " + excerpt(entry.key.text));
      skip_space();
      entry.value = parse_value(1);
      skip_space();
      const std::string key = excerpt(entry.key.text);
      entries.push_back(std::move(entry));
      if (eat('}')) break;
      if (!eat(',')) error("expected ',' or '}' after the value of the key " + key);
    }
    skip_space();
    if (!at_end()) error("unexpected text after the closing '}'");
    return entries;
  }

 private:
  bool at_end() const { return pos_ >= header_.size(); }
  char peek() const { return header_[pos_]; }
  // Moves past c if it is next.
  bool eat(char c) { return !at_end() && peek() == c && (++pos_, true); }

  void skip_space() {
    while (!at_end() && is_space(peek())) ++pos_;
  }

  [[noreturn]] void error(const std::string& problem) const {
    std::string found;
    if (at_end()) {
      found = " (found the end of the header)";
    } else {
      found = " (found " + excerpt(header_.substr(pos_, 1)) + ")";
    }
    fail(name_, "malformed .npy header dict at byte " + std::to_string(pos_) + " of the header: " +
                    problem + found + "; the header must be a Python dict literal such as " +
                    std::string(kDictExample));
  }

  PyValue parse_value(std::size_t depth) {
    if (depth > kMaxNesting) error("values are nested too deeply");
    if (at_end()) error("expected a value");
    const char c = peek();
    if (c == '\'' || c == '"') return parse_string();
    if (c == '(') return parse_sequence(depth, ')');
    if (c == '[') return parse_sequence(depth, ']');
    if (c == '-' || is_digit(c)) return parse_int();
    if (is_name_start(c)) return parse_name();
    error("expected a value");
  }

  // A single- or double-quoted string without escapes or control characters.
  PyValue parse_string() {
    PyValue value;
    value.kind = PyValue::Kind::kString;
    value.begin = pos_;
    const char quote = peek();
    ++pos_;
    const std::size_t start = pos_;
    while (true) {
      if (at_end()) error("unterminated string");
      const char c = peek();
      if (c == quote) break;
      if (c == '\\') error("backslash escapes are not supported in strings");
      const auto byte = static_cast<unsigned char>(c);
      if (byte < 0x20 || byte == 0x7f) error("control character inside a string");
      ++pos_;
    }
    value.text = header_.substr(start, pos_ - start);
    ++pos_;
    value.end = pos_;
    return value;
  }

  // A decimal integer: optional '-', then "0" or digits without leading zeros.
  PyValue parse_int() {
    PyValue value;
    value.kind = PyValue::Kind::kInt;
    value.begin = pos_;
    if (peek() == '-') {
      value.negative = true;
      ++pos_;
    }
    if (at_end() || !is_digit(peek())) error("expected digits in an integer");
    const bool leading_zero = peek() == '0';
    const std::size_t digits_start = pos_;
    while (!at_end() && is_digit(peek())) {
      const auto digit = static_cast<std::uint64_t>(peek() - '0');
      if (value.magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
        value.too_large = true;
      } else {
        value.magnitude = value.magnitude * 10 + digit;
      }
      ++pos_;
    }
    if (leading_zero && pos_ - digits_start > 1) {
      pos_ = digits_start;
      error("integers must not have leading zeros");
    }
    if (!at_end() && (is_name_char(peek()) || peek() == '.')) {
      error("only plain decimal integers are allowed");
    }
    value.end = pos_;
    return value;
  }

  // True or False; no other names are allowed.
  PyValue parse_name() {
    const std::size_t start = pos_;
    while (!at_end() && is_name_char(peek())) ++pos_;
    const std::string_view word = header_.substr(start, pos_ - start);
    if (word != "True" && word != "False") {
      pos_ = start;
      error("unexpected name " + excerpt(word) + "; the only names allowed are True and False");
    }
    PyValue value;
    value.kind = PyValue::Kind::kBool;
    value.truth = word == "True";
    value.begin = start;
    value.end = pos_;
    return value;
  }

  // A tuple "(...)" or list "[...]"; as in Python, "(x)" is x while "(x,)" and "()" are tuples.
  PyValue parse_sequence(std::size_t depth, char close) {
    PyValue value;
    value.kind = close == ')' ? PyValue::Kind::kTuple : PyValue::Kind::kList;
    value.begin = pos_;
    ++pos_;
    bool trailing_comma = false;
    while (true) {
      skip_space();
      if (eat(close)) break;
      value.items.push_back(parse_value(depth + 1));
      skip_space();
      trailing_comma = eat(',');
      if (trailing_comma) continue;
      if (!eat(close)) error(std::string("expected ',' or '") + close + "'");
      break;
    }
    value.end = pos_;
    if (close == ')' && value.items.size() == 1 && !trailing_comma) {
      PyValue inner = std::move(value.items.front());
      inner.begin = value.begin;
      inner.end = value.end;
      return inner;
    }
    return value;
  }

  std::string_view header_;
  std::string_view name_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string excerpt(std::string_view text) {
  std::string out = "'";
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == kMaxExcerpt) {
      out += "...";
      break;
    }
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(text[i]);
    } else {
      out += fmt::format("\\x{:02x}", byte);
    }
  }
  out += "'";
  return out;
}

[[noreturn]] void fail(std::string_view name, const std::string& message) {
  throw InputError(std::string(name) + ": " + message);
}

bool element_count(const std::vector<std::size_t>& shape, std::size_t item_size,
                   std::size_t* count) {
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  std::size_t nonzero_product = 1;
  bool has_zero = false;
  for (const std::size_t dim : shape) {
    if (dim == 0) {
      has_zero = true;
      continue;
    }
    if (nonzero_product > kMax / dim) return false;
    nonzero_product *= dim;
  }
  if (nonzero_product > kMax / item_size) return false;
  *count = has_zero ? 0 : nonzero_product;
  return true;
}

namespace {

// The three values of the dict, each present exactly once, and no other key.
struct Entries {
  const PyValue* descr = nullptr;
  const PyValue* fortran_order = nullptr;
  const PyValue* shape = nullptr;
};

Entries find_entries(const std::vector<DictEntry>& entries, std::string_view name) {
  Entries found;
  for (const DictEntry& entry : entries) {
    const std::string_view key = entry.key.text;
    const PyValue** slot = key == "descr"           ? &found.descr
                           : key == "fortran_order" ? &found.fortran_order
                           : key == "shape"         ? &found.shape
                                                    : nullptr;
    if (slot == nullptr) {
      fail(name, "unexpected key " + excerpt(key) +
                     " in the .npy header dict; the allowed keys are 'descr', 'fortran_order' "
                     "and 'shape'");
    }
    if (*slot != nullptr) {
      fail(name, "duplicate key " + excerpt(key) +
                     " in the .npy header dict; each of 'descr', 'fortran_order' and 'shape' "
                     "must appear exactly once");
    }
    *slot = &entry.value;
  }
  if (found.descr == nullptr || found.fortran_order == nullptr || found.shape == nullptr) {
    std::string missing;
    for (const auto& [key, value] : {std::pair{"'descr'", found.descr},
                                     {"'fortran_order'", found.fortran_order},
                                     {"'shape'", found.shape}}) {
      if (value == nullptr) missing += missing.empty() ? key : std::string(", ") + key;
    }
    fail(name, "the .npy header dict lacks the key(s) " + missing +
                   "; required keys: 'descr', 'fortran_order', 'shape'");
  }
  return found;
}

std::string_view literal(std::string_view header, const PyValue& value) {
  return header.substr(value.begin, value.end - value.begin);
}

// True for '<f4', false for '<f8'; every other dtype is an error.
bool is_float32(std::string_view header, const PyValue& descr, std::string_view name) {
  if (descr.kind != PyValue::Kind::kString) {
    fail(name, "unsupported dtype " + excerpt(literal(header, descr)) +
                   " (structured or non-string 'descr'); " + std::string(kAcceptedDtypes));
  }
  if (descr.text == "<f4") return true;
  if (descr.text == "<f8") return false;
  if (!descr.text.empty() && descr.text.front() == '>') {
    fail(name, "big-endian dtype " + excerpt(descr.text) + " is not supported; " +
                   std::string(kAcceptedDtypes) +
                   ", both little-endian; convert with arr.astype('<f8')");
  }
  fail(name, "unsupported dtype " + excerpt(descr.text) + "; " + std::string(kAcceptedDtypes) +
                 "; convert with arr.astype('<f8')");
}

void require_c_order(std::string_view header, const PyValue& fortran_order, std::string_view name) {
  if (fortran_order.kind != PyValue::Kind::kBool) {
    fail(name,
         "'fortran_order' must be True or False, got " + excerpt(literal(header, fortran_order)));
  }
  if (fortran_order.truth) {
    fail(name,
         "fortran_order is True (column-major data) but only C order is supported; save "
         "np.ascontiguousarray(arr) instead");
  }
}

std::vector<std::size_t> shape_of(std::string_view header, const PyValue& shape,
                                  std::string_view name) {
  const std::string shape_text = excerpt(literal(header, shape));
  if (shape.kind != PyValue::Kind::kTuple) {
    fail(name, "malformed 'shape' " + shape_text +
                   "; it must be a tuple of non-negative integers such as (3, 4), (5,) or ()");
  }
  std::vector<std::size_t> dims;
  for (std::size_t i = 0; i < shape.items.size(); ++i) {
    const PyValue& dim = shape.items[i];
    if (dim.kind != PyValue::Kind::kInt) {
      fail(name, "malformed 'shape' " + shape_text + ": entry " + std::to_string(i) +
                     " is not an integer; it must be a tuple of non-negative integers such as "
                     "(3, 4), (5,) or ()");
    }
    if (dim.negative && (dim.magnitude != 0 || dim.too_large)) {
      fail(name, "negative dimension in 'shape' " + shape_text + " at entry " + std::to_string(i) +
                     "; dimensions must be non-negative integers");
    }
    if (dim.too_large || dim.magnitude > std::numeric_limits<std::size_t>::max()) {
      fail(name, "dimension " + std::to_string(i) + " of 'shape' " + shape_text +
                     " is too large; the array must fit in memory");
    }
    dims.push_back(static_cast<std::size_t>(dim.magnitude));
  }
  return dims;
}

}  // namespace

Header interpret_header(std::string_view header, std::string_view name) {
  const std::vector<DictEntry> entries = HeaderParser(header, name).parse_dict();
  const Entries found = find_entries(entries, name);
  Header result;
  result.float32 = is_float32(header, *found.descr, name);
  require_c_order(header, *found.fortran_order, name);
  result.shape = shape_of(header, *found.shape, name);
  std::size_t count = 0;
  if (!element_count(result.shape, result.float32 ? 4 : 8, &count)) {
    fail(name, "'shape' " + format_shape(result.shape) +
                   " is too large: its size in bytes overflows; the array must fit in memory");
  }
  return result;
}

}  // namespace cosda::npy_detail

namespace cosda {

// Declared in io/npy.hpp; here so that the Python module, which reads no files, compiles only
// this unit of io/ for its refusals.
using npy_detail::fail;

std::string format_shape(const std::vector<std::size_t>& shape) {
  return fmt::format("({}{})", fmt::join(shape, ", "), shape.size() == 1 ? "," : "");
}

template <class T>
void require_finite(std::span<const T> values, const std::vector<std::size_t>& shape,
                    std::string_view name) {
  const auto bad =
      std::find_if(values.begin(), values.end(), [](T v) { return !std::isfinite(v); });
  if (bad == values.end()) return;
  const char* kind = std::isnan(*bad) ? "NaN" : (*bad > 0 ? "inf" : "-inf");
  fail(name, std::string("non-finite value ") + kind + " at flat index " +
                 std::to_string(bad - values.begin()) + " (C order) of the array of shape " +
                 format_shape(shape) + "; all values must be finite");
}
template void require_finite(std::span<const float>, const std::vector<std::size_t>&,
                             std::string_view);
template void require_finite(std::span<const double>, const std::vector<std::size_t>&,
                             std::string_view);

}  // namespace cosda
