"""The comparison table as grouped bars: this simulation beside a reference table (by default the
paper's, results/reference/paper-mnist.csv), joined exactly as `hermes-sim compare` joins them
(sim/metrics/comparison.h, results/reference/README.md):

- ok runs with the same protocol and the same canonical params form a configuration; its runs
  (seeds) are averaged, their min-max range drawn as an error bar;
- a configuration matches the reference row of its protocol whose params are a subset of its own
  with equal values; of several, the one naming the most params, then the first;
- speedup: summary.csv's speedup_vs_bsp when every run has it, else mean BSP time / mean time
  against the BSP configuration matched to the reference BSP row (the one with most runs).
"""

import os
import textwrap

from . import style
from .data import REFERENCE_COLUMNS, parse_params, params_match, read_table
from .style import plt

# (title, axis label, value of a summary row, reference column, label format)
METRICS = (
    ("Training time", "time (min)", lambda r: r["sim_time_s"] / 60.0, "training_time_min", "%.1f"),
    ("API calls", "API calls (millions)", lambda r: r["api_calls"] / 1e6, "api_calls_m", "%.3g"),
    ("Accuracy", "global test accuracy (%)", lambda r: 100.0 * r["accuracy"], "accuracy_pct",
     "%.1f"),
    ("Speedup", "speedup vs BSP (x)", None, "speedup_vs_bsp", "%.2f"),
)


class Config:
    def __init__(self, protocol, params):
        self.protocol = protocol
        self.params = params
        self.rows = []  # summary rows (dicts of floats and texts)
        self.ref = None  # index of the matched reference row
        self.speedup = None  # (mean, min, max)

    def stat(self, value):
        values = [value(r) for r in self.rows]
        return sum(values) / len(values), min(values), max(values)


def summary_rows(table):
    """summary.csv rows as dicts; numbers as floats (None when empty)."""
    rows = []
    for i, raw in enumerate(table.rows):
        row = {k: v.strip() for k, v in raw.items()}
        if row["status"] == "ok":
            for column in ("sim_time_s", "accuracy", "api_calls"):
                row[column] = table.number(i, column)
            row["speedup_vs_bsp"] = table.number(i, "speedup_vs_bsp", allow_empty=True)
        rows.append(row)
    return rows


def build_configs(rows, reference):
    """Configurations of the ok rows, matched to `reference` rows (dicts with parsed params)."""
    configs = []
    for row in rows:
        if row["status"] != "ok":
            continue
        params = parse_params(row["params"])
        config = next((c for c in configs
                       if c.protocol == row["protocol"] and c.params == params), None)
        if config is None:
            config = Config(row["protocol"], params)
            configs.append(config)
        config.rows.append(row)
    for config in configs:
        for i, ref in enumerate(reference):
            if ref["protocol"] != config.protocol or not params_match(ref["params"], config.params):
                continue
            if config.ref is None or len(ref["params"]) > len(reference[config.ref]["params"]):
                config.ref = i
    bsp_ref = next((i for i, r in enumerate(reference) if r["protocol"] == "bsp"), None)
    baseline = None
    for config in configs:
        if bsp_ref is not None and config.ref == bsp_ref:
            if baseline is None or len(config.rows) > len(baseline.rows):
                baseline = config
    for config in configs:
        if all(r["speedup_vs_bsp"] is not None for r in config.rows):
            config.speedup = config.stat(lambda r: r["speedup_vs_bsp"])
        elif baseline is not None:
            bsp_time = baseline.stat(lambda r: r["sim_time_s"])[0]
            mean, lo, hi = config.stat(lambda r: r["sim_time_s"])
            config.speedup = (bsp_time / mean, bsp_time / hi, bsp_time / lo)
    return configs


def read_reference(path):
    table = read_table(path, REFERENCE_COLUMNS)
    out = []
    for i, raw in enumerate(table.rows):
        row = {k: v.strip() for k, v in raw.items()}
        row["params"] = parse_params(row["params"])
        for column in ("training_time_min", "accuracy_pct", "api_calls_m", "speedup_vs_bsp"):
            row[column] = table.number(i, column)
        out.append(row)
    return out


