// Grid values from --grid options and from the scenario's sweep section.
#include <gtest/gtest.h>

#include "base/diagnostics.h"
#include "sim/sweep/grid.h"

namespace hermes::sweep {
namespace {

using Texts = std::vector<std::string>;

Texts texts(const GridAxis& axis) {
  Texts out;
  for (const auto& v : axis.values) out.push_back(value_text(v));
  return out;
}

std::string error_of(const std::string& arg) {
  try {
    parse_grid_option(arg);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for " << arg;
  return {};
}

TEST(Grid, RangesPrintAsTheirDecimals) {
  const GridAxis a = parse_grid_option("runs.hermes.alpha=-1.6:-0.9:0.1");
  EXPECT_EQ(a.key, "runs.hermes.alpha");
  EXPECT_EQ(texts(a), (Texts{"-1.6", "-1.5", "-1.4", "-1.3", "-1.2", "-1.1", "-1.0", "-0.9"}));
  // The values are numbers, not strings: they reach the scenario as numbers.
  EXPECT_TRUE(a.values[0].is_number_float());
  EXPECT_EQ(value_set_text(a.values[6]), "-1.0");
  EXPECT_EQ(texts(parse_grid_option("x=0:0.3:0.1")), (Texts{"0.0", "0.1", "0.2", "0.3"}));
  EXPECT_EQ(texts(parse_grid_option("x=0:1:0.25")), (Texts{"0.0", "0.25", "0.5", "0.75", "1.0"}));
  EXPECT_EQ(texts(parse_grid_option("x=1:9:3")), (Texts{"1", "4", "7"}));  // 9 not reached
  EXPECT_EQ(texts(parse_grid_option("x=5:5:1")), (Texts{"5"}));
  EXPECT_EQ(texts(parse_grid_option("x=-0.3:0.3:0.3")), (Texts{"-0.3", "0.0", "0.3"}));
  EXPECT_TRUE(parse_grid_option("x=1:3:1").values[0].is_number_integer());
}

TEST(Grid, DisplayedValuesAreTheShortestNumbers) {
  // sweep.json keeps the JSON text ("-1.0"); summary.csv and the progress lines show the number
  // as a run's params do ("alpha=-1").
  const GridAxis a = parse_grid_option("runs.hermes.alpha=-1.6:-0.9:0.1");
  EXPECT_EQ(value_text(a.values[6]), "-1.0");
  EXPECT_EQ(display_text(a.values[6]), "-1");
  EXPECT_EQ(display_text(a.values[0]), "-1.6");
  Texts shown;
  for (const auto& v :
       parse_grid_option("x=0.15,5,7.0,-0.0,1e21,123456789012345678,on,true").values)
    shown.push_back(display_text(v));
  EXPECT_EQ(shown, (Texts{"0.15", "5", "7", "0", "1e+21", "123456789012345678", "on", "true"}));
}

TEST(Grid, RangesTolerateRoundingAtTheEnd) {
  const auto texts_of = [](const std::vector<Json>& values) {
    Texts out;
    for (const auto& v : values) out.push_back(value_text(v));
    return out;
  };
  // (0.7 - 0.1) / 0.2 is 2.9999999999999996 in binary floating point.
  EXPECT_EQ(texts_of(range_values(0.1, 0.7, 0.2, "r")), (Texts{"0.1", "0.3", "0.5", "0.7"}));
  EXPECT_EQ(texts_of(range_values(0.05, 0.15, 0.05, "r")), (Texts{"0.05", "0.1", "0.15"}));
  EXPECT_EQ(texts_of(range_values(1e-3, 3e-3, 1e-3, "r")), (Texts{"0.001", "0.002", "0.003"}));
  // Rounded to the decimals given, not 0.30000000000000004.
  EXPECT_EQ(range_values(0.1, 0.3, 0.1, "r")[2].get<double>(), 0.3);
}

TEST(Grid, TinyStepsKeepTheirDecimalsAndRepeatsAreRefused) {
  // 0:1e-20:1e-21 used to round every value to 17 decimals: eleven "0.0".
  const auto v = range_values(0, 1e-20, 1e-21, "r");
  ASSERT_EQ(v.size(), 11u);
  EXPECT_EQ(v[1].get<double>(), 1e-21);
  EXPECT_EQ(v[10].get<double>(), 1e-20);
  for (std::size_t i = 1; i < v.size(); ++i) EXPECT_NE(v[i], v[i - 1]) << i;
  // A step below a double's resolution at that magnitude repeats values: an error, not a grid.
  try {
    range_values(1e17, 1e17 + 100, 1, "--grid k");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("are equal as doubles"), std::string::npos) << e.what();
  }
}

TEST(Grid, ListsReadValuesLikeSet) {
  const GridAxis b = parse_grid_option("runs.hermes.beta=0.05,0.10,0.15");
  EXPECT_EQ(texts(b), (Texts{"0.05", "0.1", "0.15"}));
  const GridAxis v = parse_grid_option("runs.hermes.variant=paper,reference");
  EXPECT_EQ(texts(v), (Texts{"paper", "reference"}));
  EXPECT_EQ(value_set_text(v.values[0]), "\"paper\"");
  const GridAxis g = parse_grid_option("runs.hermes.gup=true,false");
  EXPECT_TRUE(g.values[0].is_boolean());
  EXPECT_EQ(texts(parse_grid_option("seed.x=7")), (Texts{"7"}));
}

TEST(Grid, BadOptionsNameTheOption) {
  EXPECT_NE(error_of("runs.hermes.alpha").find("--grid 'runs.hermes.alpha': expected KEY="),
            std::string::npos);
  EXPECT_NE(error_of("=1,2").find("--grid '=1,2': the key must be a --set path"),
            std::string::npos);
  EXPECT_NE(error_of("a..b=1").find("--set path"), std::string::npos);
  EXPECT_NE(error_of("x=1:2").find("--grid 'x=1:2': a range is FROM:TO:STEP (three numbers), "
                                   "got 2 parts"),
            std::string::npos);
  EXPECT_NE(error_of("x=1:b:1").find("'b' is not a number"), std::string::npos);
  EXPECT_NE(error_of("x=1:2:0").find("--grid 'x=1:2:0': STEP must be > 0"), std::string::npos);
  EXPECT_NE(error_of("x=2:1:0.5").find("TO must be >= FROM"), std::string::npos);
  EXPECT_NE(error_of("x=0:1:0.00001").find("100001 values, more than 10000"), std::string::npos);
  EXPECT_NE(error_of("x=1,,2").find("empty value"), std::string::npos);
  EXPECT_NE(error_of("x=1,2,1").find("value '1' is listed twice"), std::string::npos);
  EXPECT_NE(error_of("x=1,2,1.0").find("value '1.0' is listed twice"), std::string::npos);
  std::string many = "x=0";
  for (int i = 1; i <= 10000; ++i) many += "," + std::to_string(i);
  EXPECT_NE(error_of(many).find("10001 values, more than 10000 (accepted: at most 10000"),
            std::string::npos);
  EXPECT_EQ(error_of(many).rfind("--grid '" + many.substr(0, 60) + "...': 10001 values", 0), 0u);
  EXPECT_LT(error_of(many).size(), 200u);
  EXPECT_NE(error_of("x=null").find("not a number, string or boolean"), std::string::npos);
  EXPECT_NE(error_of("seed=1,2").find("--seeds or --seed-list"), std::string::npos);
}

TEST(Grid, FileGridExpandsRangesAndTheCommandLineOverridesOrExtendsIt) {
  scenario::SweepSpec spec;
  spec.grid.push_back({"runs.h.alpha", {}, scenario::GridRangeSpec{-1.6, -1.4, 0.1}});
  spec.grid.push_back({"runs.h.beta", {Json(0.1), Json(0.2)}, std::nullopt});
  const auto file = grid_from_spec(spec);
  ASSERT_EQ(file.size(), 2u);
  EXPECT_EQ(texts(file[0]), (Texts{"-1.6", "-1.5", "-1.4"}));
  EXPECT_EQ(texts(grid_from_spec({{{"k", {}, scenario::GridRangeSpec{1, 3, 1}}}, {}, {}})[0]),
            (Texts{"1", "2", "3"}));
  EXPECT_EQ(texts(file[1]), (Texts{"0.1", "0.2"}));

  const auto merged = merge_grids(
      file, {parse_grid_option("runs.h.beta=0.3"), parse_grid_option("training.batch_size=8,16")});
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].key, "runs.h.alpha");
  EXPECT_EQ(merged[1].key, "runs.h.beta");
  EXPECT_EQ(texts(merged[1]), (Texts{"0.3"}));
  EXPECT_EQ(merged[2].key, "training.batch_size");
  EXPECT_THROW(merge_grids({}, {parse_grid_option("a=1"), parse_grid_option("a=2")}), InputError);
}

}  // namespace
}  // namespace hermes::sweep
