#include "io/npy.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"

namespace cosda {
namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);
constexpr std::size_t kVersionOffset = kMagic.size();  // major, minor: one byte each
constexpr std::size_t kHeaderLengthOffset = kMagic.size() + 2;
constexpr std::size_t kHeaderAlignment = 64;  // NumPy's ARRAY_ALIGN
constexpr std::size_t kMaxNesting = 32;       // tuples/lists inside the header
constexpr std::size_t kMaxExcerpt = 48;       // bytes of input quoted in messages
constexpr std::string_view kAcceptedDtypes = "accepted dtypes: '<f4' (float32), '<f8' (float64)";
constexpr std::string_view kDictExample =
    "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }";

static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "float and double must be IEEE 754 binary32 and binary64");

// Quotes a piece of untrusted input for an error message: printable ASCII is kept, every other
// byte becomes \xNN, and long excerpts are cut short.
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
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xf]);
    }
  }
  out += "'";
  return out;
}

[[noreturn]] void fail(std::string_view name, const std::string& message) {
  throw InputError(std::string(name) + ": " + message);
}

// Product of `shape`, or false if it (or the product of its nonzero dimensions times
// `item_size`) does not fit in size_t.
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

// ---------------------------------------------------------------------------------------------
// Header dict: a strict subset of Python literal syntax.

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
    if (at_end() || peek() != '{') error("expected '{' at the start of the header");
    ++pos_;
    while (true) {
      skip_space();
      if (!at_end() && peek() == '}') {
        ++pos_;
        break;
      }
      if (at_end() || (peek() != '\'' && peek() != '"')) error("expected a quoted key or '}'");
      DictEntry entry;
      entry.key = parse_string();
      skip_space();
      if (at_end() || peek() != ':') {
        error("expected ':' after the key " + excerpt(entry.key.text));
      }
      ++pos_;
      skip_space();
      entry.value = parse_value(1);
      skip_space();
      const std::string key = excerpt(entry.key.text);
      entries.push_back(std::move(entry));
      if (!at_end() && peek() == ',') {
        ++pos_;
      } else if (!at_end() && peek() == '}') {
        ++pos_;
        break;
      } else {
        error("expected ',' or '}' after the value of the key " + key);
      }
    }
    skip_space();
    if (!at_end()) error("unexpected text after the closing '}'");
    return entries;
  }

 private:
  bool at_end() const { return pos_ >= header_.size(); }
  char peek() const { return header_[pos_]; }

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

  // A tuple "(...)" or list "[...]". Following Python, "(x)" is just x, while "(x,)" and "()"
  // are tuples.
  PyValue parse_sequence(std::size_t depth, char close) {
    PyValue value;
    value.kind = close == ')' ? PyValue::Kind::kTuple : PyValue::Kind::kList;
    value.begin = pos_;
    ++pos_;
    bool trailing_comma = false;
    while (true) {
      skip_space();
      if (!at_end() && peek() == close) {
        ++pos_;
        break;
      }
      value.items.push_back(parse_value(depth + 1));
      skip_space();
      if (!at_end() && peek() == ',') {
        ++pos_;
        trailing_comma = true;
      } else if (!at_end() && peek() == close) {
        ++pos_;
        trailing_comma = false;
        break;
      } else {
        error(std::string("expected ',' or '") + close + "'");
      }
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

struct Header {
  std::vector<std::size_t> shape;
  bool float32 = false;
};

Header interpret_header(std::string_view header, std::string_view name) {
  const std::vector<DictEntry> entries = HeaderParser(header, name).parse_dict();
  const PyValue* descr = nullptr;
  const PyValue* fortran_order = nullptr;
  const PyValue* shape = nullptr;
  for (const DictEntry& entry : entries) {
    const std::string_view key = entry.key.text;
    const PyValue** slot = key == "descr"           ? &descr
                           : key == "fortran_order" ? &fortran_order
                           : key == "shape"         ? &shape
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
  std::string missing;
  for (const auto& [key, value] :
       {std::pair{"'descr'", descr}, {"'fortran_order'", fortran_order}, {"'shape'", shape}}) {
    if (value == nullptr) missing += missing.empty() ? key : std::string(", ") + key;
  }
  if (!missing.empty()) {
    fail(name, "the .npy header dict lacks the key(s) " + missing +
                   "; required keys: 'descr', 'fortran_order', 'shape'");
  }

  Header result;
  if (descr->kind != PyValue::Kind::kString) {
    fail(name, "unsupported dtype " +
                   excerpt(header.substr(descr->begin, descr->end - descr->begin)) +
                   " (structured or non-string 'descr'); " + std::string(kAcceptedDtypes));
  }
  if (descr->text == "<f4") {
    result.float32 = true;
  } else if (descr->text == "<f8") {
    result.float32 = false;
  } else if (!descr->text.empty() && descr->text.front() == '>') {
    fail(name, "big-endian dtype " + excerpt(descr->text) + " is not supported; " +
                   std::string(kAcceptedDtypes) +
                   ", both little-endian; convert with arr.astype('<f8')");
  } else {
    fail(name, "unsupported dtype " + excerpt(descr->text) + "; " + std::string(kAcceptedDtypes) +
                   "; convert with arr.astype('<f8')");
  }

  if (fortran_order->kind != PyValue::Kind::kBool) {
    fail(name, "'fortran_order' must be True or False, got " +
                   excerpt(header.substr(fortran_order->begin,
                                         fortran_order->end - fortran_order->begin)));
  }
  if (fortran_order->truth) {
    fail(name,
         "fortran_order is True (column-major data) but only C order is supported; save "
         "np.ascontiguousarray(arr) instead");
  }

  const std::string shape_text = excerpt(header.substr(shape->begin, shape->end - shape->begin));
  if (shape->kind != PyValue::Kind::kTuple) {
    fail(name, "malformed 'shape' " + shape_text +
                   "; it must be a tuple of non-negative integers such as (3, 4), (5,) or ()");
  }
  for (std::size_t i = 0; i < shape->items.size(); ++i) {
    const PyValue& dim = shape->items[i];
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
    result.shape.push_back(static_cast<std::size_t>(dim.magnitude));
  }
  std::size_t count = 0;
  if (!element_count(result.shape, result.float32 ? 4 : 8, &count)) {
    fail(name, "'shape' " + format_shape(result.shape) +
                   " is too large: its size in bytes overflows; the array must fit in memory");
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Little-endian byte access, independent of host byte order and alignment.

std::uint64_t load_le(const char* bytes, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  return value;
}

void store_le(std::uint64_t value, std::size_t width, std::string* out) {
  for (std::size_t i = 0; i < width; ++i) {
    out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}

}  // namespace

std::string format_shape(const std::vector<std::size_t>& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  out += ")";
  return out;
}

NpyArray parse_npy(std::string_view bytes, std::string_view name) {
  if (bytes.substr(0, kMagic.size()) != kMagic) {
    fail(name,
         "not a .npy file: it does not start with the magic string \\x93NUMPY; save arrays "
         "with numpy.save()");
  }
  if (bytes.size() < kHeaderLengthOffset) {
    fail(name, "truncated .npy preamble: the file ends after " + std::to_string(bytes.size()) +
                   " bytes, before the format version");
  }
  const auto major = static_cast<unsigned char>(bytes[kVersionOffset]);
  const auto minor = static_cast<unsigned char>(bytes[kVersionOffset + 1]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    fail(name, "unsupported .npy format version " + std::to_string(major) + "." +
                   std::to_string(minor) + "; accepted versions: 1.0, 2.0, 3.0");
  }
  const std::size_t length_width = major == 1 ? 2 : 4;
  const std::size_t header_offset = kHeaderLengthOffset + length_width;
  if (bytes.size() < header_offset) {
    fail(name, "truncated .npy preamble: the file ends after " + std::to_string(bytes.size()) +
                   " bytes, before the end of the " + std::to_string(header_offset) +
                   "-byte preamble of a version " + std::to_string(major) + ".0 file");
  }
  const std::uint64_t header_length = load_le(bytes.data() + kHeaderLengthOffset, length_width);
  const std::size_t after_preamble = bytes.size() - header_offset;
  if (header_length > after_preamble) {
    fail(name, "header length " + std::to_string(header_length) +
                   " extends past the end of the file (only " + std::to_string(after_preamble) +
                   " bytes follow the preamble); the file is truncated or corrupt");
  }
  const std::string_view header = bytes.substr(header_offset, header_length);
  const Header parsed = interpret_header(header, name);

  const std::size_t item_size = parsed.float32 ? 4 : 8;
  std::size_t count = 0;
  element_count(parsed.shape, item_size, &count);  // cannot fail: checked in interpret_header
  const std::size_t expected = count * item_size;
  const std::size_t actual = after_preamble - header_length;
  if (actual != expected) {
    fail(name, std::string(actual < expected ? "truncated data" : "trailing bytes after the data") +
                   ": shape " + format_shape(parsed.shape) + " of dtype '" +
                   (parsed.float32 ? "<f4" : "<f8") + "' needs " + std::to_string(expected) +
                   " bytes after the header, but the file has " + std::to_string(actual));
  }

  NpyArray array;
  array.shape = parsed.shape;
  array.float32 = parsed.float32;
  array.data.resize(count);
  const char* payload = bytes.data() + header_offset + header_length;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t raw = load_le(payload + i * item_size, item_size);
    const double value =
        parsed.float32 ? static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(raw)))
                       : std::bit_cast<double>(raw);
    if (!std::isfinite(value)) {
      const char* kind = std::isnan(value) ? "NaN" : (value > 0 ? "inf" : "-inf");
      fail(name, std::string("non-finite value ") + kind + " at flat index " + std::to_string(i) +
                     " (C order) of the array of shape " + format_shape(parsed.shape) +
                     "; all values must be finite");
    }
    array.data[i] = value;
  }
  return array;
}

NpyArray read_npy(const std::filesystem::path& path) {
  const std::string name = path.string();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(name, "cannot open file: " + std::generic_category().message(errno));
  std::string bytes;
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    bytes.reserve(static_cast<std::size_t>(info.st_size));
  }
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      fail(name, "cannot read file: " + std::generic_category().message(error));
    }
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return parse_npy(bytes, name);
}

