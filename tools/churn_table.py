#!/usr/bin/env python3
"""Compares sweeps of one scenario's runs on two clusters, e.g. pay-as-you-go and Spot workers.

Usage: tools/churn_table.py NAME=SWEEP_DIR [NAME=SWEEP_DIR ...] [--plot FIGURE.png]
                            [--width single|double|INCHES]

For each run name and each sweep: the seeds, how many ended "ok", and the mean over its seeds of
simulated time, accuracy, cost, and what outages cost it (lost local iterations, wasted compute,
dropped updates, worker downtime), as a markdown table (summary.csv columns: docs/churn.md).
--plot draws accuracy against cost and against simulated time, one marker per run and seed,
one colour per sweep (at most six sweeps), drawn at a print width as tools/plot draws (--width,
docs/figures.md); it needs matplotlib (run under /usr/bin/python3 for Debian's).
results/README.md ("Spot workers") uses it.
"""
import argparse
import csv
import os
import statistics
import sys
import textwrap

FIGURES = [("sim_time_s", "time (min)", 1 / 60, "{:.2f}"), ("accuracy", "accuracy (%)", 100, "{:.2f}"),
           ("cost_usd", "cost ($)", 1, "{:.4f}"), ("lost_iterations", "lost iterations", 1, "{:.1f}"),
           ("wasted_compute_s", "wasted compute (s)", 1, "{:.1f}"),
           ("dropped_updates", "dropped updates", 1, "{:.1f}"),
           ("downtime_s", "worker downtime (min)", 1 / 60, "{:.1f}")]

COLOURS = ["tab:blue", "tab:orange", "tab:red", "tab:green", "tab:purple", "tab:brown"]


def read_sweep(name_dir):
    name, _, path = name_dir.partition("=")
    if not path:
        sys.exit(f"tools/churn_table.py: '{name_dir}': expected NAME=SWEEP_DIR")
    summary = os.path.join(path, "summary.csv")
    try:
        with open(summary, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"tools/churn_table.py: {summary}: {e.strerror}")
    missing = [c for c, *_ in FIGURES + [("run", 0, 0, 0), ("status", 0, 0, 0)] if rows and c not in rows[0]]
    if missing:
        sys.exit(f"tools/churn_table.py: {summary}: no column {', '.join(missing)} "
                 "(accepted: a sweep summary written with churn and cost columns)")
    return name, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweeps", nargs="+", metavar="NAME=SWEEP_DIR")
    ap.add_argument("--plot", metavar="FIGURE.png")
    ap.add_argument("--width", default="double", metavar="single|double|INCHES",
                    help="print width of the figure (default: double, 7.16 in)")
    args = ap.parse_args()
    if args.plot and len(args.sweeps) > len(COLOURS):
        sys.exit(f"tools/churn_table.py: --plot draws at most {len(COLOURS)} sweeps, "
                 f"got {len(args.sweeps)}")
    sweeps = [read_sweep(s) for s in args.sweeps]
    runs = list(dict.fromkeys(r["run"] for _, rows in sweeps for r in rows))
    print("| run | cluster | seeds (ok) | " + " | ".join(label for _, label, _, _ in FIGURES) + " |")
    print("|---|---|---|" + "---|" * len(FIGURES))
    for run in runs:
        for name, rows in sweeps:
            mine = [r for r in rows if r["run"] == run]
            if not mine:
                continue
            ok = sum(r["status"] == "ok" for r in mine)
            cells = []
            for col, _, scale, fmt in FIGURES:
                values = [float(r[col]) * scale for r in mine if r[col] != ""]
                cells.append(fmt.format(statistics.mean(values)) if values else "")
            print(f"| {run} | {name} | {len(mine)} ({ok}) | " + " | ".join(cells) + " |")
    if args.plot:
        plot(args.plot, sweeps, args.width)


def plot(path, sweeps, width):
    # tools/plot's look: the figure at its print width, 7-8.5 pt fonts, TrueType in PDF.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from hermes_plot import style
    from matplotlib.lines import Line2D

    plt = style.plt
    try:
        style.set_width(style.parse_width(width))
    except ValueError as e:
        sys.exit(f"tools/churn_table.py: --width {e}")

    # Colour: the sweep; marker: the run. Runs that did not end "ok" (diverged) are left out, so
    # that the axes show the runs that learn; the title says how many.
    runs = list(dict.fromkeys(r["run"] for _, rows in sweeps for r in rows if r["status"] == "ok"))
    markers = dict(zip(runs, "os^Dv<>pPX*h"))
    fig, (by_cost, by_time) = style.panel_grid(2, height=2.8)
    by_time.sharey(by_cost)
    left_out = 0
    for (name, rows), colour in zip(sweeps, COLOURS):
        for r in rows:
            if r["status"] != "ok":
                left_out += 1
                continue
            acc = float(r["accuracy"]) * 100
            kw = dict(color=colour, marker=markers.get(r["run"], "o"), s=16, alpha=0.8)
            by_cost.scatter(float(r["cost_usd"]), acc, **kw)
            by_time.scatter(float(r["sim_time_s"]) / 60, acc, **kw)
    by_cost.set_xlabel("cost of the run (USD)")
    by_time.set_xlabel("simulated time (min)")
    by_cost.set_ylabel("test accuracy at the best loss (%)")
    sweep_keys = [Line2D([], [], color=c, marker="o", linestyle="", label=n)
                  for (n, _), c in zip(sweeps, COLOURS)]
    run_keys = [Line2D([], [], color="grey", marker=m, linestyle="", label=r)
                for r, m in markers.items()]
    # Below the panels, never over a point: colour for the sweeps, then marker for the runs.
    keys = sweep_keys + run_keys
    style.legend_below(fig, keys, [k.get_label() for k in keys])
    title = "Accuracy against cost and time, every run and seed"
    if left_out:
        title += f" ({left_out} runs that did not end ok left out)"
    fig.suptitle("\n".join(textwrap.wrap(title, int(15 * style.width()))))
    out_dir, name = os.path.split(os.path.abspath(path))
    stem, ext = os.path.splitext(name)
    if ext[1:] not in ("png", "svg", "pdf"):
        sys.exit(f"tools/churn_table.py: --plot {path}: accepted endings: .png, .svg, .pdf")
    style.save(fig, out_dir, stem, ext[1:])
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
