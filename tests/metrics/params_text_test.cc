// The params column (sim/metrics/params_text): canonical form, malformed text, matching a reference
// row.
#include "sim/metrics/params_text.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/config/csv_reader.h"
#include "tests/metrics/summary_files.h"

namespace hermes::metrics {
namespace {

using namespace testing;  // summary_files.h
using ParamsTextTest = SummaryFilesTest;

TEST_F(ParamsTextTest, CanonicalParamsSortsKeysAndNormalisesNumbers) {
  EXPECT_EQ(canonical_params("beta=0.15;alpha=-1.6"), "alpha=-1.6;beta=0.15");
  EXPECT_EQ(canonical_params(" alpha = -1.60 ; beta=.15;"), "alpha=-1.6;beta=0.15");
  EXPECT_EQ(canonical_params("staleness=125.0"), "staleness=125");
  EXPECT_EQ(canonical_params("lr=1e-1;window=+10"), "lr=0.1;window=10");
  EXPECT_EQ(canonical_params("x=-0"), "x=0");
  EXPECT_EQ(canonical_params("variant=reference;gup=true"), "gup=true;variant=reference");
  EXPECT_EQ(canonical_params("name=1.5x"), "name=1.5x");  // not a number: kept as written
  EXPECT_EQ(canonical_params(""), "");
  EXPECT_EQ(canonical_params(" ; "), "");
}

TEST_F(ParamsTextTest, MalformedParamsNameTheProblem) {
  EXPECT_NE(error_of([] { parse_params("alpha"); }).find("'alpha' has no '='"), std::string::npos);
  EXPECT_NE(error_of([] { parse_params("alpha=1;alpha=1.0"); }).find("key 'alpha' repeated"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_params("=3"); }).find("key '' is not"), std::string::npos);
  EXPECT_NE(error_of([] { parse_params("a b=3"); }).find("key 'a b' is not"), std::string::npos);
  EXPECT_NE(error_of([] { parse_params("alpha="); }).find("'alpha' has no value"),
            std::string::npos);
}

TEST_F(ParamsTextTest, ReferenceParamsMatchASupersetWithEqualValues) {
  const ParamMap ref = parse_params("alpha=-1.6;beta=0.15");
  EXPECT_TRUE(params_match(ref, parse_params("window=10;beta=0.150;lambda=5;alpha=-1.6")));
  EXPECT_TRUE(params_match(ref, ref));
  EXPECT_FALSE(params_match(ref, parse_params("alpha=-1.6;beta=0.1")));
  EXPECT_FALSE(params_match(ref, parse_params("alpha=-1.6")));  // beta missing
  EXPECT_TRUE(params_match({}, parse_params("staleness=3")));   // BSP names none
}

}  // namespace
}  // namespace hermes::metrics
