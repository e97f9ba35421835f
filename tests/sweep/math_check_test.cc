// The math checks of a sweep: what sweep.json records, and MPI ranks whose math differs.
#include "sim/sweep/math_check.h"

#include <gtest/gtest.h>

namespace hermes::sweep {
namespace {

const MathBuild kRepro{"reproducible", "x86-64-v3"};
const MathBuild kRocket{"native", "rocketlake"};
const MathBuild kZen{"native", "znver3"};

TEST(MathCheck, RecordedMathsAreTheBuildThenTheMixedOnes) {
  Json m = Json::parse(R"json({"code_version": "0.1.0 (abc)"})json");
  EXPECT_TRUE(recorded_maths(m).empty());  // an old manifest
  m["build"] = {{"version", "0.1.0"}, {"math_profile", "reproducible"}, {"math_arch", "x86-64-v3"}};
  EXPECT_EQ(recorded_maths(m), std::vector<MathBuild>{kRepro});
  EXPECT_TRUE(add_mixed_math(m, kRocket));
  EXPECT_FALSE(add_mixed_math(m, kRocket));
  EXPECT_FALSE(add_mixed_math(m, kRepro));
  EXPECT_EQ(recorded_maths(m), (std::vector<MathBuild>{kRepro, kRocket}));
  EXPECT_EQ(resume_math_error({kRepro}, kRepro), "");
  EXPECT_NE(resume_math_error({kRepro, kRocket}, kRepro), "");
}

TEST(MathCheck, RankMathTravelsAsText) {
  const RankMath r{3, "node-7", kRocket, "0.1.0 (abc)"};
  const RankMath back = decode_rank_math(encode_rank_math(r));
  EXPECT_EQ(back.rank, 3);
  EXPECT_EQ(back.host, "node-7");
  EXPECT_EQ(back.math, kRocket);
  EXPECT_EQ(back.code_version, "0.1.0 (abc)");
  EXPECT_THROW(decode_rank_math("1\nhost"), std::runtime_error);
}

TEST(MathCheck, RanksThatDifferFromRankZeroAreNamedWithTheirHosts) {
  EXPECT_EQ(rank_math_error({{0, "a", kRepro, "v"}, {1, "a", kRepro, "w"}}), "");
  const std::vector<RankMath> ranks = {{0, "a", kRepro, "v"},
                                       {1, "a", kRepro, "v"},
                                       {2, "b", kRocket, "v"},
                                       {3, "b", kRocket, "v"},
                                       {4, "c", kZen, "v"}};
  const std::string error = rank_math_error(ranks);
  EXPECT_NE(error.find("the MPI ranks of this sweep do not share one math: rank 0 (a) is "
                       "reproducible (x86-64-v3); rank 2 (b), rank 3 (b) are native "
                       "(rocketlake); rank 4 (c) is native (znver3): their points "
                       "would not be comparable byte for byte."),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("--allow-mixed-math"), std::string::npos) << error;
  EXPECT_EQ(other_maths(ranks), (std::vector<MathBuild>{kRocket, kZen}));
  EXPECT_EQ(rank_version_note(ranks), "");
}

TEST(MathCheck, OtherCodeVersionsOfRanksAreANote) {
  EXPECT_EQ(rank_version_note({{0, "a", kRepro, "0.1.0 (abc)"},
                               {1, "a", kRepro, "0.1.0 (abc)"},
                               {2, "b", kRepro, "0.1.0 (def-dirty)"}}),
            "note: the MPI ranks run different code versions: rank 0 (a) runs 0.1.0 (abc); rank 2 "
            "(b) runs 0.1.0 (def-dirty)");
}

}  // namespace
}  // namespace hermes::sweep
