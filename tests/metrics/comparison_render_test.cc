// The comparison as text, CSV and Markdown (sim/metrics/comparison_render).
#include "sim/metrics/comparison_render.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "base/number_text.h"
#include "sim/config/csv_reader.h"
#include "tests/metrics/summary_files.h"

namespace hermes::metrics {
namespace {

using namespace testing;  // summary_files.h
using ComparisonRenderTest = SummaryFilesTest;

TEST_F(ComparisonRenderTest, SeveralSeedsAreListedRunByRunInSeedOrder) {
  // Seeds in the file: 3, 1, 2; the per-run table lists them 1, 2, 3 with each run's own values.
  const Comparison c = compare_text(write_summary(
      "s.csv", kHeader + "b3,bsp,,3,ok,patience,90,90,5400,1,0.99,0.1,3000000,1,90,1\n"
                         "b1,bsp,,1,ok,patience,100,100,6000,1,0.98,0.1,1000000,1,100,1\n"
                         "b2,bsp,,2,ok,patience,110,110,6600,1,0.97,0.1,2000000,1,110,1\n"
                         "h3,hermes,alpha=-1.3,3,ok,patience,9,30,540,3,0.96,0.1,100,1,9,10\n"
                         "h1,hermes,alpha=-1.3,1,ok,patience,10,40,600,4,0.95,0.1,200,1,10,10\n"
                         "h2,hermes,alpha=-1.3,2,ok,patience,11,50,1320,5,0.94,0.1,300,1,11,5\n"));
  std::ostringstream os;
  write_comparison(os, c, TableFormat::kMarkdown);
  const std::string md = os.str();
  EXPECT_NE(md.find("Every run, in seed order"), std::string::npos) << md;
  // A line per run, whatever the number of seeds (issue 26: lines of 647 characters before).
  EXPECT_NE(
      md.find("| BSP | 1 | b1 | 100 | 100 | 100.00 | 1.00 | 98.00 | 1.00 | 1.00x |\n"
              "| BSP | 2 | b2 | 110 | 110 | 110.00 | 1.00 | 97.00 | 2.00 | 1.00x |\n"
              "| BSP | 3 | b3 | 90 | 90 | 90.00 | 1.00 | 99.00 | 3.00 | 1.00x |\n"
              "| Hermes (alpha=-1.3) | 1 | h1 | 10 | 40 | 10.00 | 4.00 | 95.00 | 0.00 | 10.00x |\n"
              "| Hermes (alpha=-1.3) | 2 | h2 | 11 | 50 | 22.00 | 5.00 | 94.00 | 0.00 | 5.00x |\n"
              "| Hermes (alpha=-1.3) | 3 | h3 | 9 | 30 | 9.00 | 3.00 | 96.00 | 0.00 | 10.00x |\n"),
      std::string::npos)
      << md;
}

TEST_F(ComparisonRenderTest, TextTableAlignsSimBesidePaper) {
  const Comparison c = compare_text(write("s.csv", hand_made_summary()));
  std::ostringstream os;
  write_comparison(os, c, TableFormat::kText);
  // Hand-checked: BSP 6000 s = 100 min, accuracy 98.00 - 98.07 = -0.07; SSP 12000 s, speedup
  // 6000/12000 = 0.5, 91 - 90.79 = +0.21; alpha=-1.3: 750 s = 12.5 min, 8x; alpha=-1.6: 600 s,
  // 10x, 97.5 - 97.82 = -0.32. Paper cells keep the paper's digits (90.625, 18.9).
  const std::string table =
      "                               |            |      |               | iterations   | local "
      "iter. | tim"
      "e (min)     | WI          | accuracy (%)         | API calls (M) | speedup vs BSP\n"
      "framework                      | differs in | runs | status (stop) |   sim  paper |         "
      "sim |    "
      "sim   paper |  sim  paper |   sim   paper   diff |   sim   paper |     sim   paper\n"
      "-------------------------------+------------+------+---------------+--------------+---------"
      "----+----"
      "------------+-------------+----------------------+---------------+----------------\n"
      "BSP                            |            |    1 | ok (patience) |  9600   9600 |       "
      "38400 | 100"
      ".00  105.38 | 1.00   1.00 | 98.00   98.07  -0.07 | 20.00    18.9 |  1.00x*   1.00x\n"
      "ASP                            |            |    0 | -             |     -  15325 |         "
      "  - |    "
      "  -   55.72 |    -   1.00 |     -  90.625      - |     -    24.6 |       -   1.89x\n"
      "SSP (s=125)                    |            |    1 | ok (patience) | 20000  20955 |       "
      "80000 | 200"
      ".00  221.63 | 1.00   1.00 | 91.00   90.79  +0.21 | 30.00    29.6 |  0.50x*   0.47x\n"
      "E-BSP (R=150)                  |            |    0 | -             |     -   3840 |         "
      "  - |    "
      "  -  124.28 |    -   5.09 |     -   85.34      - |     -    15.5 |       -   0.84x\n"
      "Hermes (alpha=-0.9)            | beta=0.1   |    0 | -             |     -   2200 |         "
      "  - |    "
      "  -   11.20 |    -   7.41 |     -   97.71      - |     -    11.2 |       -   9.40x\n"
      "Hermes (alpha=-1.3)            | beta=0.1   |    1 | ok (patience) |  2830   2830 |       "
      "18000 |  12"
      ".50   10.55 | 7.90   7.90 | 98.00   98.02  -0.02 | 13.50    13.5 |  8.00x*   9.90x\n"
      "Hermes (alpha=-1.6, beta=0.15) |            |    1 | ok (patience) |  2250   2250 |       "
      "18000 |  10"
      ".00    7.97 | 8.00   8.70 | 97.50   97.82  -0.32 | 12.00    11.4 | 10.00x*  13.22x\n";
  const std::string text = os.str();
  EXPECT_EQ(text.substr(0, table.size()), table) << text;
  EXPECT_NE(text.find("not simulated: ASP, E-BSP (R=150), Hermes (alpha=-0.9)\n"),
            std::string::npos);
  EXPECT_NE(text.find("against BSP (1 run, mean 100.00 min)"), std::string::npos);
  EXPECT_EQ(text.find("range over runs"), std::string::npos);  // one run each: no ranges
  EXPECT_NE(text.find("Hermes' best speedup vs BSP     | 10.00x | 13.22x | sim: Hermes "
                      "(alpha=-1.6, beta=0.15); paper: Hermes (alpha=-1.6, beta=0.15)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("API calls: 1 - Hermes/SSP       |  60.0% |  61.5% | Hermes (alpha=-1.6, "
                      "beta=0.15) vs SSP\n"),
            std::string::npos);
  EXPECT_NE(text.find("API calls: 1 - Hermes/BSP       |  40.0% |  39.7% |"), std::string::npos);
  EXPECT_NE(text.find("accuracy: Hermes - BSP (points) |  -0.50 |  -0.25 |"), std::string::npos);
}

TEST_F(ComparisonRenderTest, MarkdownAndCsvOutputs) {
  const std::string bsp2 =
      summary(kHeader + "bsp2,bsp,,2,ok,patience,9600,38400,6600,1,0.97,0.07,20000000,1,1,\n");
  const Comparison c =
      compare_text(write("s.csv", hand_made_summary() + bsp2.substr(header().size())));
  std::ostringstream md;
  write_comparison(md, c, TableFormat::kMarkdown);
  EXPECT_EQ(
      md.str().substr(0, md.str().find('\n')),
      "| framework | differs in | runs | status (stop) | iterations sim | iterations paper | local "
      "iter. sim | "
      "time (min) sim | time (min) "
      "paper | WI sim | WI paper | accuracy (%) sim | accuracy (%) paper | accuracy (%) diff "
      "| API calls (M) sim | API calls (M) paper | speedup vs BSP sim | speedup vs BSP paper |");
  EXPECT_NE(md.str().find("| BSP |  | 2 | ok (patience) | 9600 | 9600 | 38400 | 105.00 | 105.38 |"),
            std::string::npos)
      << md.str();
  EXPECT_NE(md.str().find("| BSP | 2 | 9600-9600 | 38400-38400 | 100.00-110.00 |"),
            std::string::npos)
      << md.str();

  const std::string csv_path = (dir_ / "out.csv").string();
  {
    std::ofstream f(csv_path);
    write_comparison(f, c, TableFormat::kCsv);
  }
  io::CSVReader<6, io::trim_chars<>, io::double_quote_escape<',', '"'>> in(csv_path);
  in.read_header(io::ignore_extra_column, "label", "match", "runs", "time_min_sim",
                 "time_min_sim_max", "time_min_paper");
  std::string label, match, runs, t, tmax, tpaper;
  std::vector<std::string> labels;
  while (in.read_row(label, match, runs, t, tmax, tpaper)) {
    labels.push_back(label);
    if (label == "BSP") {
      EXPECT_EQ(match, "matched");
      EXPECT_EQ(runs, "2");
      EXPECT_EQ(t, "105.0000");
      EXPECT_EQ(tmax, "110.0000");
      EXPECT_EQ(tpaper, "105.38");
    }
    if (label == "ASP") {
      EXPECT_EQ(match, "not_simulated");
      EXPECT_EQ(t, "");
    }
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"BSP", "ASP", "SSP (s=125)", "E-BSP (R=150)",
                                              "Hermes (alpha=-0.9)", "Hermes (alpha=-1.3)",
                                              "Hermes (alpha=-1.6, beta=0.15)"}));
}

// What would mislead is said, not printed: warnings before the table, "withheld" where a speedup
// would be, and the reason under the table; the JSON holds the same for tools/plot.
TEST_F(ComparisonRenderTest, WarningsAndWithheldSpeedupsInTextAndJson) {
  Comparison c = compare_text(write_summary(
      "s.csv", kHeader + "b,bsp,,1,ok,patience,984,984,842,1,0.982,0.0685,2593134,1,984,1.0\n"
                         "a,asp,,1,ok,max_iterations,40,40,30,1,0.9,0.3,5000,1,40,\n"));
  c.warnings = {
      "not the paper's setup (paper.json): training.stop.max_iterations 40 (paper "
      "200000); ..."};
  c.setup_differences = {{"/training/stop/max_iterations", "40", "200000"}};
  std::ostringstream text;
  write_comparison(text, c, TableFormat::kText);
  const std::string t = text.str();
  EXPECT_EQ(
      t.rfind("warning: not the paper's setup (paper.json): training.stop.max_iterations 40", 0),
      0u)
      << t;
  EXPECT_NE(t.find("ok (max_iterations)"), std::string::npos) << t;
  EXPECT_NE(t.find("withheld"), std::string::npos) << t;
  EXPECT_EQ(t.find("28.07x"), std::string::npos) << t;  // 842 / 30: the misleading number
  EXPECT_NE(
      t.find("speedup withheld for ASP: a: capped at 40 updates (training.stop.max_iterations)\n"),
      std::string::npos)
      << t;

  const nlohmann::ordered_json j = comparison_json(c);
  EXPECT_EQ(j["setup"]["differences"][0]["pointer"], "/training/stop/max_iterations");
  EXPECT_EQ(j["setup"]["differences"][0]["run"], 40);
  EXPECT_EQ(j["warnings"].size(), 1u);
  const auto& asp = j["configurations"][1];
  EXPECT_EQ(asp["label"], "ASP");
  EXPECT_EQ(asp["status"], "ok (max_iterations)");
  EXPECT_TRUE(asp["sim"]["speedup_vs_bsp"].is_null());
  EXPECT_EQ(asp["speedup_withheld"], "a: capped at 40 updates (training.stop.max_iterations)");
  EXPECT_EQ(asp["runs"][0]["stop_reason"], "max_iterations");
  EXPECT_EQ(asp["runs"][0]["cap_key"], "training.stop.max_iterations");
  EXPECT_DOUBLE_EQ(asp["paper"]["speedup_vs_bsp"].get<double>(), 1.89);
  const auto& bsp = j["configurations"][0];
  EXPECT_DOUBLE_EQ(bsp["sim"]["speedup_vs_bsp"]["mean"].get<double>(), 1.0);
  EXPECT_TRUE(bsp["speedup_withheld"].is_null());
  EXPECT_TRUE(bsp["runs"][0]["cap_key"].is_null());  // stopped by its patience: no cap
}

// The simulated cost has a column of its own (no paper side) once any run has a cost; a summary
// from before costs is shown without it (the tests above).
TEST_F(ComparisonRenderTest, CostIsShownForTheSimulationOnly) {
  const Comparison c = compare_text(write_summary(
      "s.csv", kHeader + "b1,bsp,,1,ok,patience,100,100,6000,1,0.98,0.1,1000000,1,100,1,2.5\n"
                         "b2,bsp,,2,ok,patience,110,110,6600,1,0.97,0.1,2000000,1,110,1,3.5\n"));
  std::ostringstream text, csv, json;
  write_comparison(text, c, TableFormat::kText);
  write_comparison(csv, c, TableFormat::kCsv);
  write_comparison(json, c, TableFormat::kJson);
  const std::string t = text.str();
  EXPECT_NE(t.find("| speedup vs BSP | cost ($)\n"), std::string::npos) << t;
  EXPECT_NE(t.find("|   sim    paper |      sim\n"), std::string::npos) << t;  // no paper side
  EXPECT_NE(t.find("| 1.00x    1.00x |    3.000\n"), std::string::npos) << t;
  EXPECT_NE(t.find("2.500-3.500"), std::string::npos) << t;  // range over the seeds
  EXPECT_NE(t.find("|    2 | b2  |        110 |         110 |     110.00 | 1.00 |        97.00 |   "
                   "       2.00 |          1.00x |    3.500\n"),
            std::string::npos)
      << t;  // every run
  const std::string header = csv.str().substr(0, csv.str().find('\n'));
  EXPECT_NE(header.find(",speedup_vs_bsp_paper,cost_usd_sim,cost_usd_sim_min,cost_usd_sim_max,"),
            std::string::npos)
      << header;
  EXPECT_EQ(header.find("cost_usd_paper"), std::string::npos);
  const auto doc = nlohmann::json::parse(json.str());
  const auto& bsp = doc["configurations"][0];
  EXPECT_DOUBLE_EQ(bsp["sim"]["cost_usd"]["mean"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(bsp["runs"][1]["cost_usd"].get<double>(), 3.5);
  EXPECT_FALSE(bsp["paper"].contains("cost_usd"));
}

TEST_F(ComparisonRenderTest, FormatNames) {
  EXPECT_EQ(parse_table_format("text"), TableFormat::kText);
  EXPECT_EQ(parse_table_format("csv"), TableFormat::kCsv);
  EXPECT_EQ(parse_table_format("markdown"), TableFormat::kMarkdown);
  EXPECT_EQ(parse_table_format("json"), TableFormat::kJson);
  EXPECT_FALSE(parse_table_format("md").has_value());
  EXPECT_EQ(format_min_decimals(98.07, 2), "98.07");
  EXPECT_EQ(format_min_decimals(90.625, 2), "90.625");
  EXPECT_EQ(format_min_decimals(1.0, 2), "1.00");
  EXPECT_EQ(format_min_decimals(9600, 0), "9600");
  EXPECT_EQ(format_min_decimals(18.9, 1), "18.9");
}

}  // namespace
}  // namespace hermes::metrics
