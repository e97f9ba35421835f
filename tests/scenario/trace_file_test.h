// The fixture of the "trace" file tests (slowdown and outage rows): the minimal scenario (w0, w1:
// B1ms, w2: DS2_v2) reading `text` as its trace file.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tests/scenario/scenario_test_util.h"
#include "tests/support/scratch_dir.h"

namespace hermes::scenario::testing {

class TraceFileTest : public hermes::testing::ScratchDirTest {
 protected:
  // The minimal scenario with `text` as its trace file, `patch` (a JSON merge patch) applied.
  std::optional<Scenario> check(const std::string& text, Diagnostics& diags,
                                const char* patch = nullptr) {
    put("t.csv", text);
    Json doc = minimal_doc();
    doc["trace"] = {{"file", path("t.csv")}};
    if (patch != nullptr) doc.merge_patch(Json::parse(patch));
    diags = Diagnostics();
    return check_doc(doc, diags);
  }
  // Every message, the file name cut off ("line N: ..."), in the order reported; each at
  // /trace/file.
  std::vector<std::string> messages(const std::string& text) {
    Diagnostics diags;
    EXPECT_FALSE(check(text, diags));
    std::vector<std::string> out;
    for (const auto& d : diags.items()) {
      EXPECT_EQ(d.json_path, "/trace/file");
      EXPECT_EQ(d.message.rfind(path("t.csv") + ": ", 0), 0u) << d.message;
      out.push_back(d.message.substr(path("t.csv").size() + 2));
    }
    return out;
  }
};

}  // namespace hermes::scenario::testing
