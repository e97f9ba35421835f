// The tiny sweep scenario of the end-to-end sweep tests (tests/sweep/sweep_cli_fixture.h) and the
// hostile-files corpus (tests/fuzz/hostile_files_test.cc): three workers, runs of a few
// iterations, on the synthetic MNIST of synthetic_mnist.h.
#pragma once

namespace hermes::testing {

// Two runs (so two summary rows per point) and a 2 x 2 grid in the file: four points.
inline const char* const kTinySweepScenario = R"({
  "name": "tiny-sweep", "seed": 11,
  "cluster": {"ps": {"profile": "DS3_v2"},
              "workers": [{"profile": "B1ms"}, {"profile": "DS2_v2"}, {"profile": "F4s_v2"}]},
  "training": {"chunk_size": 60, "local_epochs": 1, "batch_size": 16,
               "stop": {"patience": 4, "max_iterations": 12}},
  "runs": [{"name": "bsp", "protocol": "bsp"},
           {"name": "hermes", "protocol": "hermes", "alpha": -0.5}],
  "sweep": {"grid": {"runs.hermes.alpha": [-0.5, -1.0],
                     "runs.hermes.beta": {"from": 0.1, "to": 0.2, "step": 0.1}}}
})";

}  // namespace hermes::testing
