#!/usr/bin/python3
"""ctest plot_renders: tools/plot renders every figure from a tiny run directory and tiny sweep
directories written here (synthetic CSVs in the formats of README.md, "Outputs of a run", not real
runs), and fails clearly on bad input. Exits 77 (ctest SKIP_RETURN_CODE) without Debian's
matplotlib / numpy."""

import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

try:
    import matplotlib.image
    import numpy as np
except ImportError as e:
    print("SKIP: %s (install python3-matplotlib and python3-numpy)" % e)
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOT = os.path.join(ROOT, "tools", "plot")
sys.path.insert(0, os.path.join(ROOT, "tools"))

from hermes_plot import comparison, data, sweep_figures  # noqa: E402

SUMMARY = ["run", "protocol", "params", "seed", "status", "stop_reason", "iterations",
           "local_iterations", "sim_time_s", "wi_avg", "accuracy", "loss", "api_calls", "bytes",
           "major_updates", "speedup_vs_bsp"]
WORKERS = ["run", "start_s", "end_s", "worker", "profile", "local_iteration", "chunk_size",
           "duration_s", "local_loss", "z_score", "threshold", "update", "credits_left"]
HERMES_PARAMS = "alpha=-1.600000;beta=0.150000;lambda=5;variant=reference;window=10"

# (run, protocol, params, speedup_vs_bsp, base iteration time, sim time, accuracy, api calls)
RUNS = [
    ("bsp", "bsp", "", "1.0000", 7.3, 6000.0, 0.978, 18_000_000),
    ("asp", "asp", "", "", 7.3, 3300.0, 0.905, 24_000_000),
    ("hermes-1.6-b0.15", "hermes", HERMES_PARAMS, "12.5000", 7.3, 480.0, 0.976, 11_000_000),
    ("hermes-x", "hermes", "alpha=-2;beta=0.5;lambda=5;variant=paper;window=10", "", 7.3, 900.0,
     0.95, 9_000_000),
]
PROFILES = [("w0", "B1ms"), ("w1", "B1ms"), ("w2", "DS2_v2"), ("w3", "F4s_v2")]
SPEED = {"B1ms": 1.6, "DS2_v2": 1.0, "F4s_v2": 0.8}


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def write_run_dir(path):
    """A run directory of four runs of four workers (two B-series), 30 iterations each."""
    os.makedirs(path)
    with open(os.path.join(path, "scenario.json"), "w") as f:
        json.dump({"name": "tiny", "dataset": {"name": "mnist"}}, f)
    summary, evals, workers = [], [], []
    for run, protocol, params, speedup, base, t_end, acc, api in RUNS:
        summary.append([run, protocol, params, 1, "ok", "patience", 100, 120, "%.6f" % t_end,
                        1.0, acc, 0.08, api, 1e9, 100, speedup])
        for k in range(40):  # global evaluations: accuracy up, loss down
            t = t_end * (k + 1) / 40
            a = acc - (acc - 0.1) * math.exp(-k / 6.0)
            evals.append([run, "%.9f" % t, k + 1, "w%d" % (k % 4), "%.6f" % (2.3 * (1 - a) + 0.05),
                          "%.6f" % a])
        hermes = protocol == "hermes"
        for w, profile in PROFILES:
            k = int(w[1:])
            t, chunk, credits = 0.0, 2500, 30.0 - 8 * k
            for i in range(1, 31):
                duration = base * SPEED[profile] * chunk / 2500 * (1 + 0.05 * math.sin(i + k))
                if hermes and profile != "DS2_v2":  # dynamic allocation pulls towards the median
                    chunk = int(chunk + (2500 / SPEED[profile] - chunk) * 0.3)
                credits = max(0.0, credits - 1.7) if profile == "B1ms" else None
                workers.append([run, "%.9f" % t, "%.9f" % (t + duration), w, profile, i, chunk,
                                "%.6f" % duration, "0.3", "", "", "major" if i % 3 == 0 else
                                "minor" if hermes else "push",
                                "" if credits is None else "%.4f" % credits])
                t += duration + 0.5
    write_csv(os.path.join(path, "summary.csv"), SUMMARY, summary)
    write_csv(os.path.join(path, "global.csv"),
              ["run", "time_s", "iteration", "worker", "loss", "accuracy"], evals)
    write_csv(os.path.join(path, "workers.csv"), WORKERS, workers)


