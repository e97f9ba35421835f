#!/usr/bin/python3
"""ctest plot_accuracy: accuracy_loss.png scales its accuracy axis to the runs that learn and says
so, shows the whole curves in a panel below when that axis hides part of one (a diverged run is
drawn dashed, labelled and clipped), keeps coinciding curves apart, puts time on a log axis when
a run is over within a tenth of the longest, and keeps its legend off the curves. The run figures
(iteration_times, chunk_sizes, credits) put every panel of a figure on one y axis, name the lines
that lie on each other, keep within a page at a column's width, and have whole-number ticks on
every iteration or count axis; layout.py wraps and lays them out. The figures are taken before
they are saved (style.save patched to hand them back)."""

import csv
import os
import tempfile
import unittest
from unittest import mock

import plot_fixtures as fx  # exits 77 (skip) without matplotlib and numpy

from hermes_plot import accuracy_loss, layout, run_figures, style, style_check  # noqa: E402
from hermes_plot.run_data import RunDir  # noqa: E402

# ASP and an SSP whose bound never binds: the same curve. E-BSP diverges: back to 10%.
RUNS = [
    fx.Run("bsp", "bsp", sim_time=6000.0, accuracy=0.978),
    fx.Run("asp", "asp", sim_time=3300.0, accuracy=0.905),
    fx.Run("ssp", "ssp", {"staleness": "125"}, sim_time=3300.0, accuracy=0.905),
    fx.Run("ebsp", "ebsp", {"lookahead": "150"}, status="diverged", stop_reason="diverged",
           sim_time=4000.0, accuracy=0.85, diverge_at=20),
    fx.Run("hermes", "hermes", fx.HERMES, sim_time=480.0, accuracy=0.976),
]


def figures_of(draw, *args):
    """The figure `draw` would save."""
    with mock.patch.object(style, "save", lambda fig, out_dir, name, fmt: fig):
        fig = draw(*args, "unused", "png")
    return fig


