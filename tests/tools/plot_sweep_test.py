#!/usr/bin/python3
"""ctest plot_sweep: the sweep figures (sweep_<run> heatmaps and line plots, cost_accuracy) say
what became of every grid point: a cell whose seeds all diverged says `diverged`, one whose seeds
partly diverged says `1/3 diverged` and averages the ok seeds only, a cap says `capped`, a grid
point without rows says `not run`; in every heatmap panel the bright end of the colour bar is the
better one, on top, and the bar says which way is better; at a column's width the panels are
stacked; cost_accuracy draws the diverged runs and keeps its labels apart. Every shape comes out
of hermes_plot.style_check clean at 3.5, 5 and 7.16 in."""

import csv
import json
import os
import unittest

import numpy as np

import plot_fixtures as fx  # exits 77 (skip) without matplotlib and numpy

from hermes_plot import cli, style, style_check, sweep_figures  # noqa: E402
from hermes_plot import run_endings, sweep_heatmap, sweep_words  # noqa: E402
from hermes_plot.data import PlotError  # noqa: E402
from hermes_plot.style import plt  # noqa: E402


def edit_summary(path, change):
    """Rewrites path/summary.csv, `change(row)` editing each row (a dict) in place."""
    name = os.path.join(path, "summary.csv")
    with open(name, newline="") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0])
    for row in rows:
        change(row)
    fx.write_csv(name, header, [[row[c] for c in header] for row in rows])


def diverge(row):
    row.update(status="diverged", stop_reason="diverged", accuracy="0.098")


def mixed_sweep(path, seeds=3):
    """A 3 x 3 sweep of run hermes (alpha x beta) and an unchanged bsp: at alpha -1, beta 0.15
    every seed diverges; at alpha -1.3, beta 0.1 seed 2 of 3 does; at alpha -1.6, beta 0.05 a
    cap stops every seed, at alpha -1.3, beta 0.15 seed 1 only."""
    fx.write_sweep_dir(path, [("runs.hermes.alpha", ["-1.6", "-1.3", "-1.0"]),
                              ("runs.hermes.beta", ["0.05", "0.1", "0.15"])], seeds=seeds)

    def change(row):
        if row["run"] != "hermes":
            return
        cell = (row["runs.hermes.alpha"], row["runs.hermes.beta"])
        if cell == ("-1.0", "0.15") or (cell == ("-1.3", "0.1") and row["seed"] == "2"):
            diverge(row)
        if cell == ("-1.6", "0.05") or (cell == ("-1.3", "0.15") and row["seed"] == "1"):
            row["stop_reason"] = "max_iterations"
    edit_summary(path, change)


class Figures:
    """Replaces style.save while active: keeps each figure open, by name, for the test to read
    (closed on exit)."""

    def __enter__(self):
        self.figures, self._save = {}, style.save
        style.save = lambda fig, out_dir, name, fmt: self.figures.setdefault(name, fig) and name
        return self

    def __exit__(self, *exc):
        style.save = self._save
        for fig in self.figures.values():
            plt.close(fig)
        return False


def texts(fig):
    """Every text drawn, its lines joined by a space."""
    fig.canvas.draw()
    return [" ".join(t.get_text().split()) for t in fig.findobj(plt.Text)
            if t.get_visible() and t.get_text().strip()]


def note_lines(fig):
    """Every line of every text drawn (the notes: an item a line)."""
    return [line for t in fig.findobj(plt.Text) if t.get_visible()
            for line in t.get_text().split("\n")]


def panels(fig):
    """The axes of the figure's panels (not its colour bars, legend or note strips)."""
    return [ax for ax in fig.axes if ax.get_title() or ax.get_title(loc="right")]


def draw(path, width, runs=None):
    """The figures of sweep `path` at `width` inches, by name (inside a Figures block)."""
    style.set_width(width)
    sweep = sweep_figures.read_sweep(path)
    notes = []
    sweep_figures.sweep_figures(path, "unused", notes, runs, "png")
    return sweep, notes