def ordered(configs, reference):
    """Matched configurations in reference order, then the unmatched ones in file order, each
    with its label."""
    out = []
    for i, ref in enumerate(reference):
        matched = [c for c in configs if c.ref == i]
        for c in matched:
            runs = ", ".join(r["run"] for r in c.rows)
            out.append((c, ref["framework"] if len(matched) == 1 else
                        "%s [%s]" % (ref["framework"], runs)))
    for c in configs:
        if c.ref is None:
            out.append((c, "%s (not in reference)" % ", ".join(r["run"] for r in c.rows)))
    return out


def comparison(summary_table, reference, reference_path, out_dir):
    """Grouped bars of time, API calls, accuracy and speedup: the simulation beside `reference`
    (read_reference of reference_path)."""
    configs = build_configs(summary_rows(summary_table), reference)
    if not configs:
        return None
    items = ordered(configs, reference)
    labels = [textwrap.fill(label, 16) for _, label in items]
    seeds = sorted({len(c.rows) for c, _ in items})
    fig, axes = plt.subplots(2, 2, figsize=(max(8.0, 1.1 * len(items) + 4.0), 7.5))
    width = 0.38
    xs = range(len(items))
    for ax, (title, ylabel, value, ref_column, fmt) in zip(axes.flat, METRICS):
        sim, lo, hi, paper = [], [], [], []
        for c, _ in items:
            s = c.speedup if value is None else c.stat(value)
            sim.append(s[0] if s else float("nan"))
            lo.append(max(s[0] - s[1], 0.0) if s else 0.0)
            hi.append(max(s[2] - s[0], 0.0) if s else 0.0)
            paper.append(reference[c.ref][ref_column] if c.ref is not None else float("nan"))
        errors = (lo, hi) if any(lo) or any(hi) else None
        # A configuration without a paper value gets one centred bar.
        at = [x - width / 2 if p == p else x for x, p in zip(xs, paper)]
        b_sim = ax.bar(at, sim, width, color="#1f77b4", yerr=errors, capsize=3,
                       error_kw={"lw": 0.8}, label="this simulation")
        b_ref = ax.bar([x + width / 2 for x in xs], paper, width, color="#bbbbbb",
                       edgecolor="#555555", hatch="//", lw=0.5, label="paper")
        for bars in (b_sim, b_ref):
            ax.bar_label(bars, labels=["" if v != v else fmt % v for v in bars.datavalues],
                         fontsize=7, padding=2)
        ax.set_title(title)
        ax.set_ylabel(ylabel)
        ax.set_xticks(list(xs), labels, fontsize=8)
        ax.grid(axis="x", visible=False)
        finite = [v for v in sim + paper if v == v]
        if title == "Accuracy" and finite:
            # Accuracies differ by tenths of a point: start the axis a little below the lowest bar.
            ax.set_ylim(max(0.0, 5 * ((min(finite) - 2) // 5)), 100)
        elif finite and min(finite) > 0 and max(finite) / min(finite) > 30:
            # E.g. API calls without polling: thousands beside the paper's millions.
            ax.set_yscale("log")
            ax.set_ylim(min(finite) / 2, max(finite) * 4)
            ax.set_ylabel(ylabel + ", log scale")
        elif finite:
            ax.set_ylim(0, 1.15 * max(finite))
    axes.flat[0].legend(loc="upper right")
    seed_text = ("%d run each" % seeds[0] if seeds == [1] else
                 "mean of %s runs (seeds), bar: min-max" % "/".join(str(s) for s in seeds))
    fig.suptitle("Simulation beside %s (%s; paper time is wall-clock, ours simulated)"
                 % (os.path.basename(reference_path), seed_text), fontsize=10)
    return style.save(fig, out_dir, "comparison.png")
