#!/usr/bin/python3
"""ctest plot_accuracy: accuracy_loss.png scales its axes to the runs that learn (a diverged run
is drawn dashed, labelled, clipped, and whole in a small panel of its own), coinciding curves stay
apart, and every iteration or count axis has whole-number ticks. The figures are taken before
they are saved (style.save patched to hand them back)."""

import os
import tempfile
import unittest
from unittest import mock

import plot_fixtures as fx  # exits 77 (skip) without matplotlib and numpy

from hermes_plot import accuracy_loss, run_figures, style  # noqa: E402
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
        self.assertEqual(self.ax_full.get_ylim(), (0, 100))
        self.assertEqual(len(self.ax_full.get_lines()), len(RUNS))
        learning_losses = [v for r in ("bsp", "asp", "ssp", "hermes")
                           for v in self.rd.evals[r]["loss"]]
        self.assertLessEqual(self.ax_loss.get_ylim()[1], 1.25 * max(learning_losses) + 1e-9)

    def test_without_a_diverged_run_there_is_no_full_range_panel(self):
        fig = figures_of(accuracy_loss.accuracy_loss, self.rd, ["bsp", "hermes"])
        self.addCleanup(style.plt.close, fig)
        self.assertEqual(len([ax for ax in fig.axes if ax.get_lines()]), 2)

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
