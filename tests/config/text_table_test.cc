// The one table renderer (sim/config/text_table.h): the layouts its users need, byte for byte.
#include "sim/config/text_table.h"

#include <gtest/gtest.h>

#include <sstream>

namespace hermes::config {
namespace {

std::string text(const TextTable& t) {
  std::ostringstream os;
  render_text(os, t);
  return os.str();
}

TEST(TextTable, GroupsShareALabelAndARule) {
  TextTable t;
  t.columns = {{"", "run", false}, {"iterations", "sim"}, {"iterations", "paper"}};
  t.rows = {{"BSP", "12", "9"}};
  EXPECT_EQ(text(t),
            "    | iterations\n"
            "run | sim  paper\n"
            "----+-----------\n"
            "BSP |  12      9\n");
}

TEST(TextTable, APlainGridHasNoRuleAndOneGap) {
  TextTable t;
  t.rule = false;
  t.group_gap = t.gap;
  t.columns = {{"", "name", false}, {"", "vCPU"}};
  t.rows = {{"B1ms", "1"}, {"DS2_v2", "2"}};
  EXPECT_EQ(text(t),
            "name    vCPU\n"
            "B1ms       1\n"
            "DS2_v2     2\n");
}

TEST(TextTable, FixedWidthColumnsOverflowTheirRowOnlyLikeSetw) {
  TextTable t;
  t.indent = "  ";
  t.gap = "";
  t.group_gap = "";
  t.rule = false;
  t.columns = {{"", "node", false, 6, false}, {"", "iters", true, 6, false}};
  t.rows = {{"w1", "3"}, {"worker7", "12"}};
  EXPECT_EQ(text(t),
            "  node   iters\n"
            "  w1         3\n"
            "  worker7    12\n");
}

}  // namespace
}  // namespace hermes::config
