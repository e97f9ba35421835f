#!/usr/bin/env python3
"""Prints, per configuration, how two `hermes-sim compare --format csv` tables differ.

Usage: tools/compare_diff.py BEFORE.csv AFTER.csv [--names clean,released-code]

For each configuration (row label) found in both, the mean of each figure in BEFORE and AFTER
and the change (AFTER - BEFORE, and the ratio where both are non-zero), as a markdown table.
results/README.md uses it for the MNIST table under the two accountings. Standard library only.
"""
import argparse
import csv
import sys

FIGURES = [("iterations_sim", "iterations", "{:.0f}"), ("time_min_sim", "time (min)", "{:.2f}"),
           ("wi_avg_sim", "WI", "{:.2f}"), ("accuracy_pct_sim", "accuracy (%)", "{:.2f}"),
           ("api_calls_m_sim", "API calls (M)", "{:.2f}"),
           ("speedup_vs_bsp_sim", "speedup vs BSP", "{:.2f}x")]


def rows(path):
    try:
        with open(path, newline="") as f:
            return {r["label"]: r for r in csv.DictReader(f) if r.get("runs", "0") not in ("", "0")}
    except OSError as e:
        sys.exit(f"tools/compare_diff.py: {path}: {e.strerror}")
    except KeyError:
        sys.exit(f"tools/compare_diff.py: {path}: no 'label' column (accepted: the CSV of "
                 "`hermes-sim compare --format csv`)")


def cell(before, after, fmt):
    if before == "" or after == "":
        return f"{fmt.format(float(before)) if before else '-'} -> " \
               f"{fmt.format(float(after)) if after else '-'}"
    b, a = float(before), float(after)
    ratio = f" ({a / b:.2f}x)" if b != 0 and a != 0 else ""
    return f"{fmt.format(b)} -> {fmt.format(a)}{ratio}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--names", default="before,after", help="the two sides' names for the title")
    args = ap.parse_args()
    before, after = rows(args.before), rows(args.after)
    names = args.names.split(",")
    if len(names) != 2:
        sys.exit("tools/compare_diff.py: --names takes two names separated by a comma")
    print(f"| framework | runs ({names[0]} / {names[1]}) | " +
          " | ".join(title for _, title, _ in FIGURES) + " |")
    print("|---|---:|" + "---:|" * len(FIGURES))
    for label, b in before.items():
        a = after.get(label)
        if a is None:
            continue
        cells = [cell(b[key], a[key], fmt) for key, _, fmt in FIGURES]
        print(f"| {label} | {b['runs']} / {a['runs']} | " + " | ".join(cells) + " |")
    only = sorted(set(before) ^ set(after))
    if only:
        print(f"\nin one table only: {', '.join(only)}")


if __name__ == "__main__":
    main()