class Heatmap(fx.TempDirTest):
    def setUp(self):
        super().setUp()
        self.sweep = os.path.join(self.dir, "sweep")
        mixed_sweep(self.sweep)

    def test_a_diverged_cell_says_so_and_a_partly_diverged_one_averages_only_its_ok_seeds(self):
        with Figures() as f:
            sweep, _ = draw(self.sweep, 7.16)
            words = texts(f.figures["sweep_hermes"])
            notes = note_lines(f.figures["sweep_hermes"])
        # Time 500 + 200 x + 10 seed, x = alpha + 2 beta, to 3 digits.
        self.assertEqual(words.count("diverged"), 3)  # every seed of (-1, 0.15), in 3 panels
        self.assertIn("300 1/3 diverged", words)  # (-1.3, 0.1): the mean of seeds 1 and 3
        self.assertIn("97.52 1/3 diverged", words)
        self.assertIn("220 capped", words)  # (-1.6, 0.05): every seed capped
        self.assertIn("320 1/3 capped", words)
        self.assertNotIn("n/a", words)
        self.assertIn("grey, hatched: every seed of the grid point diverged, no value", notes)
        self.assertIn("k/n diverged: k of the grid point's n seeds diverged, the value is the "
                      "mean of the others", " ".join(notes))
        self.assertIn("3 seeds per grid point, the mean of those ok", " ".join(words))
        # The mean of the ok seeds of (-1.3, 0.1), x = -1.3 + 0.2 = -1.1: times 500 + 200 x
        # + 10 seed for seeds 1 and 3.
        keys = sweep.axes("hermes")
        by_cell = sweep.cells("hermes", keys)
        xs, ys, cells_xy = sweep_heatmap.plane(sweep, by_cell, keys, *keys)
        values, _ = sweep_words._units(sweep.table, [i for c in by_cell.values()
                                                     for i in c.rows])
        means = sweep_heatmap._plane_means(sweep, cells_xy, xs, ys, values)
        self.assertAlmostEqual(means[0][1][1], 500 + 200 * -1.1 + 20)
        self.assertEqual(by_cell[(-1.3, 0.1)].failed, {"diverged": 1})
        self.assertEqual(len(by_cell[(-1.3, 0.1)].rows), 2)
        self.assertEqual((xs, ys), ([-1.6, -1.3, -1.0], [0.05, 0.1, 0.15]))

    def test_a_value_whose_every_seed_diverged_still_gets_its_column(self):
        def change(row):
            if row["run"] == "hermes" and row["runs.hermes.alpha"] == "-1.0":
                diverge(row)
        edit_summary(self.sweep, change)
        sweep = sweep_figures.read_sweep(self.sweep)
        # alpha still varies the run, though no seed at alpha -1 is ok.
        self.assertEqual(sweep.axes("hermes"), ["runs.hermes.alpha", "runs.hermes.beta"])
        with Figures() as f:
            draw(self.sweep, 7.16)
            words = texts(f.figures["sweep_hermes"])
        self.assertEqual(words.count("diverged"), 3 * 3)  # a column, in each of the 3 panels

    def test_a_grid_point_without_rows_says_not_run(self):
        name = os.path.join(self.sweep, "summary.csv")
        with open(name) as f:
            lines = f.readlines()
        with open(name, "w") as f:
            f.writelines(line for line in lines if not line.split(",")[1:3] == ["-1.6", "0.1"])
        with Figures() as f:
            draw(self.sweep, 7.16)
            words = texts(f.figures["sweep_hermes"])
            notes = note_lines(f.figures["sweep_hermes"])
        self.assertEqual(words.count("not run"), 3)
        self.assertTrue(any(n.startswith("not run: no row in summary.csv") for n in notes))

    def test_bright_is_better_in_every_panel_and_each_colour_bar_says_so(self):
        with Figures() as f:
            draw(self.sweep, 7.16)
            fig = f.figures["sweep_hermes"]
            fig.canvas.draw()
            bars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
            self.assertEqual(len(bars), 3)
            for bar, better in zip(bars, ("shorter", "higher", "fewer")):
                self.assertEqual(bar.get_ylabel(), better + " is better")
                image = bar._colorbar.mappable
                bottom, top = bar.get_ylim()
                lum = [sweep_heatmap._luminance(image.cmap(image.norm(v))) for v in (bottom, top)]
                self.assertGreater(lum[1], lum[0], "%s: the bright end is not on top" % better)
                # ... and the bright end is the better value.
                self.assertEqual(top < bottom, better != "higher")

    def test_the_panels_are_stacked_at_a_columns_width_and_side_by_side_on_the_page(self):
        for width, stacked in ((3.5, True), (5.0, True), (7.16, False)):
            with Figures() as f:
                draw(self.sweep, width)
                fig = f.figures["sweep_hermes"]
                fig.canvas.draw()
                panels = [ax for ax in fig.axes if ax.get_title() and ax.images]
                self.assertEqual(len(panels), 3)
                lefts = {round(ax.get_position().x0, 3) for ax in panels}
                bottoms = {round(ax.get_position().y0, 3) for ax in panels}
                self.assertEqual((len(lefts), len(bottoms)), (1, 3) if stacked else (3, 1),
                                 "at %g in" % width)

    def test_cells_too_narrow_for_words_carry_marks_explained_below(self):
        big = os.path.join(self.dir, "big")
        fx.write_sweep_dir(big, [("runs.hermes.alpha", ["-1.6", "-1.5", "-1.4", "-1.3", "-1.2",
                                                        "-1.1", "-1.0"]),
                                 ("runs.hermes.beta", ["0.05", "0.1"])], seeds=2)

        def change(row):
            if row["run"] == "hermes" and row["seed"] == "2" and row["runs.hermes.beta"] == "0.1":
                diverge(row)
        edit_summary(big, change)
        with Figures() as f:
            draw(big, 3.5)
            words = texts(f.figures["sweep_hermes"])
            notes = note_lines(f.figures["sweep_hermes"])
            self.assertEqual(style_check.check_figure(f.figures["sweep_hermes"], "s"), [])
        self.assertIn("230\u2020", words)  # (-1.6, 0.1): seed 1 only, marked
        self.assertIn("215", words)
        self.assertIn("\u2020: some seeds diverged, the value is the mean of the others", notes)


