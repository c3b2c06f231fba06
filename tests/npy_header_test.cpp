// Tests for the .npy reader's header parsing: the header variants it accepts and the
// malformed files it rejects, one test per class of defect.

#include <gtest/gtest.h>

#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "io/errors.hpp"
#include "io/npy.hpp"
#include "tests/npy_bytes.hpp"

namespace cosda {
namespace {

using namespace npy_bytes;  // NOLINT(google-build-using-namespace): test helpers

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Expects parse_npy(bytes, kName) to throw an InputError whose message is a single line that
// names the file and contains every phrase in `phrases`.
void expect_rejected(std::string_view bytes, const std::vector<std::string>& phrases) {
  try {
    parse_npy(bytes, kName);
    ADD_FAILURE() << "accepted an invalid file";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind(std::string(kName) + ": ", 0), 0u) << message;
    for (const std::string& phrase : phrases) {
      EXPECT_NE(message.find(phrase), std::string::npos)
          << "missing \"" << phrase << "\" in: " << message;
    }
  } catch (const std::exception& error) {
    ADD_FAILURE() << "threw something other than InputError: " << error.what();
  }
}

void expect_rejected(std::string_view bytes, const char* phrase) {
  expect_rejected(bytes, std::vector<std::string>{phrase});
}

// ---------------------------------------------------------------------------------------------
// Accepted header variants.

TEST(NpyHeaderTest, Version2HeaderAccepted) {
  const NpyArray array =
      parse_npy(make_npy(dict_with("'<f8'", "False", "(2,)"), f8_bytes({1, 2}), 2), kName);
  EXPECT_EQ(array.shape, std::vector<std::size_t>{2});
  EXPECT_EQ(array.data, (std::vector<double>{1, 2}));
}

TEST(NpyHeaderTest, Version3HeaderAccepted) {
  const NpyArray array =
      parse_npy(make_npy(dict_with("'<f4'", "False", "(1, 2)"), f4_bytes({1, 2}), 3), kName);
  EXPECT_EQ(array.shape, (std::vector<std::size_t>{1, 2}));
  EXPECT_TRUE(array.float32);
}

TEST(NpyHeaderTest, PythonSyntaxVariantsAccepted) {
  const std::vector<std::string> dicts = {
      R"({"descr": "<f8", "fortran_order": False, "shape": (2,)})",
      "{'shape': (2,), 'fortran_order': False, 'descr': '<f8'}",
      "{ 'descr' : '<f8' ,\n\t'fortran_order' : False , 'shape' : ( 2 , ) , }",
      "{'descr': '<f8', 'fortran_order': False, 'shape': ((2),)}",
  };
  for (const std::string& dict : dicts) {
    SCOPED_TRACE(dict);
    const NpyArray array = parse_npy(make_npy(dict, f8_bytes({1, 2})), kName);
    EXPECT_EQ(array.shape, std::vector<std::size_t>{2});
  }
}

TEST(NpyHeaderTest, UnpaddedHeaderAccepted) {
  const std::string dict = dict_with("'<f8'", "False", "(1,)");
  std::string bytes("\x93NUMPY\x01\x00", 8);
  append_le(dict.size(), 2, &bytes);
  const NpyArray array = parse_npy(bytes + dict + f8_bytes({4}), kName);
  EXPECT_EQ(array.data, std::vector<double>{4});
}

// ---------------------------------------------------------------------------------------------
// Rejections, one test per class.

const std::string kGoodDict = dict_with("'<f8'", "False", "(2,)");
const std::string kGoodData = f8_bytes({1, 2});

TEST(NpyRejectTest, WrongMagic) {
  std::string bytes = make_npy(kGoodDict, kGoodData);
  bytes[1] = 'n';
  expect_rejected(bytes, {"not a .npy file", "magic"});
  expect_rejected("", "magic");
  expect_rejected("\x93NUM", "magic");
  expect_rejected("PK\x03\x04zipfile", "magic");
}

TEST(NpyRejectTest, TruncatedPreamble) {
  expect_rejected(std::string("\x93NUMPY\x01", 7), "truncated .npy preamble");
  expect_rejected(std::string("\x93NUMPY\x01\x00\x10", 9), "truncated .npy preamble");
  expect_rejected(std::string("\x93NUMPY\x02\x00\x10\x00\x00", 11), "truncated .npy preamble");
}

TEST(NpyRejectTest, UnsupportedVersion) {
  expect_rejected(make_npy(kGoodDict, kGoodData, 4, 0),
                  {"unsupported .npy format version 4.0", "1.0, 2.0, 3.0"});
  expect_rejected(make_npy(kGoodDict, kGoodData, 1, 1), "version 1.1");
  expect_rejected(make_npy(kGoodDict, kGoodData, 0, 0), "version 0.0");
}

TEST(NpyRejectTest, HeaderLengthBeyondFile) {
  std::string bytes("\x93NUMPY\x01\x00", 8);
  append_le(500, 2, &bytes);
  bytes += kGoodDict;
  expect_rejected(bytes, {"header length 500", "past the end of the file"});

  std::string v2("\x93NUMPY\x02\x00", 8);
  append_le(0xffffffffu, 4, &v2);
  expect_rejected(v2 + kGoodDict, "header length 4294967295");
}

TEST(NpyRejectTest, MissingKey) {
  expect_rejected(make_npy("{'descr': '<f8', 'shape': (2,)}", kGoodData),
                  {"lacks the key(s) 'fortran_order'", "required keys"});
  expect_rejected(make_npy("{}", ""), "'descr', 'fortran_order', 'shape'");
}

TEST(NpyRejectTest, DuplicateKey) {
  expect_rejected(
      make_npy("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,)}",
               kGoodData),
      "duplicate key 'descr'");
}

TEST(NpyRejectTest, UnexpectedKey) {
  expect_rejected(
      make_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'extra': 1}", kGoodData),
      {"unexpected key 'extra'", "allowed keys"});
}

