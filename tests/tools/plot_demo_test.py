#!/usr/bin/python3
"""ctest plot_demo: tools/plot draws a demo run directory (demo_workers.csv, timeline.csv; no
global.csv): a Gantt chart of every span per node, each worker's time and iterations, its compute
times and burst credits; without timeline.csv only what demo_workers.csv holds."""

import os
import unittest
from unittest import mock

import plot_fixtures as fx  # exits 77 (skip) without matplotlib and numpy

from hermes_plot import demo_figures, style  # noqa: E402
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


if __name__ == "__main__":
    unittest.main(verbosity=2)