std::string encode_npy(const std::vector<std::size_t>& shape, std::span<const double> data,
                       bool as_float32) {
  const std::size_t item_size = as_float32 ? 4 : 8;
  std::size_t count = 0;
  if (!element_count(shape, item_size, &count)) {
    throw std::invalid_argument("encode_npy: shape " + format_shape(shape) + " is too large");
  }
  if (count != data.size()) {
    throw std::invalid_argument("encode_npy: shape " + format_shape(shape) + " holds " +
                                std::to_string(count) + " values but " +
                                std::to_string(data.size()) + " were given");
  }

  std::string dict = std::string("{'descr': '") + (as_float32 ? "<f4" : "<f8") +
                     "', 'fortran_order': False, 'shape': " + format_shape(shape) + ", }";
  // Version 1.0 stores the header length in 2 bytes; longer headers need version 2.0.
  const std::size_t unpadded_v1 = kHeaderLengthOffset + 2 + dict.size() + 1;
  const std::size_t padding_v1 =
      (kHeaderAlignment - unpadded_v1 % kHeaderAlignment) % kHeaderAlignment;
  const bool version1 = dict.size() + 1 + padding_v1 <= 0xffff;
  const std::size_t length_width = version1 ? 2 : 4;
  const std::size_t unpadded = kHeaderLengthOffset + length_width + dict.size() + 1;
  dict.append((kHeaderAlignment - unpadded % kHeaderAlignment) % kHeaderAlignment, ' ');
  dict.push_back('\n');

  std::string out;
  out.reserve(kHeaderLengthOffset + length_width + dict.size() + count * item_size);
  out.append(kMagic);
  out.push_back(static_cast<char>(version1 ? 1 : 2));
  out.push_back(0);
  store_le(dict.size(), length_width, &out);
  out += dict;
  for (std::size_t i = 0; i < count; ++i) {
    const double value = data[i];
    if (!as_float32) {
      store_le(std::bit_cast<std::uint64_t>(value), 8, &out);
      continue;
    }
    if (std::isfinite(value) && std::fabs(value) > std::numeric_limits<float>::max()) {
      throw std::invalid_argument("encode_npy: value " + std::to_string(value) + " at flat index " +
                                  std::to_string(i) + " is outside the float32 range");
    }
    store_le(std::bit_cast<std::uint32_t>(static_cast<float>(value)), 4, &out);
  }
  return out;
}

void write_npy(const std::filesystem::path& path, const std::vector<std::size_t>& shape,
               std::span<const double> data, bool as_float32) {
  write_file_atomic(path, encode_npy(shape, data, as_float32));
}

void require_rank(const NpyArray& array, std::size_t rank, std::string_view name,
                  std::string_view what) {
  if (array.shape.size() == rank) return;
  std::string message = std::string(name) + ": expected a " + std::to_string(rank) + "-D array";
  if (!what.empty()) message += " " + std::string(what);
  message += ", got shape " + format_shape(array.shape);
  throw InputError(message);
}

}  // namespace cosda