class Lines(fx.TempDirTest):
    def test_diverged_values_are_marked_and_named_and_the_line_breaks_there(self):
        sweep = os.path.join(self.dir, "sweep")
        fx.write_sweep_dir(sweep, [("training.learning_rate", ["0.001", "0.01", "0.1", "1"])],
                           seeds=3)

        def change(row):
            if row["run"] == "hermes" and (row["training.learning_rate"] == "1" or (
                    row["training.learning_rate"] == "0.1" and row["seed"] == "3")):
                diverge(row)
        edit_summary(sweep, change)
        with Figures() as f:
            draw(sweep, 3.5)
            fig = f.figures["sweep_hermes"]
            words = " ".join(texts(fig))
            notes = note_lines(fig)
            crosses = [line for ax in panels(fig) for line in ax.get_lines()
                       if line.get_marker() == "x"]
            self.assertEqual(len(crosses), 3)  # a panel each
            self.assertEqual(list(crosses[0].get_xdata()), [0.1, 1.0])
            self.assertEqual(panels(fig)[0].get_xscale(), "log")  # 0.001 ... 1
            means = [line for line in panels(fig)[0].get_lines() if line.get_marker() == "o"]
            self.assertTrue(np.isnan(means[0].get_ydata()[-1]))  # nothing ok at 1: a gap
        self.assertIn("diverged: learning_rate=0.1 (1/3 seeds), learning_rate=1 (every seed)",
                      " ".join(notes))
        self.assertIn("3 seeds per grid point, the mean of those ok", words)


class SweepJsonShapes(fx.TempDirTest):
    """The shapes sweep_data reads from sweep.json, in fig-sweep's drawing: points without a row
    (missing, timed out) and a third key as rows of heatmaps."""

    def test_missing_and_timed_out_points_are_marked_and_named(self):
        sweep = os.path.join(self.dir, "sweep")
        fx.write_sweep_dir(sweep, [("training.stop.max_iterations", ["1", "10", "100"])])
        name = os.path.join(sweep, "sweep.json")
        with open(name) as f:
            doc = json.load(f)
        doc["runs"] = ["bsp", "hermes"]
        doc["points"] = [{"point": "%04d" % (2 * k + s), "seed": s + 1,
                          "params": {"training.stop.max_iterations": v}}
                         for k, v in enumerate(["1", "10", "100"]) for s in range(2)]
        with open(name, "w") as f:
            json.dump(doc, f)
        with open(os.path.join(sweep, "timed_out.json"), "w") as f:
            json.dump({"points": [{"point": "0005", "timeout_s": 2}]}, f)
        summary = os.path.join(sweep, "summary.csv")
        with open(summary) as f:
            lines = f.readlines()
        with open(summary, "w") as f:  # 0004 missing, 0005 timed out: nothing at 100
            f.writelines(line for line in lines if line.split(",")[0] not in ("0004", "0005"))
        with Figures() as f:
            draw(sweep, 3.5)
            fig = f.figures["sweep_hermes"]
            self.assertEqual(style_check.check_figure(fig, "sweep_hermes"), [])
            notes = " ".join(note_lines(fig))
            squares = [line for ax in panels(fig) for line in ax.get_lines()
                       if line.get_marker() == "s"]
        self.assertEqual(len(squares), 3)  # a panel each, at 100
        self.assertIn("timed out (--point-timeout; the sweep's own command runs it again): "
                      "max_iterations=100 (1/2 seeds)", notes)
        self.assertIn("missing (listed in sweep.json, no row in summary.csv): "
                      "max_iterations=100 (1/2 seeds)", notes)

    def test_a_third_key_gives_a_row_of_heatmaps_per_value_on_one_colour_scale(self):
        sweep = os.path.join(self.dir, "sweep")
        fx.write_sweep_dir(sweep, [("runs.hermes.alpha", ["-1.6", "-1.0"]),
                                   ("runs.hermes.beta", ["0.05", "0.1"]),
                                   ("runs.hermes.lambda", ["3", "5"])])
        for width in (3.5, 7.16):
            with Figures() as f:
                draw(sweep, width)
                fig = f.figures["sweep_hermes"]
                self.assertEqual(style_check.check_figure(fig, "sweep_hermes"), [])
                maps = [ax for ax in fig.axes if ax.images]
                titles = [ax.get_title() for ax in maps]
                limits = {ax.images[0].get_clim() for ax in maps[::3]}  # the time panels
            self.assertEqual(len(maps), 6)
            self.assertEqual(sum("lambda=3" in t for t in titles), 3)
            self.assertEqual(len(limits), 1)


