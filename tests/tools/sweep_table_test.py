#!/usr/bin/python3
"""ctest tools_sweep_table: tools/sweep_table.py averages each run over a sweep's seeds (mean,
range where they differ), one row per run and combination of grid values, the sweeps given one
after the other, finds the first time each run's global accuracy reached the target in
each point's global.csv (runs that never do are counted, not averaged), averages speedups only
where summary.csv has one, and names the file and column at fault. Synthetic sweeps, written
here."""

import csv
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "sweep_table.py")
COLUMNS = ["point", "run", "protocol", "status", "stop_reason", "sim_time_s", "accuracy",
           "iterations", "api_calls", "bytes", "cost_usd", "speedup_vs_bsp"]


def summary_row(point, run, time_s, acc, speedup, status="ok", stop="patience"):
    return {"point": point, "run": run, "protocol": run.split("-")[0], "status": status,
            "stop_reason": stop, "sim_time_s": time_s, "accuracy": acc, "iterations": 100,
            "api_calls": 5000, "bytes": 2e9, "cost_usd": 0.1, "speedup_vs_bsp": speedup}


def write_sweep(path, rows, evaluations, columns=COLUMNS):
    os.makedirs(path)
    with open(os.path.join(path, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    for point, lines in evaluations.items():
        os.makedirs(os.path.join(path, "points", point))
        with open(os.path.join(path, "points", point, "global.csv"), "w") as f:
            f.write("run,time_s,iteration,worker,loss,accuracy\n")
            for run, t, acc in lines:
                f.write(f"{run},{t},1,all,0.5,{acc}\n")


def tool(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


class SweepTable(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.join(self.tmp.name, "sweep")

    def tearDown(self):
        self.tmp.cleanup()

    def test_means_ranges_target_times_and_speedups(self):
        write_sweep(self.dir,
                    [summary_row("0000", "bsp", 600, 0.98, "1.0000"),
                     summary_row("0000", "asp-x", 60, 0.93, "10.0000"),
                     summary_row("0001", "bsp", 900, 0.98, "1.0000"),
                     summary_row("0001", "asp-x", 30, 0.95, "", status="diverged",
                                 stop="diverged")],
                    {"0000": [("bsp", 60, 0.96), ("bsp", 120, 0.971), ("bsp", 180, 0.98),
                              ("asp-x", 30, 0.93)],
                     "0001": [("bsp", 240, 0.975), ("asp-x", 30, 0.95)]})
        r = tool(self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertIn("| to 97% (min) |", lines[0])
        # bsp: 10 and 15 min, mean 12.5; 97% first at 120 s and 240 s: 3 min (2-4).
        self.assertEqual(lines[2], "| bsp | bsp | 2 | ok (patience) | 12.50 (10.00-15.00) | 98.00 | "
                                   "3.00 (2.00-4.00) | 100 | 5 | 2.00 | 0.100 | 1.00x |")
        # asp-x: one ok, one diverged; never at 97%; the speedup of the one that has it.
        self.assertEqual(lines[3], "| asp-x | asp | 2 | 1 ok (patience), 1 diverged (diverged) | "
                                   "0.75 (0.50-1.00) | 94.00 (93.00-95.00) | never | 100 | 5 | "
                                   "2.00 | 0.100 | 10.00x (1 of 2) |")
        # Another target: asp-x reached 94% in one point of two.
        r = tool(self.dir, "--target", "0.94")
        self.assertIn("| 0.50 (1 of 2 reached) |", r.stdout)

    def test_grid_points_are_rows_of_their_own_and_sweeps_follow_each_other(self):
        write_sweep(self.dir, [summary_row("0000", "bsp", 600, 0.98, "1.0000")],
                    {"0000": [("bsp", 60, 0.98)]})
        grid = os.path.join(self.tmp.name, "grid")
        rows = []
        for point, shards, time_s in [("0000", 2, 600), ("0001", 4, 300), ("0002", 2, 660),
                                      ("0003", 4, 360)]:
            rows.append(dict(summary_row(point, "bsp", time_s, 0.98, "1.0000"),
                             **{"cluster.ps.shards": shards}))
        write_sweep(grid, rows, {r["point"]: [("bsp", 60, 0.98)] for r in rows},
                    columns=["point", "cluster.ps.shards"] + COLUMNS[1:])
        r = tool(self.dir, grid)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 5, r.stdout)
        self.assertTrue(lines[2].startswith("| bsp | bsp | 1 | ok (patience) | 10.00 |"), lines[2])
        # 2 shards: 10 and 11 min; 4 shards: 5 and 6 min; never averaged together.
        self.assertTrue(lines[3].startswith("| bsp (cluster.ps.shards=2) | bsp | 2 | ok (patience) "
                                            "| 10.50 (10.00-11.00) |"), lines[3])
        self.assertTrue(lines[4].startswith("| bsp (cluster.ps.shards=4) | bsp | 2 | ok (patience) "
                                            "| 5.50 (5.00-6.00) |"), lines[4])

    def test_a_missing_column_or_file_is_named(self):
        write_sweep(self.dir, [summary_row("0000", "bsp", 600, 0.98, "1.0000")],
                    {"0000": [("bsp", 60, 0.98)]}, columns=COLUMNS[:-1])
        r = tool(self.dir)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("summary.csv: no column 'speedup_vs_bsp'", r.stderr)
        r = tool(os.path.join(self.tmp.name, "nowhere"))
        self.assertIn("nowhere/summary.csv: No such file or directory", r.stderr)
        r = tool(self.dir, "--target", "0")
        self.assertIn("--target 0: out of range (accepted: an accuracy in (0, 1])", r.stderr)


if __name__ == "__main__":
    unittest.main()