def write_sweep_dir(path, grid, seeds=2):
    """A sweep directory over `grid` ([(key, [values])]) with `seeds` seeds per point, a hermes
    run (which the grid changes) and a bsp run (which it does not)."""
    os.makedirs(os.path.join(path, "points"))
    with open(os.path.join(path, "sweep.json"), "w") as f:
        json.dump({"grid": {k: v for k, v in grid}, "seeds": seeds}, f)
    keys = [k for k, _ in grid]
    points = [[]]
    for _, values in grid:
        points = [p + [v] for p in points for v in values]
    rows, n = [], 0
    for p in points:
        for seed in range(1, seeds + 1):
            os.makedirs(os.path.join(path, "points", "%04d" % n))
            x = sum(float(v) * (i + 1) for i, v in enumerate(p))
            for run, protocol in (("bsp", "bsp"), ("hermes", "hermes")):
                t = 6000.0 if run == "bsp" else 500 + 200 * x + 10 * seed
                rows.append(["%04d" % n] + p + [
                    run, protocol, "", seed, "ok", "patience", 100, 200, "%.6f" % t, 1.0,
                    "%.6f" % (0.97 - 0.01 * x / (1 + abs(x))), 0.1,
                    int(1e6 + 1e5 * x + seed), 1e9, 100, ""])
            n += 1
    write_csv(os.path.join(path, "summary.csv"), ["point"] + keys + SUMMARY, rows)


def plot(*args):
    return subprocess.run([PLOT] + list(args), capture_output=True, text=True, timeout=300)


