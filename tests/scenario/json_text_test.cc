// Malformed JSON is reported with line and column; duplicate keys and unreadable files too.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "sim/scenario/json_text.h"
#include "tests/scenario/scenario_test_util.h"

namespace hermes::scenario {
namespace {

using testing::Contains;
using testing::error_paths;
using testing::only_message;

TEST(JsonText, PositionCountsLinesAndCharacters) {
  const std::string text = "ab\ncd\n\xC3\xA9x";  // "é" is two bytes, one character
  EXPECT_EQ(position_of(text, 0).line, 1u);
  EXPECT_EQ(position_of(text, 0).column, 1u);
  EXPECT_EQ(position_of(text, 4).line, 2u);
  EXPECT_EQ(position_of(text, 4).column, 2u);
  EXPECT_EQ(position_of(text, 8).line, 3u);  // 'x'
  EXPECT_EQ(position_of(text, 8).column, 2u);
  EXPECT_EQ(position_of(text, 99).column, 3u);  // clamped to the end
}

TEST(JsonText, MalformedJsonGivesLineAndColumn) {
  Diagnostics diags;
  // The second comma on line 3 is column 14.
  EXPECT_FALSE(parse_json_text("{\n  \"name\": \"x\",\n  \"seed\": 42,,\n}", diags));
  EXPECT_EQ(error_paths(diags), std::vector<std::string>{""});
  const std::string message = only_message(diags);
  EXPECT_TRUE(Contains(message, "malformed JSON at line 3, column 14: syntax error"));
  EXPECT_FALSE(Contains(message, "json.exception"));
}

TEST(JsonText, ColumnsCountCharactersNotBytes) {
  Diagnostics diags;
  // nlohmann stops at the '}' after "tru": column 30 of line 2 counting "é" as one character
  // (its byte offset in the line would give 31).
  EXPECT_FALSE(parse_json_text("{\n  \"description\":\"\xC3\xA9\", \"x\": tru}", diags));
  EXPECT_TRUE(Contains(only_message(diags), "line 2, column 30"));
}

TEST(JsonText, TruncatedAndEmptyInput) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_text("{\"a\": [1, 2", diags));
  EXPECT_TRUE(Contains(only_message(diags), "line 1, column 12"));
  Diagnostics empty;
  EXPECT_FALSE(parse_json_text("", empty));
  EXPECT_TRUE(Contains(only_message(empty), "line 1, column 1"));
}

TEST(JsonText, DuplicateKeysAreErrorsAtTheirObject) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_text(
      R"({"a": 1, "runs": [{"x": 1}, {"y": {"k": 1, "k": 2}}, [1, {"z": 0, "z": 0}]], "a": 2})",
      diags));
  EXPECT_EQ(error_paths(diags), (std::vector<std::string>{"/runs/1/y", "/runs/2/1", ""}))
      << diags.format();
  EXPECT_TRUE(Contains(diags.items()[0].message, "duplicate key 'k'"));
}

TEST(JsonText, KeysWithSlashesAreEscapedInPointers) {
  Diagnostics diags;
  EXPECT_FALSE(parse_json_text(R"({"a/b~c": {"q": 1, "q": 2}})", diags));
  EXPECT_EQ(error_paths(diags), std::vector<std::string>{"/a~1b~0c"});
}

TEST(JsonText, ScenarioFileErrorsNameTheFile) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("hermes-scenario-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string bad = (dir / "bad.json").string();
  // Missing comma after "x": the parser stops at the end of the next key, column 8 of line 3.
  std::ofstream(bad) << "{\n  \"name\": \"x\"\n  \"seed\": 1\n}\n";

  Diagnostics diags;
  EXPECT_FALSE(check_scenario(bad, {}, HERMES_SOURCE_DIR, diags));
  ASSERT_EQ(diags.count(), 1u);
  EXPECT_EQ(diags.items()[0].file, bad);
  EXPECT_TRUE(Contains(diags.format(), bad + ": /: malformed JSON at line 3, column 8"));

  Diagnostics missing;
  EXPECT_FALSE(check_scenario((dir / "nope.json").string(), {}, HERMES_SOURCE_DIR, missing));
  EXPECT_TRUE(Contains(only_message(missing), "cannot open scenario file"));
  EXPECT_TRUE(Contains(only_message(missing), "No such file or directory"));
  Diagnostics directory;
  EXPECT_FALSE(check_scenario(dir.string(), {}, HERMES_SOURCE_DIR, directory));
  EXPECT_TRUE(Contains(only_message(directory), "is a directory"));

  Diagnostics not_object;
  EXPECT_FALSE(check_scenario_text("[1, 2]", {}, HERMES_SOURCE_DIR, not_object));
  EXPECT_TRUE(Contains(only_message(not_object), "a scenario is a JSON object"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hermes::scenario
