// The one configuration reader (sim/config/object_reader.h) and its one wording, used by scenarios
// and the profile catalog alike: "<pointer>: <problem> (accepted: <values>)".
#include "sim/config/object_reader.h"

#include <gtest/gtest.h>

namespace hermes::config {
namespace {

TEST(ObjectReader, ReportsEveryProblemAtItsPointerInOneWording) {
  const Json doc = Json::parse(R"({"n": 0, "s": 3, "k": "x", "extra": true})");
  Diagnostics diags;
  Json out;
  ObjectReader r(doc, "/a", diags, out);
  EXPECT_FALSE(r.int32("n", std::nullopt, Range::at_least(1).up_to(8)));
  EXPECT_FALSE(r.string("s", std::nullopt));
  EXPECT_FALSE(r.choice("k", {"y", "z"}, std::nullopt));
  EXPECT_EQ(r.number("d", 2.5, Range::above(0)), 2.5);  // absent: the default, copied to out
  EXPECT_FALSE(r.boolean("b", std::nullopt));
  r.finish();
  ASSERT_EQ(diags.count(), 5u) << diags.format();
  const auto& items = diags.items();
  EXPECT_EQ(items[0].json_path + ": " + items[0].message,
            "/a/n: out of range (accepted: n in [1, 8]; got 0)");
  EXPECT_EQ(items[1].message, "wrong type: expected a string, got number 3");
  EXPECT_EQ(items[2].message, "unknown k 'x' (accepted: y, z)");
  EXPECT_EQ(items[3].message, "missing required key 'b'");
  EXPECT_EQ(items[4].json_path + ": " + items[4].message,
            "/a/extra: unknown key 'extra' (accepted: n, s, k, d, b)");
  EXPECT_EQ(out.dump(), R"({"d":2.5})");
}

// The data files' helpers (profile catalog, price list): an entry is used only if it had no error.
TEST(ObjectReader, ReadObjectKeepsOnlyAnEntryWithoutErrors) {
  const auto name_of = [](ObjectReader& r) { return non_empty_string(r, "name").value_or(""); };
  Diagnostics diags;
  EXPECT_EQ(read_object(Json::parse(R"({"name": "a"})"), "/e", diags, name_of), "a");
  EXPECT_TRUE(diags.ok());
  EXPECT_FALSE(read_object(Json::parse(R"({"name": "a", "x": 1})"), "/e", diags, name_of));
  EXPECT_FALSE(read_object(Json::parse(R"({"name": ""})"), "/f", diags, name_of));
  EXPECT_FALSE(read_object(Json::parse("3"), "/g", diags, name_of));
  ASSERT_EQ(diags.count(), 3u) << diags.format();
  EXPECT_EQ(diags.items()[0].json_path + ": " + diags.items()[0].message,
            "/e/x: unknown key 'x' (accepted: name)");
  EXPECT_EQ(diags.items()[1].message, "empty name (accepted: a non-empty string)");
  EXPECT_EQ(diags.items()[2].message, "wrong type: expected an object, got number 3");
}

TEST(ObjectReader, StringListsReportEachElementThatIsNoString) {
  std::vector<std::string> out;
  Diagnostics diags;
  read_string_list(Json::parse(R"(["a", 1, "b"])"), "/notes", out, diags);
  read_string_list(Json::parse(R"("c")"), "/about", out, diags);
  EXPECT_EQ(out, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(diags.count(), 2u);
  EXPECT_EQ(diags.items()[0].json_path, "/notes/1");
  EXPECT_EQ(diags.items()[1].message, "wrong type: expected an array of strings, got string \"c\"");
}

TEST(ObjectReader, RangesDescribeThemselves) {
  EXPECT_EQ(Range::at_least(0).up_to(1).describe("cv"), "cv in [0, 1]");
  EXPECT_EQ(Range::above(0).describe("x"), "x > 0");
  EXPECT_EQ(Range::below(0).describe("alpha"), "alpha < 0");
  EXPECT_EQ(Range::any().describe("y"), "y any number");
  EXPECT_TRUE(Range::above(0).under(1).contains(0.5));
  EXPECT_FALSE(Range::above(0).under(1).contains(1));
}

}  // namespace
}  // namespace hermes::config