class PlotRenders(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="plot_test-")
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def assertFigure(self, path):
        self.assertTrue(os.path.isfile(path), path)
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", path)
        self.assertGreater(os.path.getsize(path), 10_000, path)
        pixels = matplotlib.image.imread(path)
        height, width = pixels.shape[:2]
        self.assertGreater(width, 600, path)
        self.assertGreater(height, 400, path)
        colours = np.unique(pixels.reshape(-1, pixels.shape[2]), axis=0)
        self.assertGreater(len(colours), 50, path + ": nearly a single colour")

    def test_run_directory_gives_every_run_figure(self):
        run = os.path.join(self.dir, "run")
        write_run_dir(run)
        r = plot(run)
        self.assertEqual(r.returncode, 0, r.stderr)
        names = ["accuracy_loss.png", "iteration_times.png", "chunk_sizes.png", "credits.png",
                 "comparison.png"]
        for name in names:
            self.assertFigure(os.path.join(run, "plots", name))
        self.assertEqual(sorted(os.listdir(os.path.join(run, "plots"))), sorted(names))
        for name in names:
            self.assertIn(os.path.join(run, "plots", name), r.stdout)

    def test_out_and_runs_choose_where_and_what(self):
        run = os.path.join(self.dir, "run")
        write_run_dir(run)
        out = os.path.join(self.dir, "figs")
        r = plot(run, "--out", out, "--runs", "hermes-1.6-b0.15")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFigure(os.path.join(out, "iteration_times.png"))
        r = plot(run, "--runs", "nope")
        self.assertEqual(r.returncode, 1)
        self.assertIn("no run named nope", r.stderr)
        self.assertIn("bsp, asp", r.stderr)

    def test_two_grid_keys_give_a_heatmap_one_gives_lines(self):
        sweep = os.path.join(self.dir, "sweep2")
        write_sweep_dir(sweep, [("runs.hermes.alpha", ["-1.6", "-1.3", "-0.9"]),
                                ("runs.hermes.beta", ["0.05", "0.1", "0.15"])])
        r = plot(sweep)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFigure(os.path.join(sweep, "plots", "sweep_hermes.png"))
        # The bsp run is not changed by runs.hermes.* keys: no figure, a note.
        self.assertFalse(os.path.exists(os.path.join(sweep, "plots", "sweep_bsp.png")))
        self.assertIn("run bsp: the grid", r.stderr)
        r = plot(sweep, "--runs", "bsp")
        self.assertEqual(r.returncode, 1)  # nothing to draw: the grid does not change bsp
        self.assertIn("nothing to draw", r.stderr)
        sweep1 = os.path.join(self.dir, "sweep1")
        write_sweep_dir(sweep1, [("runs.hermes.alpha", ["-1.6", "-1.3", "-0.9", "-0.5"])],
                        seeds=3)
        r = plot(sweep1, "--out", os.path.join(self.dir, "p1"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFigure(os.path.join(self.dir, "p1", "sweep_hermes.png"))

    def test_bad_input_fails_with_status_1_naming_the_file(self):
        r = plot(os.path.join(self.dir, "missing"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("no such directory", r.stderr)
        run = os.path.join(self.dir, "run")
        write_run_dir(run)
        os.remove(os.path.join(run, "workers.csv"))
        r = plot(run)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no workers.csv", r.stderr)
        write_csv(os.path.join(run, "workers.csv"), WORKERS, [])
        r = plot(run)
        self.assertEqual(r.returncode, 1)
        self.assertIn("workers.csv has a header but no rows", r.stderr)
        with open(os.path.join(run, "global.csv"), "w"):
            pass
        r = plot(run)
        self.assertEqual(r.returncode, 1)
        self.assertIn("global.csv is empty", r.stderr)
        write_csv(os.path.join(run, "global.csv"), ["run", "time_s", "loss"], [["bsp", 1, 2]])
        r = plot(run)
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"global.csv: no column iteration, worker, accuracy")
        write_csv(os.path.join(run, "global.csv"),
                  ["run", "time_s", "iteration", "worker", "loss", "accuracy"],
                  [["bsp", "soon", 1, "all", 2, 0.5]])
        r = plot(run)
        self.assertEqual(r.returncode, 1)
        self.assertIn("global.csv line 2: column time_s: 'soon' is not a number", r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertFalse(os.path.exists(os.path.join(run, "plots", "accuracy_loss.png")))
        write_run_dir(os.path.join(self.dir, "run2"))
        r = plot(os.path.join(self.dir, "run2"), "--reference",
                 os.path.join(self.dir, "run2", "summary.csv"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("summary.csv: no column framework", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "run2", "plots")))  # nothing drawn


class Joins(unittest.TestCase):
    def reference(self):
        return comparison.read_reference(
            os.path.join(ROOT, "results", "reference", "paper-mnist.csv"))

    def test_configurations_match_reference_rows_like_hermes_sim_compare(self):
        ref = self.reference()
        rows = [
            {"run": "bsp", "protocol": "bsp", "params": "", "status": "ok", "sim_time_s": 6000.0,
             "speedup_vs_bsp": None},
            {"run": "h", "protocol": "hermes", "params": "beta=.150;alpha=-1.60;window=10",
             "status": "ok", "sim_time_s": 500.0, "speedup_vs_bsp": None},
            {"run": "h2", "protocol": "hermes", "params": "alpha=-1.6;beta=0.15;window=10",
             "status": "ok", "sim_time_s": 700.0, "speedup_vs_bsp": None},
            {"run": "h13", "protocol": "hermes", "params": "alpha=-1.3;beta=0.1",
             "status": "ok", "sim_time_s": 600.0, "speedup_vs_bsp": 9.0},
            {"run": "bad", "protocol": "asp", "params": "", "status": "diverged"},
        ]
        configs = comparison.build_configs(rows, ref)
        label = {tuple(r["run"] for r in c.rows): ref[c.ref]["framework"] if c.ref is not None
                 else None for c in configs}
        # The most specific row wins; equal numbers however written are one configuration.
        self.assertEqual(label, {("bsp",): "BSP", ("h", "h2"): "Hermes (alpha=-1.6, beta=0.15)",
                                 ("h13",): "Hermes (alpha=-1.3)"})
        speedup = {c.rows[0]["run"]: c.speedup for c in configs}
        self.assertAlmostEqual(speedup["h"][0], 6000.0 / 600.0)  # mean BSP time / mean time
        self.assertAlmostEqual(speedup["h"][1], 6000.0 / 700.0)
        self.assertEqual(speedup["h13"], (9.0, 9.0, 9.0))  # summary.csv's own value

    def test_the_most_specific_reference_row_wins_then_the_first(self):
        def ref(label, params):
            return {"framework": label, "protocol": "hermes", "params": data.parse_params(params)}
        reference = [ref("A", "alpha=-1.6"), ref("AB", "beta=0.15;alpha=-1.6"),
                     ref("A again", "alpha=-1.6"), ref("C", "alpha=-1.3")]
        rows = [{"run": run, "protocol": "hermes", "params": params, "status": "ok",
                 "sim_time_s": 1.0, "speedup_vs_bsp": None}
                for run, params in (("ab", "alpha=-1.6;beta=0.15;window=10"),
                                    ("a", "alpha=-1.6;beta=0.1"), ("x", "alpha=-2"))]
        matched = {c.rows[0]["run"]: None if c.ref is None else reference[c.ref]["framework"]
                   for c in comparison.build_configs(rows, reference)}
        self.assertEqual(matched, {"ab": "AB", "a": "A", "x": None})

    def test_sweep_cells_average_the_seeds_of_a_grid_point(self):
        sweep = tempfile.TemporaryDirectory(prefix="plot_test-")
        self.addCleanup(sweep.cleanup)
        path = os.path.join(sweep.name, "s")
        write_sweep_dir(path, [("runs.hermes.alpha", ["-1.6", "-1.60", "-0.9"]),
                               ("runs.bsp.seed_only", ["1"])], seeds=3)
        table, grid = sweep_figures.read_sweep(path)
        self.assertEqual(grid, ["runs.hermes.alpha", "runs.bsp.seed_only"])
        by_cell, varying = sweep_figures.cells(table, grid, "hermes")
        self.assertEqual(varying, ["runs.hermes.alpha"])
        self.assertEqual(sorted(len(v) for v in by_cell.values()), [3, 6])  # -1.6 == -1.60
        _, varying = sweep_figures.cells(table, grid, "bsp")
        self.assertEqual(varying, [])
        # A heatmap cell is the mean of its seeds: write_sweep_dir gives time 500 + 200 x + 10 seed
        # (x = alpha + 2 beta), API calls 1e6 + 1e5 x + seed.
        path2 = os.path.join(sweep.name, "s2")
        write_sweep_dir(path2, [("runs.hermes.alpha", ["-1", "0.5"]),
                                ("runs.hermes.beta", ["1", "2"])], seeds=3)
        table, grid = sweep_figures.read_sweep(path2)
        by_cell, varying = sweep_figures.cells(table, grid, "hermes")
        xs, ys, _, means, labels = sweep_figures.plane(table, grid, by_cell, *varying)
        self.assertEqual((xs, ys), ([-1.0, 0.5], [1.0, 2.0]))
        self.assertEqual(labels, ("simulated time (min)", "global test accuracy (%)",
                                  "API calls (millions)"))  # up to 1430 s: minutes
        x = 0.5 + 2 * 1.0  # alpha 0.5, beta 1: column 1, row 0
        self.assertAlmostEqual(means[0][0][1], (500 + 200 * x + 10 * 2) / 60)  # mean seed: 2
        self.assertAlmostEqual(means[2][0][1], (1e6 + 1e5 * x + 2) / 1e6)
        self.assertEqual(data.parse_params(" b=+5 ; a=1e-1;c=true"), {"a": 0.1, "b": 5.0,
                                                                     "c": "true"})


if __name__ == "__main__":
    unittest.main(verbosity=2)
