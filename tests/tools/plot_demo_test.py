#!/usr/bin/python3
"""ctest plot_demo: tools/plot draws a demo run directory (demo_workers.csv, timeline.csv; no
global.csv): a Gantt chart of every span per node, each worker's time and iterations, its compute
times and burst credits (nodes with the same credits named on their line); without timeline.csv
only what demo_workers.csv holds. A run's two panels stack at a column's width, sit side by side
from 5 in, and keep their legend off the bars."""

import csv
import os
import unittest
from unittest import mock

import plot_fixtures as fx  # exits 77 (skip) without matplotlib and numpy

from hermes_plot import demo_figures, style, style_check  # noqa: E402
from hermes_plot.demo_data import DemoDir  # noqa: E402

FIGURES = ["demo_workers.png", "demo_timeline.png", "demo_compute.png"]


class DemoRuns(fx.TempDirTest):
    def setUp(self):
        super().setUp()
        self.demo = os.path.join(self.dir, "demo")
        fx.write_demo_dir(self.demo)

    def test_a_demo_directory_gives_its_three_figures_without_hermes_sim(self):
        r = fx.plot(self.demo, "--hermes-sim", os.path.join(self.dir, "absent"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(os.path.join(self.demo, "plots"))), sorted(FIGURES))
        for name in FIGURES:
            self.assertIn(os.path.join(self.demo, "plots", name), r.stdout)
            self.assertGreater(os.path.getsize(os.path.join(self.demo, "plots", name)), 10_000)
        r = fx.plot(self.demo, "--runs", "other")
        self.assertEqual(r.returncode, 1)
        self.assertIn("demo_workers.csv has no run named other (its runs: demo)", r.stderr)

    def test_without_timeline_only_the_workers_figure_and_a_note(self):
        demo = os.path.join(self.dir, "no-timeline")
        fx.write_demo_dir(demo, timeline=False)
        r = fx.plot(demo, "--format", "svg")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.listdir(os.path.join(demo, "plots")), ["demo_workers.svg"])
        self.assertIn("timeline.csv has no span of these runs", r.stderr)

    def test_the_gantt_chart_draws_every_span_of_each_node(self):
        dd = DemoDir(self.demo)
        with mock.patch.object(style, "save", lambda fig, out_dir, name, fmt: fig):
            fig = demo_figures.timeline(dd, dd.runs, "unused", "png")
        self.addCleanup(style.plt.close, fig)
        whole, first = fig.axes[:2]
        # One row per node, an artist per (node, activity): 5 iterations of 4 spans each.
        self.assertEqual([t.get_text() for t in whole.get_yticklabels()],
                         ["w0 (B1ms)", "w1 (DS2_v2)", "w2 (F4s_v2)"])
        bars = [c for c in whole.collections]
        self.assertEqual(len(bars), 3 * 4)
        self.assertEqual(sum(len(c.get_paths()) for c in bars), 3 * 5 * 4)
        # The zoomed panel ends when every node has ended its third iteration: the B1ms node's
        # 3 x (0.1 + 0.05 + 0.05 + 0.5) s and 9 s x (1.1 + 1.2 + 1.3), less its last wait.
        self.assertAlmostEqual(first.get_xlim()[1], 3 * 0.7 + 9 * 3.6 - 0.5, places=6)

    def test_counts_have_whole_number_ticks(self):
        dd = DemoDir(self.demo)
        with mock.patch.object(style, "save", lambda fig, out_dir, name, fmt: fig):
            totals = demo_figures.worker_totals(dd, dd.runs, "unused", "png")
            compute = demo_figures.compute_times(dd, dd.runs, "unused", "png")
        for fig, ax in ((totals, totals.axes[1]), (compute, compute.axes[0])):
            self.addCleanup(style.plt.close, fig)
            fig.canvas.draw()
            ticks = ax.get_xticks()
            self.assertGreater(len(ticks), 1)
            self.assertTrue(all(t == round(t) for t in ticks), ticks)
        # Time not spent computing or transferring is waiting: 5 waits of 0.5 s per worker.
        waiting = [p.get_width() for p in totals.axes[0].containers[2].patches]
        self.assertEqual([round(w, 6) for w in waiting], [2.5, 2.5, 2.5])


    def test_two_nodes_with_the_same_credits_are_named_on_their_line(self):
        # A second B1ms (w3) doing exactly what w0 does: one red line in the credits panel.
        def twin(path, name):
            with open(os.path.join(self.demo, name), newline="") as f:
                rows = list(csv.reader(f))
            rows += [[c if c != "w0" else "w3" for c in r] for r in rows[1:] if r[1] == "w0"]
            fx.write_csv(os.path.join(path, name), rows[0], rows[1:])
        path = os.path.join(self.dir, "twins")
        os.makedirs(path)
        for name in ("demo_workers.csv", "timeline.csv"):
            twin(path, name)
        dd = DemoDir(path)
        with mock.patch.object(style, "save", lambda fig, out_dir, name, fmt: fig):
            fig = demo_figures.compute_times(dd, dd.runs, "unused", "png")
        self.addCleanup(style.plt.close, fig)
        credits = [ax for ax in fig.axes if ax.get_ylabel() == "CPU credits left"]
        self.assertEqual([t.get_text() for t in credits[0].texts], ["w0, w3: same line"])

    def test_at_a_column_width_each_runs_panels_stack_and_pass_the_check(self):
        dd = DemoDir(self.demo)
        previous = style.width()
        self.addCleanup(style.set_width, previous)
        for inches, stacked in ((3.5, True), (5.0, False), (7.16, False)):
            style.set_width(inches)
            with mock.patch.object(style, "save", lambda fig, out_dir, name, fmt: fig):
                figs = [demo_figures.worker_totals(dd, dd.runs, "unused", "png"),
                        demo_figures.timeline(dd, dd.runs, "unused", "png"),
                        demo_figures.compute_times(dd, dd.runs, "unused", "png")]
            for fig in figs:
                self.addCleanup(style.plt.close, fig)
                first, second = [ax for ax in fig.axes if ax.has_data()][:2]
                fig.canvas.draw()
                below = second.get_position().y1 < first.get_position().y0
                self.assertEqual(below, stacked, (inches, fig._suptitle.get_text()))
                self.assertEqual(style_check.check_figure(fig, "demo", inches), [])
                # The legend is in a strip of its own, over no bar.
                for ax in fig.axes:
                    if ax.has_data():
                        self.assertIsNone(ax.get_legend())


if __name__ == "__main__":
    unittest.main(verbosity=2)