TEST(NpyRejectTest, MalformedDictSyntax) {
  const std::vector<std::string> dicts = {
      "",                                                                 // empty header
      "descr='<f8'",                                                      // not a dict
      "{'descr': '<f8' 'fortran_order': False, 'shape': (2,)}",           // missing comma
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)",           // unclosed brace
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)}}",         // trailing text
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)} x",        // trailing text
      "{'descr': '<f8, 'fortran_order': False, 'shape': (2,)}",           // unbalanced quote
      "{'descr': '<f8', 'fortran_order': false, 'shape': (2,)}",          // lowercase false
      "{descr: '<f8', 'fortran_order': False, 'shape': (2,)}",            // unquoted key
      "{'descr' '<f8', 'fortran_order': False, 'shape': (2,)}",           // missing colon
      "{'descr': '<f8',, 'fortran_order': False, 'shape': (2,)}",         // double comma
      "{, 'descr': '<f8', 'fortran_order': False, 'shape': (2,)}",        // leading comma
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2,,)}",         // double comma in tuple
      "{'descr': '<f8', 'fortran_order': False, 'shape': (,)}",           // lone comma
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2 3)}",         // missing comma
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2,]}",          // mismatched bracket
      "{'descr': '<\\x66\\x38', 'fortran_order': False, 'shape': (2,)}",  // escapes
      "{'descr': '<f8', 'fortran_order': False, 'shape': (02,)}",         // leading zero
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2L,)}",         // Python 2 long
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2.0,)}",        // float
      "{'descr': '<f8', 'fortran_order': False, 'shape': (0x2,)}",        // hex
      "{'descr': '<f8', 'fortran_order': False, 'shape': (+2,)}",         // explicit plus
      "{'descr': '<f8', 'fortran_order': None, 'shape': (2,)}",           // other names
      "{'descr': b'<f8', 'fortran_order': False, 'shape': (2,)}",         // bytes literal
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)} # note",   // comment
      std::string(100, '(') + std::string(100, ')'),                      // deep nesting
      kGoodDict + std::string(1, '\0'),                                   // NUL byte
  };
  for (const std::string& dict : dicts) {
    SCOPED_TRACE(dict);
    expect_rejected(make_npy(dict, kGoodData), {"malformed .npy header dict", "dict literal"});
  }
}

TEST(NpyRejectTest, DeepNestingInsideDict) {
  const std::string dict =
      "{'descr': '<f8', 'fortran_order': False, 'shape': " + std::string(10000, '[') + "}";
  expect_rejected(make_npy(dict, kGoodData), "nested too deeply");
}

TEST(NpyRejectTest, UnsupportedDtype) {
  for (const std::string descr : {"'<i4'", "'<f2'", "'|u1'", "'f8'", "'=f8'", "'<c16'", "''"}) {
    SCOPED_TRACE(descr);
    expect_rejected(make_npy(dict_with(descr, "False", "(2,)"), kGoodData),
                    {"unsupported dtype " + descr, "accepted dtypes: '<f4' (float32), '<f8'"});
  }
  expect_rejected(make_npy(dict_with("[('a', '<f8')]", "False", "(2,)"), kGoodData),
                  {"unsupported dtype", "structured", "'<f4'"});
}

