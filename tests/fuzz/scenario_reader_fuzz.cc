// libFuzzer target for the scenario reader: every input is a scenario file's bytes; any escaping
// exception, a refusal without diagnostics, or a sanitizer report is a finding. Built as
// build-fuzz/scenario_reader_fuzz with clang (cmake -DHERMES_FUZZ=ON, see tests/fuzz/README.md);
// the deterministic corpus test (hostile_corpus_test.cc) runs the same check in the normal suite.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "tests/fuzz/scenario_reader_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string problem = hermes::fuzz::check_reader(text);
  if (!problem.empty()) {
    std::fprintf(stderr, "scenario reader misbehaved: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
