// The hostile-input corpus of issue 31, item 7: the files and options added after the scenario
// reader's corpus (hostile_corpus_test.cc), run through the real hermes-sim binary as a user would
// (and, in tools/test's second pass, through its ASan + UBSan build): traces, price lists, profile
// catalogs, the events, availability, prices and accounting sections, `compare`'s summaries,
// sweep grids and seeds, a sweep directory's own files, and FIFOs, devices, directories and
// symbolic links in the place of each file. Generated in code from shipped files with a seeded
// generator: the same inputs on every run.
//
// The property, for every case: the command ends (under `timeout`), with status 0, 1 (`validate`'s
// report) or 2 (a refused input); no crash or sanitizer report; a refusal has a message that names
// the hostile file or option, without an internal name (a C++ exception type, a function name); and
// the hostile file is still there afterwards (nothing the tool cannot read is deleted).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/mutations.h"
#include "tests/support/run_command.h"
#include "tests/support/synthetic_mnist.h"
#include "tests/support/test_files.h"
#include "tests/support/tiny_sweep.h"

namespace hermes::fuzz {
namespace {

namespace fs = std::filesystem;

std::string source_file(const std::string& rel) {
  std::ifstream in(std::string(HERMES_SOURCE_DIR) + "/" + rel, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `s` as one word of a shell command line.
std::string q(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Contents that are not text: what `put` makes in the file's place instead.
const std::string kFifo = "@fifo";
const std::string kDirectory = "@directory";
const std::string kDevZero = "@/dev/zero";  // a symbolic link to it
const std::string kLoop = "@loop";          // a symbolic link to itself
const std::string kDangling = "@dangling";  // a symbolic link to nothing
const std::string kHuge = "@huge";          // 300 MB of zeros, sparse: above every limit
const std::vector<std::string> kSpecials = {kFifo, kDirectory, kDevZero, kLoop, kDangling};
// With a file above the reader's limit (the scenario's files: 16 MB, traces: 256 MB; a summary's
// 2 GB limit is not tried, to keep the test light).
const std::vector<std::string> kSpecialsAndHuge = {kFifo, kDirectory, kDevZero,
                                                   kLoop, kDangling,  kHuge};

void put(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::error_code ec;
  fs::remove_all(path, ec);
  if (content == kFifo) {
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << path;
  } else if (content == kDirectory) {
    fs::create_directories(path / "sub");
  } else if (content == kDevZero) {
    fs::create_symlink("/dev/zero", path);
  } else if (content == kLoop) {
    fs::create_symlink(path.filename(), path);
  } else if (content == kDangling) {
    fs::create_symlink(path.filename().string() + ".nowhere", path);
  } else if (content == kHuge) {
    std::ofstream(path, std::ios::binary).put('x');
    fs::resize_file(path, 300'000'000);
  } else {
    std::ofstream(path, std::ios::binary) << content;
  }
}

struct Case {
  std::string label;
  std::vector<std::pair<std::string, std::string>> files;  // (path in the case's dir, content)
  std::string args;    // hermes-sim's arguments, run in the case's directory
  std::string names;   // what a refusal must name
  std::string keep;    // the hostile file, which must still be there ("" for none)
  bool sweep = false;  // the case's directory starts as a copy of a finished sweep ("sw")
};

// A scenario file `s.json` made of `doc` with a file it names replaced.
Json scenario_doc(const std::string& rel) { return Json::parse(source_file(rel)); }

// What is wrong with how hermes-sim handled case `c` (printing `r`), "" if nothing.
std::string problem(const Case& c, const hermes::testing::CommandResult& r, const fs::path& dir) {
  if (r.status == 124) return "hung (killed by timeout)";
  if (r.status < 0 || r.status > 2) return "exit status " + std::to_string(r.status);
  for (const char* crash : {"Sanitizer", "runtime error:", "terminate called", "Traceback",
                            "Segmentation fault", "core dumped"}) {
    if (r.output.find(crash) != std::string::npos) return std::string("crashed: ") + crash;
  }
  // The hostile file is where it was, or moved aside under the name the tool said.
  if (!c.keep.empty() && !fs::exists(fs::symlink_status(dir / c.keep))) {
    const std::string aside = c.keep + ".unreadable";
    if (r.output.find(fs::path(aside).filename().string()) == std::string::npos ||
        !fs::exists(fs::symlink_status(dir / aside))) {
      return "deleted the hostile file " + c.keep;
    }
  }
  if (r.status == 0) return "";
  // A refusal: "hermes-sim CMD: error: MESSAGE", or validate's report ("FILE: PATH: MESSAGE").
  const std::size_t at = r.output.find(": error:");
  std::string message = at == std::string::npos ? r.output : r.output.substr(at + 8);
  message.erase(0, message.find_first_not_of(" \n"));
  if (message.empty()) return "an error without a message";
  if (message.find(c.names) == std::string::npos) return "the error does not name " + c.names;
  for (const char* internal : {"std::", "bad_alloc", "json.exception", "basic_string", "what()",
                               "logic_error", "invalid_argument", "out_of_range"}) {
    if (message.find(internal) != std::string::npos) {
      return std::string("an internal name in the error: ") + internal;
    }
  }
  // A function's name where a message starts ("draw_outages: ..."), or a class's ("SspClocks: ").
  static const std::regex function_name(
      R"((^|\n|: )([a-z]+(_[a-z0-9]+)+|[A-Z][a-z]+[A-Z]\w*)(: |::|\())");
  std::smatch m;
  if (std::regex_search(message, m, function_name)) return "an internal name: " + m.str(2);
  return "";
}

// `validate s.json` with `scenario` naming `file`: a case per text of the file, and per special
// file in its place (`kind` labels them).
void named_file_cases(std::vector<Case>& out, const std::string& kind, const std::string& scenario,
                      const std::string& file, const std::vector<Mutant>& texts,
                      const std::vector<std::string>& specials) {
  for (const auto& [label, text] : texts) {
    out.push_back({label, {{"s.json", scenario}, {file, text}}, "validate s.json", file, file});
  }
  for (const std::string& special : specials) {
    out.push_back({kind + " " + special,
                   {{"s.json", scenario}, {file, special}},
                   "validate s.json",
                   file,
                   file});
  }
}

// Trace files: mutations of the shipped trace, hostile cells, whole files, special files.
void trace_cases(std::vector<Case>& out, RandomStream& rng) {
  const std::string trace = source_file("scenarios/traces/spot-evictions.csv");
  Json doc = scenario_doc("scenarios/examples/trace-outages.json");
  doc["trace"]["file"] = "t.csv";
  const std::string scenario = doc.dump(1);
  std::vector<Mutant> texts = byte_mutations("trace", trace, rng, 8, 10);
  for (std::size_t i = 0; i < hostile_cells().size() * 2; ++i) {
    const std::string& cell = hostile_cells()[i % hostile_cells().size()];
    texts.emplace_back("trace cell " + std::to_string(i) + " = " + cell.substr(0, 20),
                       with_cell(trace, pick(rng, 10), pick(rng, 6), cell));
  }
  const std::string header = "node,event,start_s,end_s,speed_factor,notice_s\n";
  for (const std::string& whole : std::vector<std::string>{
           std::string(), header, "\xEF\xBB\xBF" + header + "w2,slowdown,1,2,0.5,\n",
           "node,start_s,end_s,speed_factor\r\nw2,1,2,0.5\r\n", std::string("# only a comment\n"),
           header + "w2,slowdown,1,2,0.5,,extra\n", "node,node,start_s,end_s,speed_factor\n",
           header + std::string(200000, ',') + "\n", std::string("\0\0\0\n", 4),
           header + "w2,meteor,1,2,0.5,\n", header + "w2,slowdown,2,1,0.5,\n",
           header + "w2,eviction,1,2,,1e300\n",
           header + "w2,slowdown,1,2,0.5,\nw2,slowdown,1,2,0.5,\n",
           header + "w2,slowdown,1,2,0.5,\n" + std::string(20000, '\n')}) {
    texts.emplace_back("trace whole " + std::to_string(texts.size()), whole);
  }
  named_file_cases(out, "trace", scenario, "t.csv", texts, kSpecialsAndHuge);
}

// Price lists (the scenario's prices.file) and the scenario's price overrides.
void price_cases(std::vector<Case>& out, RandomStream& rng) {
  const std::string list = source_file("scenarios/profiles/azure-prices.json");
  Json doc = scenario_doc("scenarios/examples/trace-outages.json");
  doc.erase("trace");
  doc["prices"] = {{"file", "p.json"}};
  const std::string scenario = doc.dump(1);
  std::vector<Mutant> texts = byte_mutations("prices", list, rng, 6, 8);
  for (auto& m : value_mutations("prices", Json::parse(list), rng, 40)) {
    texts.push_back(std::move(m));
  }
  named_file_cases(out, "prices", scenario, "p.json", texts, kSpecialsAndHuge);
  // Hostile price overrides in the scenario itself.
  doc["prices"] = {{"overrides", {{"B1ms", {{"spot", 0.01}}}}}};
  for (auto& [label, text] :
       value_mutations_at("scenario", doc,
                          {"/prices/overrides/B1ms/spot", "/prices/overrides/B1ms",
                           "/prices/overrides", "/prices"},
                          rng, 20)) {
    out.push_back({label, {{"s.json", text}}, "validate s.json", "s.json", ""});
  }
}

// Profile catalogs (the scenario's "profiles").
void catalog_cases(std::vector<Case>& out, RandomStream& rng) {
  const std::string catalog = source_file("scenarios/profiles/azure.json");
  Json doc = scenario_doc("scenarios/examples/demo.json");
  doc["profiles"] = "c.json";
  const std::string scenario = doc.dump(1);
  std::vector<Mutant> texts = byte_mutations("catalog", catalog, rng, 6, 6);
  for (auto& m : value_mutations("catalog", Json::parse(catalog), rng, 30)) {
    texts.push_back(std::move(m));
  }
  named_file_cases(out, "catalog", scenario, "c.json", texts, kSpecialsAndHuge);
}

// Hostile values at every key of the sections added since the first corpus: events (slowdowns,
// link faults, crashes), availability models, accounting, outputs, trace.
void section_cases(std::vector<Case>& out, RandomStream& rng) {
  for (const char* rel :
       {"scenarios/examples/ps-failure.json", "scenarios/examples/link-fault.json",
        "scenarios/examples/slowdown.json", "scenarios/examples/churn.json",
        "scenarios/churn/mnist-spot.json", "scenarios/examples/trace-outages.json"}) {
    Json doc = scenario_doc(rel);
    if (doc.contains("trace")) {
      doc["trace"]["file"] =
          std::string(HERMES_SOURCE_DIR) + "/scenarios/traces/spot-evictions.csv";
    }
    doc["accounting"] = "clean";
    std::vector<std::string> at;
    for (const char* section : {"/events", "/availability", "/accounting", "/outputs", "/trace"}) {
      if (doc.contains(Json::json_pointer(section)))
        pointers(doc[Json::json_pointer(section)], section, at);
    }
    for (auto& [label, text] : value_mutations_at(rel, doc, at, rng, 24)) {
      out.push_back({label, {{"s.json", text}}, "validate s.json", "s.json", ""});
    }
  }
}

// `compare`'s summaries: a real summary.csv mutated, hostile cells, whole files, special files;
// as the file, as a run directory's summary.csv, and as --reference.
void compare_cases(std::vector<Case>& out, RandomStream& rng) {
  const std::string summary = source_file("results/reference/sim-mnist-seed1.csv");
  std::vector<Mutant> texts = byte_mutations("summary", summary, rng, 8, 10);
  for (std::size_t i = 0; i < hostile_cells().size() * 2; ++i) {
    const std::string& cell = hostile_cells()[i % hostile_cells().size()];
    texts.emplace_back("summary cell " + std::to_string(i) + " = " + cell.substr(0, 20),
                       with_cell(summary, pick(rng, 8), pick(rng, 60), cell));
  }
  const std::string header = summary.substr(0, summary.find('\n') + 1);
  for (const std::string& whole : std::vector<std::string>{
           std::string(), header, "\xEF\xBB\xBF" + summary, std::string(3000, '\xAA'),
           std::string("run,protocol\n") + std::string(100000, ',') + "\n",
           header + std::string(50000, '\n'), std::string("\0\0\0", 3)}) {
    texts.emplace_back("summary whole " + std::to_string(texts.size()), whole);
  }
  for (std::size_t i = 0; i < texts.size(); ++i) {
    auto& [label, text] = texts[i];
    switch (i % 3) {
      case 0:
        out.push_back({label, {{"sum.csv", text}}, "compare sum.csv", "sum.csv", "sum.csv"});
        break;
      case 1:
        out.push_back({label + " in a run directory",
                       {{"run/summary.csv", text}},
                       "compare run",
                       "summary.csv",
                       "run/summary.csv"});
        break;
      default:
        out.push_back({label + " as --reference",
                       {{"sum.csv", summary}, {"ref.csv", text}},
                       "compare sum.csv --reference ref.csv",
                       "ref.csv",
                       "ref.csv"});
    }
  }
  for (const std::string& special : kSpecials) {
    out.push_back(
        {"summary " + special, {{"sum.csv", special}}, "compare sum.csv", "sum.csv", "sum.csv"});
    out.push_back({"reference " + special,
                   {{"sum.csv", summary}, {"ref.csv", special}},
                   "compare sum.csv --reference ref.csv",
                   "ref.csv",
                   "ref.csv"});
  }
}

// Sweep grids, seed counts and seed lists on the command line, and the file's sweep section.
void sweep_option_cases(std::vector<Case>& out, RandomStream& rng) {
  const std::string sweep = "sweep ../tiny.json --data-dir ../data --out o --dry-run ";
  const std::vector<std::string> grids = {"runs.hermes.alpha=",
                                          "runs.hermes.alpha",
                                          "=1,2",
                                          "runs.hermes.alpha=1:2:0",
                                          "runs.hermes.alpha=1:2:-1",
                                          "runs.hermes.alpha=2:1:1",
                                          "runs.hermes.alpha=0:1e308:1e-308",
                                          "runs.hermes.alpha=nan,1",
                                          "runs.hermes.alpha=1e400",
                                          "runs.hermes.alpha=,,,",
                                          "runs.hermes.alpha=1,1,1",
                                          "runs.hermes.alpha=0:1:1e-7",
                                          "runs.nobody.alpha=1,2",
                                          "runs.hermes.nokey=1,2",
                                          "seed=1,2",
                                          "runs.hermes.alpha=\xFF",
                                          "\xFF=1",
                                          "runs.hermes.alpha=" + nested(1000, "[", "]"),
                                          "runs.hermes.alpha=" + std::string(5000, '1'),
                                          "runs.hermes.alpha=[1,2]",
                                          "runs.hermes.alpha={}",
                                          "runs.hermes.alpha=1:2",
                                          "runs.hermes.alpha=1:2:3:4",
                                          "runs.hermes.alpha=-0,0",
                                          "runs.hermes.alpha=inf:inf:1",
                                          "cluster.workers.0.count=1,100000",
                                          "runs.0.protocol=bsp,hermes,ssp",
                                          "runs.hermes.alpha=1'2",
                                          "name=a/b,c",
                                          "outputs.dir=/,/tmp"};
  for (const auto& g : grids) {
    // A refusal names the option, or the key whose value is wrong (in the point it makes).
    const std::size_t eq = g.find('=');
    // (Bytes that are not UTF-8 are shown escaped.)
    const bool plain = eq != std::string::npos && eq > 0 && g.find('\xFF') > eq;
    const std::string names = plain ? g.substr(0, eq) : "--grid";
    out.push_back({"--grid " + g.substr(0, 30), {}, sweep + "--grid " + q(g), names, ""});
  }
  // Grids of many points, up to far beyond the accepted count.
  const char* const keys[] = {"runs.hermes.alpha",  "runs.hermes.beta",    "training.learning_rate",
                              "runs.hermes.lambda", "training.chunk_size", "training.batch_size"};
  for (int i = 0; i < 12; ++i) {
    std::string grid;
    for (int k = 0; k <= i % 6; ++k) {
      const int values = 10 << (i / 6 * 4);
      grid += " --grid " + q(std::string(keys[k]) + "=1:" + std::to_string(values) + ":1");
    }
    out.push_back({"grid of many points " + std::to_string(i), {}, sweep + grid, "point", ""});
  }
  for (const std::string s : {"0", "-1", "1e3", "100001", "18446744073709551616", "x", "", "1.5",
                              " 2", "0x10", "99999999999999999999999"}) {
    out.push_back({"--seeds " + s, {}, sweep + "--seeds " + q(s), "--seeds", ""});
  }
  for (const std::string& s :
       std::vector<std::string>{"", ",", "1,,2", "-1", "18446744073709551616", "1;2", "x", "1,1",
                                std::string(100000, '1'), "1.0", " 1"}) {
    out.push_back(
        {"--seed-list " + s.substr(0, 20), {}, sweep + "--seed-list " + q(s), "--seed-list", ""});
  }
  // The scenario file's own sweep section.
  const Json tiny = Json::parse(std::string(hermes::testing::kTinySweepScenario));
  std::vector<std::string> at;
  pointers(tiny["sweep"], "/sweep", at);
  for (int i = 0; i < 24; ++i) {
    const std::string& ptr = at[pick(rng, at.size())];
    const std::string& value = hostile_values()[pick(rng, hostile_values().size())];
    out.push_back({"tiny.json " + ptr + "=" + value.substr(0, 20),
                   {{"s.json", with_value_at(tiny, ptr, value)}},
                   "sweep s.json --data-dir ../data --out o --dry-run",
                   "s.json",
                   ""});
  }
}

// A finished sweep's own files made hostile, then resumed (dry run and a real resume) and compared.
void sweep_dir_cases(std::vector<Case>& out) {
  const std::vector<std::string> contents = {"",
                                             "\xAA\x01{[garbage",
                                             "run,protocol\n",
                                             "{\"points\": " + nested(100000, "[", "]") + "}",
                                             kFifo,
                                             kDirectory,
                                             kDevZero,
                                             kLoop};
  for (const std::string file :
       {"sweep.json", "timed_out.json", "summary.csv", "points/0001/summary.csv",
        "points/0001/.hermes-run", ".hermes-sweep"}) {
    for (std::size_t i = 0; i < contents.size(); ++i) {
      const std::string label = "sweep dir " + file + " " + std::to_string(i);
      const std::string resume = "sweep ../tiny.json --data-dir ../data --out sw";
      const std::string args = i % 3 == 0   ? resume + " --dry-run"
                               : i % 3 == 1 ? resume
                                            : "compare sw";
      out.push_back({label,
                     {{"sw/" + file, contents[i]}},
                     args,
                     fs::path(file).filename(),
                     "sw/" + file,
                     true});
    }
  }
}

class HostileFiles : public ::testing::Test {
 protected:
  // The data, the tiny sweep scenario and a finished sweep of it, shared by every case.
  static void SetUpTestSuite() {
    root_ = new data::testing::TempDir();
    sweep::testing::write_blocks_mnist(*root_ / "data");
    std::ofstream(*root_ / "tiny.json") << hermes::testing::kTinySweepScenario;
    sweep_ = hermes::testing::run_command("cd " + root_->str() + " && " + HERMES_BINARY +
                                          " sweep tiny.json --data-dir data --out sw --jobs 2");
  }
  static void TearDownTestSuite() {
    delete root_;
    root_ = nullptr;
  }
  inline static data::testing::TempDir* root_ = nullptr;
  inline static hermes::testing::CommandResult sweep_;
};

TEST_F(HostileFiles, EveryCaseEndsWithTheRightResultOrAClearError) {
  ASSERT_EQ(sweep_.status, 0) << sweep_.output;
  std::vector<Case> cases;
  RandomStream rng(31, 7);
  trace_cases(cases, rng);
  price_cases(cases, rng);
  catalog_cases(cases, rng);
  section_cases(cases, rng);
  compare_cases(cases, rng);
  sweep_option_cases(cases, rng);
  sweep_dir_cases(cases);
  ASSERT_GE(cases.size(), 400u);
  std::size_t refused = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const fs::path dir = fs::path(root_->str()) / ("case-" + std::to_string(i));
    fs::create_directories(dir);
    if (c.sweep) fs::copy(*root_ / "sw", dir / "sw", fs::copy_options::recursive);
    for (const auto& [file, content] : c.files) put(dir / file, content);
    const auto r = hermes::testing::run_command("cd " + dir.string() + " && timeout 60 " +
                                                HERMES_BINARY + " " + c.args);
    EXPECT_EQ(problem(c, r, dir), "") << "case " << i << ": " << c.label << "\n"
                                      << r.output.substr(0, 3000);
    refused += r.status != 0;
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::cout << cases.size() << " cases, " << refused << " refused\n";
  // The corpus is hostile: most of it must be refused (a generator producing only valid inputs
  // would test nothing).
  EXPECT_GT(refused, cases.size() / 2) << refused << " of " << cases.size();
}

}  // namespace
}  // namespace hermes::fuzz
