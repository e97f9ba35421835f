#!/usr/bin/python3
"""ctest churn_table: tools/churn_table.py averages each run's seeds per sweep (the table
results/README.md's "Spot workers" prints), names a missing column, draws one colour per sweep
for up to six sweeps and refuses more. Synthetic summary.csv files, written here."""

import csv
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "churn_table.py")
COLUMNS = ["run", "status", "seed", "sim_time_s", "accuracy", "cost_usd", "lost_iterations",
           "wasted_compute_s", "dropped_updates", "downtime_s"]


def write_sweep(path, rows):
    os.makedirs(path)
    with open(os.path.join(path, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow(r)


def row(run, seed, time_s, acc, cost, lost=0, status="ok"):
    return {"run": run, "status": status, "seed": seed, "sim_time_s": time_s, "accuracy": acc,
            "cost_usd": cost, "lost_iterations": lost, "wasted_compute_s": 0,
            "dropped_updates": 0, "downtime_s": 0}


def tool(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


class ChurnTable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="churn_table_test-")
        cls.a = os.path.join(cls.tmp.name, "a")
        cls.b = os.path.join(cls.tmp.name, "b")
        write_sweep(cls.a, [row("bsp", 1, 600, 0.98, 0.30), row("bsp", 2, 720, 0.96, 0.36)])
        write_sweep(cls.b, [row("bsp", 1, 600, 0.98, 0.10, lost=2),
                            row("bsp", 2, 780, 0.90, 0.12, lost=4, status="diverged")])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_means_over_seeds_per_sweep(self):
        out = tool("payg=" + self.a, "spot=" + self.b)
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        # time (min), accuracy (%), cost, lost iterations, wasted, dropped, downtime
        self.assertIn("| bsp | payg | 2 (2) | 11.00 | 97.00 | 0.3300 | 0.0 | 0.0 | 0.0 | 0.0 |",
                      lines)
        self.assertIn("| bsp | spot | 2 (1) | 11.50 | 94.00 | 0.1100 | 3.0 | 0.0 | 0.0 | 0.0 |",
                      lines)

    def test_a_missing_column_is_named(self):
        bad = os.path.join(self.tmp.name, "bad")
        os.makedirs(bad)
        with open(os.path.join(bad, "summary.csv"), "w") as f:
            f.write("run,status,accuracy\nbsp,ok,0.9\n")
        out = tool("x=" + bad)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("no column sim_time_s", out.stderr)

    def test_plot_draws_three_sweeps_and_refuses_seven(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("no matplotlib")
        png = os.path.join(self.tmp.name, "fig.png")
        out = tool("a=" + self.a, "b=" + self.b, "c=" + self.b, "--plot", png)
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(png, "rb") as f:
            head = f.read(24)
        self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
        # Drawn at its print width, as tools/plot draws: 7.16 in at 150 dpi, 3.5 in with single.
        self.assertEqual(int.from_bytes(head[16:20], "big"), 1074)
        out = tool("a=" + self.a, "--plot", png, "--width", "single")
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(png, "rb") as f:
            self.assertEqual(int.from_bytes(f.read(24)[16:20], "big"), 525)
        out = tool(*["s%d=%s" % (i, self.a) for i in range(7)], "--plot", png)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("at most 6 sweeps", out.stderr)


if __name__ == "__main__":
    unittest.main()
