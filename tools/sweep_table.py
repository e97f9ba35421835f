#!/usr/bin/env python3
"""Averages every run of a sweep over its seeds, as a markdown table.

Usage: tools/sweep_table.py SWEEP_DIR [SWEEP_DIR ...] [--target ACCURACY]

For each run name of SWEEP_DIR/summary.csv (`hermes-sim sweep`) and each combination of the
sweep's grid values (the columns between `point` and `run`; such a row is named like
"bsp (cluster.ps.shards=2)"), in file order, the sweeps one after the other: its protocol, the
runs averaged, their statuses and stop reasons, and the mean over them, with the range (min-max)
where they differ, of simulated time, accuracy, the time the global accuracy first reached
--target (default 0.97, from each point's global.csv: runs that never reach it are counted, not
averaged), updates applied, API calls, bytes, cost and the speedup over BSP (over the runs that
have one: summary.csv leaves it empty for a run that diverged or was cut by a cap). The time to a
common accuracy compares protocols that stop at different accuracies; summary.csv's own
speedup does not. Standard library only. results/README.md ("The protocols beside Hermes") uses
it.
"""
import argparse
import collections
import csv
import os
import statistics
import sys

NEEDED = ["point", "run", "protocol", "status", "stop_reason", "sim_time_s", "accuracy",
          "iterations", "api_calls", "bytes", "cost_usd", "speedup_vs_bsp"]


def fail(message):
    sys.exit("tools/sweep_table.py: " + message)


def read_csv(path, needed):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in needed if c not in (reader.fieldnames or [])]
            if missing:
                fail(f"{path}: no column '{missing[0]}' (needs: {', '.join(needed)})")
            return list(reader)
    except OSError as e:
        fail(f"{path}: {e.strerror}")


def number(path, row, column):
    try:
        return float(row[column])
    except ValueError:
        fail(f"{path}: run {row.get('run', '?')}: column '{column}' is not a number: "
             f"'{row[column]}'")


def reach_times(sweep, rows, target):
    """(point, run) -> first global evaluation time (s) at or above target, or None."""
    out = {}
    for point in sorted({r["point"] for r in rows}):
        path = os.path.join(sweep, "points", point, "global.csv")
        for e in read_csv(path, ["run", "time_s", "accuracy"]):
            key = (point, e["run"])
            if key not in out:
                out[key] = None
            if out[key] is None and number(path, e, "accuracy") >= target:
                out[key] = number(path, e, "time_s")
    return out


def cell(values, fmt):
    if not values:
        return "-"
    mean = fmt % statistics.fmean(values)
    if min(values) == max(values):
        return mean
    return f"{mean} ({fmt % min(values)}-{fmt % max(values)})"


def grid_columns(path):
    """The sweep's grid keys: summary.csv's columns between `point` and `run`."""
    with open(path, newline="") as f:
        header = next(csv.reader(f), [])
    return header[header.index("point") + 1:header.index("run")]


def table(sweeps, target):
    pct = f"{target * 100:g}%"
    lines = [
        f"| run | protocol | runs | status (stop) | time (min) | accuracy (%) | to {pct} (min) | "
        "updates | API calls (k) | bytes (GB) | cost ($) | speedup vs BSP |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for sweep in sweeps:
        lines += sweep_rows(sweep, target)
    return "\n".join(lines)


def sweep_rows(sweep, target):
    path = os.path.join(sweep, "summary.csv")
    rows = read_csv(path, NEEDED)
    grid = grid_columns(path)
    reach = reach_times(sweep, rows, target)
    runs = collections.OrderedDict()
    for r in rows:
        values = ", ".join(f"{k}={r[k]}" for k in grid)
        runs.setdefault((r["run"], values), []).append(r)
    lines = []
    for (name, values), rs in runs.items():
        endings = collections.Counter(f"{r['status']} ({r['stop_reason']})" for r in rs)
        status = (next(iter(endings)) if len(endings) == 1
                  else ", ".join(f"{n} {e}" for e, n in endings.items()))
        reached = [reach.get((r["point"], name)) for r in rs]
        label = f"{name} ({values})" if values else name
        to_target = cell([t / 60 for t in reached if t is not None], "%.2f")
        if all(t is None for t in reached):
            to_target = "never"
        elif None in reached:
            to_target += f" ({sum(t is not None for t in reached)} of {len(rs)} reached)"
        speedups = [number(path, r, "speedup_vs_bsp") for r in rs if r["speedup_vs_bsp"]]
        speedup = cell(speedups, "%.2f") + "x" if speedups else "-"
        if speedups and len(speedups) != len(rs):
            speedup += f" ({len(speedups)} of {len(rs)})"
        lines.append("| " + " | ".join([
            label, rs[0]["protocol"], str(len(rs)), status,
            cell([number(path, r, "sim_time_s") / 60 for r in rs], "%.2f"),
            cell([number(path, r, "accuracy") * 100 for r in rs], "%.2f"), to_target,
            cell([number(path, r, "iterations") for r in rs], "%.0f"),
            cell([number(path, r, "api_calls") / 1e3 for r in rs], "%.0f"),
            cell([number(path, r, "bytes") / 1e9 for r in rs], "%.2f"),
            cell([number(path, r, "cost_usd") for r in rs], "%.3f"), speedup]) + " |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sweeps", metavar="SWEEP_DIR", nargs="+",
                        help="sweep directories; their rows follow each other in one table")
    parser.add_argument("--target", type=float, default=0.97,
                        help="the accuracy (0..1) whose first time is shown (default 0.97)")
    args = parser.parse_args()
    if not 0 < args.target <= 1:
        fail(f"--target {args.target:g}: out of range (accepted: an accuracy in (0, 1])")
    print(table(args.sweeps, args.target))


if __name__ == "__main__":
    main()