class AccuracyAxis(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="plot_test-")
        path = os.path.join(cls.tmp.name, "run")
        fx.write_run_dir(path, runs=RUNS, iterations=4)
        cls.rd = RunDir(path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        self.fig = figures_of(accuracy_loss.accuracy_loss, self.rd, self.rd.runs)
        self.addCleanup(style.plt.close, self.fig)
        self.ax_acc, self.ax_loss, self.ax_full = self.fig.axes[:3]
        self.lines = dict(zip(self.rd.runs, self.ax_acc.get_lines()))

    def test_the_range_comes_from_the_runs_that_learn(self):
        learning = [[100 * r.accuracy_at(k) for k in range(40)] for r in RUNS
                    if r.status == "ok"]
        low, high = self.ax_acc.get_ylim()
        expected = accuracy_loss.accuracy_range(learning)
        self.assertAlmostEqual(low, expected[0], places=3)  # global.csv has 6 decimals
        self.assertAlmostEqual(high, expected[1], places=3)
        self.assertGreater(low, 70)
        self.assertLess(high, 100)
        # The diverged E-BSP falls to 10%: with it the axis would start near 0.
        everything = accuracy_loss.accuracy_range(
            learning + [[100 * RUNS[3].accuracy_at(k) for k in range(40)]])
        self.assertLess(everything[0], 10)

    def test_a_diverged_run_is_dashed_labelled_and_shown_whole_below(self):
        self.assertEqual(self.lines["ebsp"].get_linestyle(), "--")
        self.assertEqual(self.lines["bsp"].get_linestyle(), "-")
        self.assertIn("diverged", self.lines["ebsp"].get_label())
        self.assertNotIn("diverged", self.lines["bsp"].get_label())
        self.assertEqual(self.ax_full.get_ylim()[0], 0)  # E-BSP back at chance
        self.assertLessEqual(self.ax_full.get_ylim()[1], 100)
        self.assertEqual(len(self.ax_full.get_lines()), len(RUNS))
        learning_losses = [v for r in ("bsp", "asp", "ssp", "hermes")
                           for v in self.rd.evals[r]["loss"]]
        self.assertLessEqual(self.ax_loss.get_ylim()[1], 1.25 * max(learning_losses) + 1e-9)

    def test_a_panel_below_shows_the_whole_curves_the_axis_hides(self):
        # No run diverges, but the climb from chance lies below the fitted axis.
        fig = figures_of(accuracy_loss.accuracy_loss, self.rd, ["bsp", "hermes"])
        self.addCleanup(style.plt.close, fig)
        ax_acc, _, ax_whole = [ax for ax in fig.axes if ax.get_lines()]
        self.assertGreater(ax_acc.get_ylim()[0], 70)
        self.assertEqual(ax_whole.get_ylim()[0], 0)  # from chance (10%): from 0
        self.assertEqual(ax_whole.get_title(), "Whole curves")
        self.assertIn("fitted to the evaluations after each run's first quarter",
                      " ".join(ax_acc.get_title().split()))

    def test_the_title_says_what_the_accuracy_axis_fits(self):
        title = " ".join(self.ax_acc.get_title().split())
        self.assertIn("axis fitted to the runs that learn, after their first quarter of "
                      "evaluations; diverged runs clipped", title)
        self.assertIn("fitted to the runs that learn", " ".join(self.ax_loss.get_title().split()))

    def test_without_hidden_parts_there_is_no_whole_curves_panel(self):
        with tempfile.TemporaryDirectory(prefix="plot_test-") as tmp:
            path = os.path.join(tmp, "run")
            # Accuracy 10% from the first evaluation on: nothing lies outside the axis.
            fx.write_run_dir(path, runs=[fx.Run("flat", "bsp", accuracy=0.1)], iterations=4)
            rd = RunDir(path)
            fig = figures_of(accuracy_loss.accuracy_loss, rd, rd.runs)
        self.addCleanup(style.plt.close, fig)
        panels = [ax for ax in fig.axes if ax.get_lines()]
        self.assertEqual(len(panels), 2)
        self.assertEqual(panels[0].get_title(), "Test accuracy")

    def test_time_is_on_a_log_axis_when_a_run_is_over_within_a_tenth(self):
        # hermes: 480 s beside bsp's 6000 s.
        self.assertEqual(self.ax_acc.get_xscale(), "log")
        self.assertIn("log scale", self.ax_full.get_xlabel())
        fig = figures_of(accuracy_loss.accuracy_loss, self.rd, ["bsp", "asp"])  # 6000, 3300 s
        self.addCleanup(style.plt.close, fig)
        self.assertEqual(fig.axes[0].get_xscale(), "linear")
        self.assertEqual(fig.axes[0].get_xlim()[0], 0)
        self.assertTrue(accuracy_loss.log_time([21.8, 786.0]))
        self.assertFalse(accuracy_loss.log_time([464.0, 637.0]))
        # Markers evenly along the axis as drawn: on a log axis not crowded to the right.
        times = [float(t) for t in range(1, 1001)]
        marks = accuracy_loss.marker_indices(times, 0.5, True, marks=3)
        self.assertEqual(len(marks), 3)
        self.assertLess(marks[0], 10)

    def test_the_legend_lies_outside_the_panels(self):
        for ax in self.fig.axes:
            if ax.get_lines():
                self.assertIsNone(ax.get_legend())
        legends = [ax.get_legend() for ax in self.fig.axes if ax.get_legend()]
        self.assertEqual(len(legends), 1)
        texts = [" ".join(t.get_text().split()) for t in legends[0].get_texts()]
        self.assertIn("ebsp (ebsp): diverged", texts)
        self.assertIn("major update aggregated (Hermes)", texts)

    def test_at_a_column_width_the_panels_stack_within_a_page_and_pass_the_check(self):
        previous = style.width()
        self.addCleanup(style.set_width, previous)
        for inches in (3.5, 5.0, 7.16):
            style.set_width(inches)
            fig = figures_of(accuracy_loss.accuracy_loss, self.rd, self.rd.runs)
            self.addCleanup(style.plt.close, fig)
            self.assertLessEqual(fig.get_size_inches()[1], layout.MAX_HEIGHT)
            self.assertEqual(style_check.check_figure(fig, "accuracy_loss", inches), [])
            ax_acc, ax_loss = fig.axes[:2]
            stacked = ax_loss.get_position().y1 < ax_acc.get_position().y0
            self.assertEqual(stacked, inches < 5, inches)

    def test_coinciding_curves_get_their_own_marker_and_a_note(self):
        asp, ssp = self.lines["asp"], self.lines["ssp"]
        self.assertEqual(list(asp.get_ydata()), list(ssp.get_ydata()))
        self.assertNotEqual(asp.get_marker(), ssp.get_marker())
        self.assertNotEqual(asp.get_markevery(), ssp.get_markevery())  # marks side by side
        self.assertIn("same curve as asp", ssp.get_label())
        self.assertNotIn("same curve", asp.get_label())
        self.assertEqual(accuracy_loss.coinciding([([1, 2], [5, 6]), ([1, 2], [5, 6.5]),
                                                   ([1, 2], [5.01, 6])]), [None, None, 0])

    def test_accuracy_range_skips_the_first_quarter_and_adds_a_margin(self):
        self.assertEqual(accuracy_loss.accuracy_range([[10, 50, 90, 95, 96]]), (89.5, 96.5))
        self.assertEqual(accuracy_loss.accuracy_range([[10, 60, 70, 80, 90]]), (69.0, 91.0))
        self.assertEqual(accuracy_loss.accuracy_range([[float("nan")]]), (0.0, 100.0))


def _edit_workers(path, edit):
    """Rewrites path/workers.csv, each row (a dict) through edit(row)."""
    with open(os.path.join(path, "workers.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        edit(row)
    fx.write_csv(os.path.join(path, "workers.csv"), fx.WORKERS,
                 [[row[c] for c in fx.WORKERS] for row in rows])


def _texts(fig):
    return [" ".join(t.get_text().split()) for ax in fig.axes for t in ax.texts]


class RunFigures(fx.TempDirTest):
    def run_dir(self, runs=fx.RUNS, edit=None, **kw):
        path = os.path.join(self.dir, "run")
        fx.write_run_dir(path, runs=runs, **kw)
        if edit:
            _edit_workers(path, edit)
        return RunDir(path)

    def draw(self, draw, rd, runs=None):
        fig = figures_of(draw, rd, runs or rd.runs)
        self.addCleanup(style.plt.close, fig)
        return fig, [ax for ax in fig.axes if ax.get_lines() or ax.patches]

    def test_every_panel_of_a_figure_has_the_same_y_axis_from_0(self):
        rd = self.run_dir()
        for draw in (run_figures.iteration_times, run_figures.chunk_sizes,
                     run_figures.burst_credits):
            fig, panels = self.draw(draw, rd)
            self.assertGreater(len(panels), 1, draw.__name__)
            limits = {ax.get_ylim() for ax in panels}
            self.assertEqual(len(limits), 1, "%s: %s" % (draw.__name__, limits))
            self.assertEqual(limits.pop()[0], 0, draw.__name__)

    def test_a_run_of_much_shorter_iterations_says_so_on_the_shared_axis(self):
        def shorten(row):  # asp's iterations: a single step each, 1000 times shorter
            if row["run"] == "asp":
                row["duration_s"] = "%.6f" % (float(row["duration_s"]) / 1000)
        rd = self.run_dir(edit=shorten)
        fig, panels = self.draw(run_figures.iteration_times, rd)
        notes = {ax.get_title(): " ".join(ax.texts[0].get_text().split()) for ax in panels}
        self.assertRegex(notes["asp (asp)"],
                         r"^median at iteration 30: 0\.0\d+ s, too short for this axis$")
        self.assertNotIn("too short", notes["bsp (bsp)"])

    def test_a_worker_with_a_single_iteration_is_a_point_on_a_whole_tick(self):
        rd = self.run_dir(runs=fx.RUNS[:1], iterations=1)
        fig, (ax,) = self.draw(run_figures.iteration_times, rd)
        self.assertEqual(ax.get_xlim(), (0.5, 1.5))
        self.assertTrue(all(line.get_marker() == "o" for line in ax.get_lines()))
        fig.canvas.draw()
        self.assertEqual([t for t in ax.get_xticks() if 0.5 <= t <= 1.5], [1])
        self.assertIn("diverged", _run_title_of(rd, "diverged"))

    def test_credits_that_lie_on_each_other_share_the_line_in_turns_and_are_named(self):
        credits = {}

        def same_credits(row):  # w1 (B1ms) left with w0's credits after each iteration
            key = (row["run"], row["local_iteration"])
            if row["worker"] == "w0":
                credits[key] = row["credits_left"]
            elif row["worker"] == "w1":
                row["credits_left"] = credits[key]
        rd = self.run_dir(edit=same_credits)  # w0 comes before w1 in every iteration
        fig, panels = self.draw(run_figures.burst_credits, rd)
        for ax in panels:
            self.assertEqual([" ".join(t.get_text().split()) for t in ax.texts],
                             ["w0, w1: same line"])
            w0, w1 = ax.get_lines()
            self.assertNotEqual(w0.get_color(), w1.get_color())
            self.assertEqual((w0.get_linestyle(), w1.get_linestyle()), ("--", "--"))
        # Each draws every other dash: together they draw the whole line.
        self.assertEqual(layout.interleaved(2, 0), (0.0, (4.0, 4.0)))
        self.assertEqual(layout.interleaved(2, 1), (4.0, (4.0, 4.0)))
        # Without the edit the two differ (30 and 22 credits at the start): no note.
        fig, panels = self.draw(run_figures.burst_credits, self.run_dir_again())
        self.assertEqual(_texts(fig), [])

    def run_dir_again(self):
        path = os.path.join(self.dir, "again")
        fx.write_run_dir(path)
        return RunDir(path)

    def test_chunks_that_never_change_are_a_bar_per_run_or_named_in_the_title(self):
        rd = self.run_dir()
        fig, panels = self.draw(run_figures.chunk_sizes, rd)
        self.assertEqual([ax.get_title() for ax in panels], ["hermes-1.6-b0.15 (hermes)",
                                                              "hermes-x (hermes)"])
        title = " ".join(fig._suptitle.get_text().split())
        self.assertIn("bsp, asp: 2500 samples throughout, not drawn", title)
        # B1ms w0 and w1 are resized alike: one line in one colour, named.
        self.assertIn("w0, w1: same line", _texts(fig))
        fig, (ax,) = self.draw(run_figures.chunk_sizes, rd, ["bsp", "asp"])
        self.assertEqual([p.get_width() for p in ax.patches], [2500, 2500])
        self.assertEqual([t.get_text() for t in ax.get_yticklabels()], ["bsp (bsp)", "asp (asp)"])
        self.assertIn("no run resizes its chunks", fig._suptitle.get_text().replace("\n", " "))

    def test_fourteen_runs_at_a_column_width_keep_within_a_page(self):
        runs = [fx.Run("run-%02d" % i, "bsp") for i in range(14)]
        rd = self.run_dir(runs=runs, evaluations=4, iterations=5)
        previous = style.width()
        self.addCleanup(style.set_width, previous)
        style.set_width(3.5)
        for draw in (run_figures.iteration_times, run_figures.burst_credits):
            fig, panels = self.draw(draw, rd)
            self.assertEqual(len(panels), 14)
            self.assertLessEqual(fig.get_size_inches()[1], layout.MAX_HEIGHT + 1e-9)
            self.assertEqual(fig.panel_columns, 2)
            self.assertEqual(style_check.check_figure(fig, draw.__name__, 3.5), [])


def _run_title_of(rd, status):
    rd.status["bsp"] = status
    return run_figures._run_title(rd, "bsp")


class Layout(unittest.TestCase):
    def test_wrap_breaks_at_spaces_into_even_lines_that_fit(self):
        text = "Iteration time per worker (chunk requested to compute done)"
        wrapped = layout.wrap(text, 3.35, 8.5)
        lines = wrapped.split("\n")
        self.assertEqual(" ".join(lines), text)
        self.assertEqual(len(lines), 2)
        self.assertTrue(all(layout.text_inches(l, 8.5) <= 3.35 for l in lines))
        self.assertGreater(len(lines[1].split()), 1)  # no word alone on the last line
        self.assertEqual(layout.wrap("averylongwordwithoutspaces", 0.3, 7),
                         "averylongwordwithoutspaces")
        self.assertEqual(layout.wrap("short", 3, 7), "short")

    def test_the_legend_takes_as_many_columns_as_fit_and_wraps_the_widest(self):
        labels, ncol, height = layout.legend_layout(["B1ms", "DS2_v2", "F4s_v2"], 7.0)
        self.assertEqual((labels, ncol), (["B1ms", "DS2_v2", "F4s_v2"], 3))
        long = "cluster median (iterations every worker reached)"
        labels, ncol, _ = layout.legend_layout(["B1ms", "DS2_v2", "F4s_v2", long], 3.4)
        self.assertEqual(ncol, 3)
        self.assertEqual(labels[-1].replace("\n", " "), long)
        self.assertEqual(layout.lines_of(labels[-1]), 2)
        labels, ncol, tall = layout.legend_layout(["x %d" % i for i in range(8)] + [long * 2], 3.4)
        self.assertEqual(ncol, 1)
        self.assertGreater(tall, height)

    def test_same_lines_groups_the_lines_a_reader_cannot_tell_apart(self):
        a = ([0, 1, 2, 3], [30, 29, 28, 27])
        b = ([0, 1.01, 2, 3.1], [30, 29.01, 28, 26.9])  # within 1% of a 30-credit axis
        c = ([0, 1, 2], [30, 29, 28])  # ends sooner, under a: hidden all the same
        d = ([0, 1, 2, 3], [20, 19, 18, 17])
        self.assertEqual(layout.same_lines([a, d, b, c], 30), [[0, 2, 3]])
        self.assertEqual(layout.same_lines([a, d], 30), [])
        self.assertEqual(layout.name_list(["w0", "w1", "w2", "w3"]), "w0\u2013w3")
        self.assertEqual(layout.name_list(["w0", "w2"]), "w0, w2")


class IntegerTicks(fx.TempDirTest):
    def test_iteration_and_chunk_axes_have_whole_number_ticks(self):
        path = os.path.join(self.dir, "run")
        fx.write_run_dir(path, runs=fx.RUNS[2:3], evaluations=5, iterations=3)
        rd = RunDir(path)
        for draw, axis in ((run_figures.iteration_times, "x"), (run_figures.chunk_sizes, "y")):
            fig = figures_of(draw, rd, rd.runs)
            self.addCleanup(style.plt.close, fig)
            ax = fig.axes[0]
            fig.canvas.draw()
            ticks = ax.get_xticks() if axis == "x" else ax.get_yticks()
            self.assertGreater(len(ticks), 1)
            for tick in ticks:
                self.assertEqual(tick, round(tick), "%s: tick %s" % (draw.__name__, tick))


if __name__ == "__main__":
    unittest.main(verbosity=2)