class CostAccuracy(fx.TempDirTest):
    def test_diverged_runs_are_drawn_and_named_and_labels_do_not_collide(self):
        sweep = os.path.join(self.dir, "sweep")
        mixed_sweep(sweep)
        for width in (3.5, 5.0, 7.16):
            with Figures() as f:
                draw(sweep, width)
                fig = f.figures["cost_accuracy"]
                self.assertEqual(style_check.check_figure(fig, "cost_accuracy"), [])
                words = texts(fig)
                notes = " ".join(note_lines(fig))
                markers = {line.get_marker() for ax in panels(fig) for line in ax.get_lines()}
            # Nine cells: numbered, with a key; the cell whose seeds all diverged at 9.8%,
            # far below the others: a triangle on the axis, its accuracy in the notes.
            self.assertIn("(9) alpha=-1, beta=0.15: diverged", words)
            self.assertIn("(5) alpha=-1.3, beta=0.1: 1/3 diverged", words)
            self.assertIn("v", markers)
            self.assertIn("below the axis: (5) diverged at 9.8% accuracy; (9) diverged at 9.8% "
                          "accuracy", notes)
            for ax in panels(fig):  # with a margin, but from 0: no negative cost or time
                self.assertEqual(ax.get_xlim()[0], 0.0)
            numbers = [w for w in words if w.isdigit() and 1 <= int(w) <= 9]
            self.assertEqual(len(numbers), 2 * 9, words)  # each cell once in each panel

    def test_a_few_points_carry_their_grid_values(self):
        sweep = os.path.join(self.dir, "sweep")
        fx.write_sweep_dir(sweep, [("runs.hermes.alpha", ["-1.6", "-1.3", "-0.9"])])

        def change(row):
            if row["run"] == "hermes" and row["runs.hermes.alpha"] == "-1.3" and \
                    row["seed"] == "1":
                diverge(row)
                row["accuracy"] = "0.9755"  # within the others: an x at its accuracy
        edit_summary(sweep, change)
        with Figures() as f:
            draw(sweep, 3.5)
            fig = f.figures["cost_accuracy"]
            self.assertEqual(style_check.check_figure(fig, "cost_accuracy"), [])
            words = texts(fig)
            notes = note_lines(fig)
            markers = [line.get_marker() for ax in panels(fig) for line in ax.get_lines()]
        self.assertEqual(words.count("alpha=-1.3"), 2)  # beside its ok mean, in each panel
        self.assertEqual(markers.count("x"), 2)
        self.assertIn("not all seeds ok: alpha=-1.3: 1/2 diverged", notes)

    def test_points_on_top_of_each_other_share_a_label(self):
        sweep = os.path.join(self.dir, "sweep")
        # x = alpha + 2 beta: (-1, 0.1) and (-0.8, 0) give the same runs, as do (-0.8, 0.1)
        # and (-0.6, 0).
        fx.write_sweep_dir(sweep, [("runs.hermes.alpha", ["-1.0", "-0.8", "-0.6"]),
                                   ("runs.hermes.beta", ["0", "0.1"])])
        with Figures() as f:
            draw(sweep, 3.5)
            fig = f.figures["cost_accuracy"]
            self.assertEqual(style_check.check_figure(fig, "cost_accuracy"), [])
            words = texts(fig)
        self.assertEqual([words.count(n) for n in ("1", "2,3", "4,5", "6")], [2, 2, 2, 2])

    def test_the_same_sweep_gives_the_same_bytes(self):
        sweep = os.path.join(self.dir, "sweep")
        mixed_sweep(sweep)
        files = []
        for attempt in range(2):
            out = os.path.join(self.dir, "out%d" % attempt)
            self.assertEqual(cli.main([sweep, "--out", out, "--width", "single",
                                       "--format", "svg"]), 0)
            with open(os.path.join(out, "cost_accuracy.svg"), "rb") as f:
                files.append(f.read())
        self.assertEqual(files[0], files[1])


