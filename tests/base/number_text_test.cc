// The number formats of base/number_text.h: where two of them differ, the difference is the point
// (each output keeps the bytes it always had).
#include "base/number_text.h"

#include <gtest/gtest.h>

namespace hermes {
namespace {

TEST(NumberText, ShortestAndFormatNumberDifferOnlyForLargeWholeNumbers) {
  EXPECT_EQ(shortest(1e6), "1e+06");
  EXPECT_EQ(format_number(1e6), "1000000");
  EXPECT_EQ(shortest(-1.6), "-1.6");
  EXPECT_EQ(format_number(-1.6), "-1.6");
  EXPECT_EQ(shortest(-0.0), "0");
  EXPECT_EQ(format_number(-0.0), "0");
  EXPECT_EQ(format_number(1e20), "1e+20");
}

TEST(NumberText, FixedKeepsOrDropsTheSignOfANegativeZero) {
  EXPECT_EQ(format_fixed(-0.00001, 3), "0.000");
  EXPECT_EQ(format_fixed(-0.00001, 3, NegativeZero::kKeep), "-0.000");
  EXPECT_EQ(format_fixed(-0.5, 1, NegativeZero::kKeep), "-0.5");
  EXPECT_EQ(format_fixed(1.0 / 0.0, 2), "inf");
}

TEST(NumberText, SignificantIsPrintfG) {
  EXPECT_EQ(format_significant(750), "750");
  EXPECT_EQ(format_significant(0.04), "0.04");
  EXPECT_EQ(format_significant(3.876e301, 3), "3.88e+301");
  EXPECT_EQ(format_significant(0.5312, 2), "0.53");
}

// byte_text moved here from base/file_read (its test with it).
TEST(ByteText, DecimalUnits) {
  EXPECT_EQ(byte_text(512), "512 bytes");
  EXPECT_EQ(byte_text(16e6), "16 MB");
  EXPECT_EQ(byte_text(2.5e9), "2.5 GB");
  EXPECT_EQ(byte_text(999), "999 bytes");
  EXPECT_EQ(byte_text(1500), "1.5 kB");
}

}  // namespace
}  // namespace hermes
