// The checked JSON parser (sim/config/json_read.h): hostile nesting, numbers out of range,
// duplicate keys and UTF-8, each reported at its place, never a crash.
#include "sim/config/json_read.h"

#include <gtest/gtest.h>

#include <string>

namespace hermes {
namespace {

std::string only_error(const Diagnostics& d) {
  EXPECT_EQ(d.count(), 1u) << d.format();
  return d.items().empty() ? "" : d.items()[0].json_path + ": " + d.items()[0].message;
}

TEST(JsonRead, DeepNestingIsRefusedWhileParsingAtItsPointer) {
  // 200,000 levels: built as a value, its destruction alone would overflow the stack.
  for (const std::string open : {"[", "{\"k\":"}) {
    std::string text;
    for (int i = 0; i < 200000; ++i) text += open;
    Diagnostics diags;
    EXPECT_FALSE(parse_json_checked(text, diags));
    const std::string e = only_error(diags);
    EXPECT_NE(e.find("nested too deep: more than 64 levels"), std::string::npos) << e;
    EXPECT_EQ(e.rfind(open == "[" ? "/0/0/0/" : "/k/k/k/", 0), 0u) << e;
  }
  // Exactly the limit is accepted.
  std::string ok = std::string(64, '[') + std::string(64, ']');
  Diagnostics diags;
  EXPECT_TRUE(parse_json_checked(ok, diags)) << diags.format();
  Diagnostics one_more;
  EXPECT_FALSE(parse_json_checked("[" + ok + "]", one_more));
}

TEST(JsonRead, NumbersBeyondADoubleAreReportedAtTheirPointer) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_checked(R"({"a": {"b": [1, 2, -1e400]}})", diags));
  const std::string e = only_error(diags);
  EXPECT_EQ(e.rfind("/a/b/2: number out of range", 0), 0u) << e;
  EXPECT_NE(e.find("1e400"), std::string::npos) << e;
  Diagnostics top;
  EXPECT_FALSE(parse_json_checked("1e999", top));
  EXPECT_EQ(only_error(top).rfind(": number out of range", 0), 0u);
}

TEST(JsonRead, DuplicateKeysAreReportedAtTheirObject) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_checked(R"({"x": [{"q": 1}, {"a/b": {"q": 1, "q": 2}}]})", diags));
  EXPECT_EQ(only_error(diags).rfind("/x/1/a~1b: duplicate key 'q'", 0), 0u) << diags.format();
}

TEST(JsonRead, InvalidUtf8InTheTextIsMalformedJson) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_checked("{\"d\": \"\xFF\"}", diags));
  EXPECT_NE(only_error(diags).find("malformed JSON at line 1"), std::string::npos);
  // The parser quotes the bytes it read last, the bad one among them: escaped, so the message is
  // valid UTF-8 on a terminal.
  EXPECT_TRUE(is_valid_utf8(only_error(diags))) << only_error(diags);
  EXPECT_NE(only_error(diags).find("\\xFF"), std::string::npos) << only_error(diags);
}

TEST(JsonRead, Utf8Validation) {
  std::size_t at = 0;
  EXPECT_TRUE(is_valid_utf8("plain \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
  EXPECT_FALSE(is_valid_utf8("ab\xFF", &at));
  EXPECT_EQ(at, 2u);
  EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));      // a surrogate
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xE2\x82"));          // truncated
  EXPECT_EQ(escape_invalid_utf8("a\xFF\xC3\xA9z\x80"), "a\\xFF\xC3\xA9z\\x80");
}

}  // namespace
}  // namespace hermes

namespace hermes {
namespace {

// The document is the one nlohmann's own parser builds, in the file's order, also for an object
// of many keys (built by appending, never by a lookup per key: docs/performance.md gives the time
// of a price list of 100,000 profiles).
TEST(JsonRead, TheDocumentIsNlohmannsInTheFilesOrder) {
  const std::string text =
      R"({"z": 1, "a": [true, null, -2, 18446744073709551615, 0.5, "s", {}, []],
          "m": {"k": {"j": [[1], {"x": "y"}]}}, "": -0.0})";
  Diagnostics diags;
  const auto doc = parse_json_checked(text, diags);
  ASSERT_TRUE(doc) << diags.format();
  EXPECT_EQ(doc->dump(), nlohmann::ordered_json::parse(text).dump());
  EXPECT_EQ(*doc, nlohmann::ordered_json::parse(text));
  std::string many = "{";
  for (int i = 20000; i > 0; --i)
    many += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ",";
  many.back() = '}';
  const auto big = parse_json_checked(many, diags);
  ASSERT_TRUE(big) << diags.format();
  ASSERT_EQ(big->size(), 20000u);
  EXPECT_EQ(big->begin().key(), "k20000");  // the file's order, not sorted
  EXPECT_EQ((*big)["k1"], 1);
  // A repeated key among many is still found, at its object.
  Diagnostics twice;
  many.back() = ',';
  EXPECT_FALSE(parse_json_checked(many + "\"k7\": 0}", twice));
  EXPECT_EQ(twice.items().at(0).json_path, "");
  EXPECT_NE(twice.format().find("duplicate key 'k7'"), std::string::npos) << twice.format();
}

TEST(JsonRead, ScalarIdentityIsJsonEquality) {
  using J = nlohmann::ordered_json;
  EXPECT_EQ(scalar_identity(J(1)), scalar_identity(J(1.0)));
  EXPECT_EQ(scalar_identity(J(0.0)), scalar_identity(J(-0.0)));
  EXPECT_NE(scalar_identity(J(1)), scalar_identity(J("1")));
  EXPECT_NE(scalar_identity(J(true)), scalar_identity(J("true")));
  EXPECT_NE(scalar_identity(J(0.1)), scalar_identity(J(0.2)));
  EXPECT_NE(scalar_identity(J(9007199254740993ULL)), scalar_identity(J(9007199254740992ULL)));
}

}  // namespace
}  // namespace hermes