TEST(NpyRejectTest, BigEndian) {
  expect_rejected(make_npy(dict_with("'>f8'", "False", "(2,)"), kGoodData),
                  {"big-endian dtype '>f8'", "'<f8'"});
  expect_rejected(make_npy(dict_with("'>f4'", "False", "(2,)"), f4_bytes({1, 2})), "big-endian");
}

TEST(NpyRejectTest, FortranOrder) {
  expect_rejected(make_npy(dict_with("'<f8'", "True", "(2,)"), kGoodData),
                  {"fortran_order is True", "C order", "ascontiguousarray"});
  expect_rejected(make_npy(dict_with("'<f8'", "0", "(2,)"), kGoodData),
                  "'fortran_order' must be True or False");
}

TEST(NpyRejectTest, MalformedShape) {
  for (const std::string shape : {"2", "(2)", "[2]", "'2'", "(2, '3')", "((2,),)", "(True,)"}) {
    SCOPED_TRACE(shape);
    expect_rejected(make_npy(dict_with("'<f8'", "False", shape), kGoodData),
                    {"malformed 'shape'", "tuple of non-negative integers"});
  }
}

TEST(NpyRejectTest, NegativeDimension) {
  expect_rejected(make_npy(dict_with("'<f8'", "False", "(-2, 3)"), kGoodData),
                  {"negative dimension", "(-2, 3)"});
  expect_rejected(make_npy(dict_with("'<f8'", "False", "(2, -99999999999999999999999)"), kGoodData),
                  "negative dimension");
}

TEST(NpyRejectTest, OverflowingDimensions) {
  // A single dimension that does not fit in 64 bits.
  expect_rejected(make_npy(dict_with("'<f8'", "False", "(99999999999999999999999,)"), ""),
                  {"dimension 0 of 'shape'", "too large"});
  // Dimensions whose product overflows.
  expect_rejected(make_npy(dict_with("'<f8'", "False", "(4294967296, 4294967296)"), ""),
                  {"too large", "overflows"});
  // A count that fits but whose byte size does not.
  expect_rejected(make_npy(dict_with("'<f8'", "False", "(2305843009213693952,)"), ""),
                  {"too large", "overflows"});
  // Even alongside a zero dimension, the other dimensions must be representable.
  expect_rejected(make_npy(dict_with("'<f4'", "False", "(0, 4294967296, 4294967296)"), ""),
                  "too large");
}

TEST(NpyRejectTest, TruncatedData) {
  const std::string data = f8_bytes({1, 2, 3, 4, 5, 6});
  expect_rejected(make_npy(dict_with("'<f8'", "False", "(2, 3)"), data.substr(0, 40)),
                  {"truncated data", "(2, 3)", "needs 48 bytes", "file has 40"});
  expect_rejected(make_npy(dict_with("'<f4'", "False", "(2,)"), ""),
                  {"truncated data", "needs 8 bytes", "file has 0"});
}

TEST(NpyRejectTest, TrailingBytes) {
  const std::string data = f8_bytes({1, 2, 3, 4, 5, 6});
  expect_rejected(make_npy(dict_with("'<f8'", "False", "(2, 3)"), data + "xyz"),
                  {"trailing bytes", "needs 48 bytes", "file has 51"});
  expect_rejected(make_npy(dict_with("'<f8'", "False", "(0,)"), "x"),
                  {"trailing bytes", "needs 0 bytes", "file has 1"});
}

TEST(NpyRejectTest, NonFiniteValues) {
  expect_rejected(make_npy(dict_with("'<f8'", "False", "(2, 3)"), f8_bytes({0, 1, 2, 3, kNaN, 5})),
                  {"non-finite value NaN at flat index 4", "finite"});
  expect_rejected(make_npy(dict_with("'<f8'", "False", "(3,)"), f8_bytes({0, -kInf, kNaN})),
                  "non-finite value -inf at flat index 1");
  expect_rejected(make_npy(dict_with("'<f4'", "False", "(2,)"),
                           f4_bytes({std::numeric_limits<float>::infinity(), 0})),
                  "non-finite value inf at flat index 0");
  expect_rejected(make_npy(dict_with("'<f4'", "False", "(2,)"),
                           f4_bytes({1, std::numeric_limits<float>::quiet_NaN()})),
                  "NaN at flat index 1");
}

TEST(NpyRejectTest, UntrustedTextIsEscapedInMessages) {
  expect_rejected(
      make_npy("{'descr': '<f8\xff\xfe', 'fortran_order': False, 'shape': (2,)}", kGoodData),
      "'<f8\\xff");
}

}  // namespace
}  // namespace cosda
