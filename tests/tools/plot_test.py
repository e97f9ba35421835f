#!/usr/bin/python3
"""ctest plot_renders: tools/plot renders every figure of a tiny run directory and tiny sweep
directories (plot_fixtures.py) in each --format, the same bytes twice, and fails clearly on bad
input without writing a figure."""

import os
import unittest

import plot_fixtures as fx  # exits 77 (skip) without matplotlib and numpy

import matplotlib.image  # noqa: E402
import numpy as np  # noqa: E402

from hermes_plot import comparison, style, sweep_figures  # noqa: E402
from hermes_plot import cost_accuracy, sweep_heatmap, sweep_words  # noqa: E402

RUN_FIGURES = ["accuracy_loss", "iteration_times", "chunk_sizes", "credits", "comparison"]
MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "svg": b"<?xml", "pdf": b"%PDF-"}


class PlotRenders(fx.TempDirTest):
    def setUp(self):
        super().setUp()
        self.binary = fx.fake_hermes_sim(os.path.join(self.dir, "bin"), fx.paper_document())

    def assertFigure(self, path, min_height=400):
        self.assertTrue(os.path.isfile(path), path)
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), MAGIC["png"], path)
        self.assertGreater(os.path.getsize(path), 10_000, path)
        pixels = matplotlib.image.imread(path)
        height, width = pixels.shape[:2]
        self.assertGreater(width, 600, path)
        self.assertGreater(height, min_height, path)
        colours = np.unique(pixels.reshape(-1, pixels.shape[2]), axis=0)
        self.assertGreater(len(colours), 50, path + ": nearly a single colour")

    def test_run_directory_gives_every_run_figure(self):
        run = os.path.join(self.dir, "run")
        fx.write_run_dir(run)
        r = fx.plot(run, "--hermes-sim", self.binary)
        self.assertEqual(r.returncode, 0, r.stderr)
        names = [n + ".png" for n in RUN_FIGURES]
        for name in names:
            # At the page's width the four runs' panels of a run figure are one row, 2 in high.
            self.assertFigure(os.path.join(run, "plots", name), min_height=250)
        self.assertEqual(sorted(os.listdir(os.path.join(run, "plots"))), sorted(names))
        for name in names:
            self.assertIn(os.path.join(run, "plots", name), r.stdout)

    def test_figures_in_a_run_directory_are_listed_for_force(self):
        # In a directory hermes-sim wrote (.hermes-run), plots/.hermes-plots lists the figures,
        # so that `hermes-sim run --force` may replace the run with them (owned_dirs.h).
        run = os.path.join(self.dir, "run")
        fx.write_run_dir(run)
        with open(os.path.join(run, ".hermes-run"), "w") as f:
            f.write("hermes-sim run directory\n")
        r = fx.plot(run, "--hermes-sim", self.binary, "--runs", "bsp")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(run, "plots", ".hermes-plots")) as f:
            listed = f.read().splitlines()
        self.assertEqual(listed[0], "hermes-sim figures")
        self.assertEqual(listed[1:], sorted(n + ".png" for n in RUN_FIGURES))
        # A second call adds to the list; --out elsewhere writes none.
        r = fx.plot(run, "--hermes-sim", self.binary, "--format", "svg", "--runs", "bsp")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(run, "plots", ".hermes-plots")) as f:
            self.assertEqual(len(f.read().splitlines()), 1 + 2 * len(RUN_FIGURES))
        out = os.path.join(self.dir, "elsewhere")
        r = fx.plot(run, "--out", out, "--hermes-sim", self.binary, "--runs", "bsp")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, ".hermes-plots")))

    def test_format_out_and_runs_choose_how_where_and_what(self):
        run = os.path.join(self.dir, "run")
        fx.write_run_dir(run)
        out = os.path.join(self.dir, "figs")
        r = fx.plot(run, "--format", "pdf", "--out", out, "--runs", "hermes-1.6-b0.15",
                    "--hermes-sim", self.binary)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(out)), sorted(n + ".pdf" for n in RUN_FIGURES))
        for name in os.listdir(out):
            with open(os.path.join(out, name), "rb") as f:
                self.assertEqual(f.read(5), MAGIC["pdf"], name)
        self.assertFalse(os.path.exists(os.path.join(run, "plots")))
        r = fx.plot(run, "--runs", "nope", "--hermes-sim", self.binary)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no run named nope", r.stderr)
        self.assertIn("bsp, asp", r.stderr)

    def test_a_bad_format_is_refused_before_anything_is_written(self):
        run = os.path.join(self.dir, "run")
        fx.write_run_dir(run)
        r = fx.plot(run, "--format", "jpg", "--hermes-sim", self.binary)
        self.assertEqual(r.returncode, 1)
        self.assertIn("--format: 'jpg' is not one of: png, svg, pdf", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(run, "plots")))

    def test_svg_and_pdf_are_the_same_bytes_every_time(self):
        for fmt in ("svg", "pdf"):
            files = []
            for attempt in range(2):
                doc = fx.paper_document()
                doc["configurations"] = doc["configurations"][:2]
                path = style.save(comparison.draw(doc),
                                  os.path.join(self.dir, str(attempt)), "comparison", fmt)
                self.assertTrue(path.endswith("comparison." + fmt), path)
                with open(path, "rb") as f:
                    files.append(f.read())
            self.assertTrue(files[0].startswith(MAGIC[fmt]), fmt)
            self.assertEqual(files[0], files[1], fmt + ": the bytes differ between two saves")
            self.assertEqual(os.listdir(os.path.join(self.dir, "0")), ["comparison." + fmt])
            for attempt in range(2):
                os.remove(os.path.join(self.dir, str(attempt), "comparison." + fmt))

    def test_two_grid_keys_give_a_heatmap_one_gives_lines(self):
        sweep = os.path.join(self.dir, "sweep2")
        fx.write_sweep_dir(sweep, [("runs.hermes.alpha", ["-1.6", "-1.3", "-0.9"]),
                                   ("runs.hermes.beta", ["0.05", "0.1", "0.15"])])
        r = fx.plot(sweep)  # a sweep needs no hermes-sim
        self.assertEqual(r.returncode, 0, r.stderr)
        # Page-wide, a 3 x 3 heatmap's panels go side by side: 7.16 x 2.3 in.
        self.assertFigure(os.path.join(sweep, "plots", "sweep_hermes.png"), min_height=300)
        # The bsp run is not changed by runs.hermes.* keys: no figure, a note.
        self.assertFalse(os.path.exists(os.path.join(sweep, "plots", "sweep_bsp.png")))
        self.assertIn("run bsp: the grid", r.stderr)
        # Only bsp, which the grid does not change: no sweep_bsp, still no error (a valid sweep
        # never is one): its single point in cost_accuracy, and the note why.
        out = os.path.join(self.dir, "bsp-only")
        r = fx.plot(sweep, "--runs", "bsp", "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.listdir(out), ["cost_accuracy.png"])
        self.assertIn("run bsp: the grid", r.stderr)
        sweep1 = os.path.join(self.dir, "sweep1")
        fx.write_sweep_dir(sweep1, [("training.stop.max_iterations", ["1", "2", "3", "5"])],
                           seeds=3)
        r = fx.plot(sweep1, "--out", os.path.join(self.dir, "p1"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFigure(os.path.join(self.dir, "p1", "sweep_hermes.png"), min_height=300)

    def test_a_sweep_with_costs_gives_accuracy_against_cost_and_time(self):
        sweep = os.path.join(self.dir, "sweep")
        fx.write_sweep_dir(sweep, [("runs.hermes.alpha", ["-1.6", "-1.3", "-0.9"])])
        r = fx.plot(sweep)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFigure(os.path.join(sweep, "plots", "cost_accuracy.png"))
        self.assertEqual(sorted(os.listdir(os.path.join(sweep, "plots"))),
                         ["cost_accuracy.png", "sweep_hermes.png"])
        # A sweep from before costs: the other figures, and a note instead of this one.
        old = os.path.join(self.dir, "old")
        fx.write_sweep_dir(old, [("runs.hermes.alpha", ["-1.6", "-1.3"])], cost=False)
        r = fx.plot(old)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.listdir(os.path.join(old, "plots")), ["sweep_hermes.png"])
        self.assertIn("no cost_usd column", r.stderr)

    def test_the_cost_figure_puts_each_cell_at_its_seeds_mean(self):
        sweep = os.path.join(self.dir, "sweep")
        fx.write_sweep_dir(sweep, [("runs.hermes.alpha", ["-1", "1"])], seeds=2)
        sw = sweep_figures.read_sweep(sweep)
        table = sw.table
        fig_path = cost_accuracy.cost_accuracy(sw, ["bsp", "hermes"], self.dir, "svg")
        self.assertTrue(fig_path.endswith("cost_accuracy.svg"))
        by_cell = sw.cells("hermes", sw.axes("hermes"))
        # Cell alpha=1: x = 1, times 700 + 10 seed: mean 715 s, cost at 1.5 $/h.
        rows = by_cell[(1.0,)].rows
        costs = [table.number(i, "cost_usd") for i in rows]
        self.assertAlmostEqual(sum(costs) / len(costs), 715 / 3600 * fx.CLUSTER_USD_PER_HOUR, 6)

    def test_bad_input_fails_with_status_1_naming_the_file(self):
        r = fx.plot(os.path.join(self.dir, "missing"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("no such directory", r.stderr)
        run = os.path.join(self.dir, "run")
        fx.write_run_dir(run)
        os.remove(os.path.join(run, "workers.csv"))
        r = fx.plot(run, "--hermes-sim", self.binary)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no workers.csv", r.stderr)
        # A header and no rows is what hermes-sim writes when no worker finished an iteration: a
        # valid run directory, whose figures say there is nothing to draw.
        fx.write_csv(os.path.join(run, "workers.csv"), fx.WORKERS, [])
        r = fx.plot(run, "--hermes-sim", self.binary, "--out", os.path.join(self.dir, "empty"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("iteration_times: nothing to draw: bsp (ok, stopped by patience), ", r.stderr)
        self.assertIn("no iteration in workers.csv", r.stderr)
        self.assertTrue(os.path.isfile(os.path.join(self.dir, "empty", "iteration_times.png")))
        with open(os.path.join(run, "global.csv"), "w"):
            pass
        r = fx.plot(run, "--hermes-sim", self.binary)
        self.assertEqual(r.returncode, 1)
        self.assertIn("global.csv is empty", r.stderr)
        fx.write_csv(os.path.join(run, "global.csv"), ["run", "time_s", "loss"], [["bsp", 1, 2]])
        r = fx.plot(run, "--hermes-sim", self.binary)
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"global.csv: no column iteration, worker, accuracy")
        fx.write_csv(os.path.join(run, "global.csv"), fx.GLOBAL,
                     [["bsp", "soon", 1, "all", 2, 0.5]])
        r = fx.plot(run, "--hermes-sim", self.binary)
        self.assertEqual(r.returncode, 1)
        self.assertIn("global.csv line 2: column time_s: 'soon' is not a number", r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertFalse(os.path.exists(os.path.join(run, "plots")))  # nothing drawn

    def test_hostile_files_fail_with_status_1_never_a_traceback(self):
        """Issue 31: binary CSVs, JSON nested beyond any reader, a FIFO nobody writes."""
        cases = [
            ("summary.csv", b"\xaa\x01\xff" * 1000,
             "summary.csv: not a CSV file of UTF-8 text (byte 0: invalid start byte)"),
            ("global.csv", b"run,time_s\n\xff\xfe\n", "global.csv: not a CSV file of UTF-8 text"),
            ("scenario.json", b"[" * 100000 + b"]" * 100000,
             "scenario.json: nested too deeply to read"),
            ("summary.csv", None, "summary.csv is a FIFO (named pipe), not a regular file"),
            ("global.csv", "dir", "global.csv is a directory, not a regular file"),
        ]
        for i, (name, content, says) in enumerate(cases):
            with self.subTest(name=name, says=says):
                run = os.path.join(self.dir, "run%d" % i)
                fx.write_run_dir(run)
                path = os.path.join(run, name)
                os.remove(path)
                if content is None:
                    os.mkfifo(path)
                elif content == "dir":
                    os.mkdir(path)
                else:
                    with open(path, "wb") as f:
                        f.write(content)
                r = fx.plot(run, "--hermes-sim", self.binary, timeout=60)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn(says, r.stderr)
                self.assertNotIn("Traceback", r.stderr)
                self.assertFalse(os.path.exists(os.path.join(run, "plots")))


class SweepCells(fx.TempDirTest):
    def test_the_seeds_of_a_grid_point_are_averaged(self):
        path = os.path.join(self.dir, "s")
        fx.write_sweep_dir(path, [("runs.hermes.alpha", ["-1.6", "-1.60", "-0.9"]),
                                  ("runs.bsp.seed_only", ["1"])], seeds=3)
        sw = sweep_figures.read_sweep(path)
        # The grid keys are the columns between point and run, not the run parameter columns.
        self.assertEqual(sw.grid, ["runs.hermes.alpha", "runs.bsp.seed_only"])
        varying = sw.axes("hermes")
        self.assertEqual(varying, ["runs.hermes.alpha"])
        by_cell = sw.cells("hermes", varying)
        self.assertEqual(sorted(len(c.rows) for c in by_cell.values()), [3, 6])  # -1.6 == -1.60
        self.assertEqual(sw.axes("bsp"), [])
        path2 = os.path.join(self.dir, "s2")
        fx.write_sweep_dir(path2, [("runs.hermes.alpha", ["-1", "0.5"]),
                                   ("runs.hermes.beta", ["1", "2"])], seeds=3)
        sw = sweep_figures.read_sweep(path2)
        table = sw.table
        varying = sw.axes("hermes")
        by_cell = sw.cells("hermes", varying)
        xs, ys, cells_xy = sweep_heatmap.plane(sw, by_cell, varying, *varying)
        values, labels = sweep_words._units(table, [i for c in by_cell.values() for i in c.rows])
        means = sweep_heatmap._plane_means(sw, cells_xy, xs, ys, values)
        self.assertEqual((xs, ys), ([-1.0, 0.5], [1.0, 2.0]))
        self.assertEqual(labels, ("simulated time (min)", "global test accuracy (%)",
                                  "API calls (millions)"))  # up to 1430 s: minutes
        x = 0.5 + 2 * 1.0  # alpha 0.5, beta 1: column 1, row 0
        self.assertAlmostEqual(means[0][0][1], (500 + 200 * x + 10 * 2) / 60)  # mean seed: 2
        self.assertAlmostEqual(means[2][0][1], (1e6 + 1e5 * x + 2) / 1e6)


if __name__ == "__main__":
    unittest.main(verbosity=2)