class AtPrintSize(fx.TempDirTest):
    def test_every_shape_is_clean_at_every_width(self):
        shapes = {"mixed": lambda p: mixed_sweep(p)}

        def one_key(path):
            fx.write_sweep_dir(path, [("runs.hermes.alpha", ["-1.6", "-1.3", "-1.0"])])
            edit_summary(path, lambda r: diverge(r) if r["run"] == "hermes" and
                         r["runs.hermes.alpha"] == "-1.0" else None)
        shapes["one key"] = one_key

        def wide(path):
            fx.write_sweep_dir(path, [("runs.hermes.alpha", [str(-2 + 0.1 * i)
                                                             for i in range(14)]),
                                      ("runs.hermes.beta", ["0.05", "0.1", "0.15", "0.2"])],
                               seeds=1)
        shapes["14 x 4"] = wide
        problems = []
        for name, make in shapes.items():
            path = os.path.join(self.dir, name.replace(" ", "_"))
            make(path)
            for width in ("single", "double", "5"):
                out = os.path.join(self.dir, "out")
                with style_check.Collector() as c:
                    self.assertEqual(cli.main([path, "--out", out, "--width", width]), 0)
                self.assertEqual(sorted(c.names), ["cost_accuracy", "sweep_hermes"])
                problems += ["%s, --width %s: %s" % (name, width, p) for p in c.problems]
        self.assertEqual(problems, [], "\n" + "\n".join(problems))


class RunEndings(fx.TempDirTest):
    """ok, capped or failed is what hermes-sim says of a row (its compare document's "ending"),
    not a copy of the words in the plots: a hermes-sim that calls patience a cap makes the cells
    capped."""

    def test_the_words_come_from_hermes_sim(self):
        doc = {"configurations": [{"runs": [
            {"status": "ok", "stop_reason": "patience", "ending": None},
            {"status": "ok", "stop_reason": "max_iterations", "ending": "capped (iterations)"},
            {"status": "ok", "stop_reason": "no_events", "ending": "no events"},
            {"status": "diverged", "stop_reason": "patience", "ending": "diverged"}]}]}
        endings = run_endings.Endings(doc, "test")
        self.assertEqual(endings.state("ok", "patience"), "ok")
        self.assertEqual(endings.state("ok", "max_iterations"), "capped")
        self.assertEqual(endings.state("ok", "no_events"), "ok")
        self.assertEqual(endings.state("diverged", "patience"), "diverged")
        self.assertEqual(endings.state("", "patience"), "no status")
        with self.assertRaisesRegex(PlotError, "no run with status 'ok' and stop_reason 'x'"):
            endings.state("ok", "x")

    def test_a_cap_is_named_by_the_key_hermes_sim_gives(self):
        doc = {"configurations": [{"runs": [
            {"status": "ok", "stop_reason": "max_iterations", "ending": "capped (iterations)",
             "cap_key": "runs.x.odd_cap"},
            {"status": "ok", "stop_reason": "max_sim_time", "ending": "capped (sim time)"}]}]}
        endings = run_endings.Endings(doc, "test")
        # The key is the document's, not a copy here; a document with none keeps the word.
        self.assertEqual(endings.cap_key("ok", "max_iterations"), "runs.x.odd_cap")
        self.assertEqual(endings.cap_key("ok", "max_sim_time"), "max_sim_time")

    def test_a_sweep_reads_them_from_the_binary_it_is_given(self):
        path = os.path.join(self.dir, "sweep")
        fx.write_sweep_dir(path, [("runs.hermes.alpha", [-1.6, -1.3])])
        calls_patience_a_cap = fx.document([fx.configuration(
            "Hermes", "hermes", [("hermes", "ok", "patience", "capped (odd)")])])
        binary = fx.fake_hermes_sim(os.path.join(self.dir, "bin"), calls_patience_a_cap)
        sweep = sweep_figures.read_sweep(path, binary)
        cells = sweep.cells("hermes", sweep.axes("hermes"))
        self.assertTrue(cells and all(len(c.capped) == len(c.rows) for c in cells.values()))
        with open(os.path.join(self.dir, "bin", "args")) as f:
            self.assertEqual(f.read().split("\n")[0], "compare")


if __name__ == "__main__":
    unittest.main(verbosity=2)
