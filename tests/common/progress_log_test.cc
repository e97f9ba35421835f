// ProgressLog (sim/common/progress_log.h): what each format writes, notes and --quiet, the live
// line on a terminal.
#include "sim/common/progress_log.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace hermes {
namespace {

using Json = ProgressLog::Json;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ProgressLog, JsonWritesOneObjectPerLineStartingWithEventAndWallTime) {
  std::ostringstream out;
  ProgressLog log(out, ProgressFormat::kJson, /*notes=*/true, /*tty=*/true);
  log.event("run_start", {{"run", "bsp"}, {"index", 1}});
  log.note("note: replaced the old results");
  log.event("scenario_end");
  log.live("text progress is not written in json");
  log.line("nor are its lines");
  log.end_live();
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 3u) << out.str();
  EXPECT_EQ(out.str().find('\r'), std::string::npos);  // never rewritten in place
  const Json first = Json::parse(lines[0]);
  ASSERT_TRUE(first.is_object());
  EXPECT_EQ(first.begin().key(), "event");
  EXPECT_EQ((++first.begin()).key(), "wall_s");
  EXPECT_EQ(first["event"], "run_start");
  EXPECT_TRUE(first["wall_s"].is_number());
  EXPECT_GE(first["wall_s"].get<double>(), 0.0);
  EXPECT_EQ(first["run"], "bsp");
  EXPECT_EQ(first["index"], 1);
  const Json note = Json::parse(lines[1]);
  EXPECT_EQ(note["event"], "note");
  EXPECT_EQ(note["message"], "replaced the old results");  // the "note: " is the event's name
  EXPECT_EQ(Json::parse(lines[2]).size(), 2u);             // event and wall_s only
}

TEST(ProgressLog, JsonReplacesBytesThatAreNotUtf8InsteadOfThrowing) {
  std::ostringstream out;
  ProgressLog log(out, ProgressFormat::kJson, true, false);
  log.event("point_end", {{"error", std::string("bad path \xff")}});
  const Json e = Json::parse(lines_of(out.str()).at(0));
  EXPECT_EQ(e["error"], "bad path \xEF\xBF\xBD");  // U+FFFD
}

TEST(ProgressLog, QuietDropsNotesButNotRequestedEvents) {
  std::ostringstream json_out, text_out;
  ProgressLog json(json_out, ProgressFormat::kJson, /*notes=*/false, false);
  json.note("dropped");
  json.event("run_end");
  EXPECT_EQ(lines_of(json_out.str()).size(), 1u);
  EXPECT_EQ(json_out.str().find("dropped"), std::string::npos);
  ProgressLog none(text_out, ProgressFormat::kNone, /*notes=*/false, false);
  none.note("dropped");
  none.live("dropped");
  none.line("dropped");
  none.event("dropped");
  EXPECT_EQ(text_out.str(), "");
}

TEST(ProgressLog, NoneStillPrintsNotesAsText) {
  std::ostringstream out;
  ProgressLog log(out, ProgressFormat::kNone, true, false);
  log.note("kept");
  log.live("progress");
  EXPECT_EQ(out.str(), "note: kept\n");
}

TEST(ProgressLog, TextOffATerminalPrintsPlainLines) {
  std::ostringstream out;
  ProgressLog log(out, ProgressFormat::kText, true, /*tty=*/false);
  log.live("status 1");
  log.line("point 0001 done");
  log.note("a note");
  log.event("ignored");
  log.end_live();
  EXPECT_EQ(out.str(), "status 1\npoint 0001 done\nnote: a note\n");
}

TEST(ProgressLog, TextOnATerminalRewritesTheLiveLineCutToTheWidth) {
  std::ostringstream out;
  ProgressLog log(out, ProgressFormat::kText, true, /*tty=*/true, /*width=*/8);
  log.live("status 1 is long");
  log.live("status 2");
  log.line("a line that stays whole");
  log.live("abcdefg\xC3\xA9z");  // cut before the "é" that would straddle the width
  log.end_live();
  log.end_live();  // nothing more: no live line is shown
  EXPECT_EQ(out.str(),
            "\r\033[Kstatus 1\r\033[Kstatus 2\r\033[Ka line that stays whole\n"
            "\r\033[Kabcdefg\n");
}

}  // namespace
}  // namespace hermes
