"""Figures of a sweep directory (`hermes-sim sweep ... --out DIR`): DIR/summary.csv has one row per
point and run, with the columns `point`, one column per grid key named by its key path
(`runs.hermes.alpha`, numbers written the shortest way), then every column of a run's
summary.csv. The seeds of a grid cell are averaged. Two varying grid keys give heatmaps of
simulated time, accuracy and API calls; one gives line plots (with the seeds' min-max range).
With summary.csv's cost_usd, cost_accuracy draws accuracy against cost and against simulated
time: one point per run and grid cell, every run of the sweep in one figure."""

import os
import re

import numpy as np

from . import style
from .data import SUMMARY_COLUMNS, PlotError, canonical_value, read_table, select_runs
from .style import plt

def read_sweep(path):
    """DIR/summary.csv and its grid keys: the columns between `point` and `run`."""
    table = read_table(os.path.join(path, "summary.csv"), ("point",) + SUMMARY_COLUMNS)
    start, end = table.columns.index("point"), table.columns.index("run")
    grid = table.columns[start + 1:end]
    if not grid:
        raise PlotError("%s: no grid columns (expected columns named by key path, e.g. "
                        "runs.hermes.alpha, between point and run)" % table.path)
    return table, grid


def _affects(key, run):
    """Whether grid key `key` can change run `run`: runs.<name>.x only changes run <name>."""
    m = re.match(r"runs\.([^.]+)\.", key)
    return m is None or m.group(1) == run


def cells(table, grid, run):
    """{grid values: [row indices]} of the ok rows of `run`, and the grid keys that vary for it."""
    out = {}
    for i, row in enumerate(table.rows):
        if row["run"].strip() != run or row["status"].strip() != "ok":
            continue
        out.setdefault(tuple(canonical_value(row[k]) for k in grid), []).append(i)
    varying = [k for n, k in enumerate(grid)
               if _affects(k, run) and len({key[n] for key in out}) > 1]
    return out, varying


def _key_label(key):
    """Axis label of a grid key: "alpha (runs.hermes.alpha)"."""
    last = key.rsplit(".", 1)[-1]
    return key if last == key else "%s (%s)" % (last, key)


def _value_text(v):
    return ("%g" % v) if isinstance(v, float) else str(v)


def _sort_key(v):
    return (0, v, "") if isinstance(v, float) else (1, 0.0, v)


def _units(table, rows):
    """Row -> (time, accuracy %, API calls) in units readable for this sweep, and their labels."""
    t_max = max(table.number(i, "sim_time_s") for i in rows)
    api_max = max(table.number(i, "api_calls") for i in rows)
    t_div, t_unit = (60.0, "min") if t_max >= 600 else (1.0, "s")
    a_div, a_unit = (1e6, "millions") if api_max >= 1e6 else (1e3, "thousands")

    def values(i):
        return (table.number(i, "sim_time_s") / t_div, 100.0 * table.number(i, "accuracy"),
                table.number(i, "api_calls") / a_div)
    return values, ("simulated time (%s)" % t_unit, "global test accuracy (%)",
                    "API calls (%s)" % a_unit)


def _seed_text(groups):
    counts = sorted({len(rows) for rows in groups})
    if counts == [1]:
        return "one run per grid point"
    n = str(counts[0]) if len(counts) == 1 else "%d-%d" % (counts[0], counts[-1])
    return "mean of %s seeds per grid point" % n


def _stats(groups, values):
    """Per group: (mean, min, max) of each metric over its rows."""
    out = []
    for rows in groups:
        v = np.array([values(i) for i in rows])
        out.append((v.mean(axis=0), v.min(axis=0), v.max(axis=0)))
    return out


def plane(table, grid, by_cell, kx, ky):
    """The (kx, ky) plane of a sweep: sorted x and y values, the rows of each (x, y) cell (other
    varying keys, if any, pooled), the metrics' mean per cell as an array [metric][y][x] (NaN where
    no row) in display units, and the units' labels."""
    ix, iy = grid.index(kx), grid.index(ky)
    xs = sorted({c[ix] for c in by_cell}, key=_sort_key)
    ys = sorted({c[iy] for c in by_cell}, key=_sort_key)
    cells_xy = {}
    for cell, rows in by_cell.items():
        cells_xy.setdefault((cell[ix], cell[iy]), []).extend(rows)
    values, labels = _units(table, [i for rows in cells_xy.values() for i in rows])
    means = np.full((3, len(ys), len(xs)), np.nan)
    for (x, y), rows in cells_xy.items():
        means[:, ys.index(y), xs.index(x)] = np.array([values(i) for i in rows]).mean(axis=0)
    return xs, ys, cells_xy, means, labels


def heatmap(table, grid, run, by_cell, keys, out_dir, fmt):
    kx, ky = keys[0], keys[1]
    xs, ys, cells_xy, grid_values, labels = plane(table, grid, by_cell, kx, ky)
    fig, axes = plt.subplots(1, 3, figsize=(style.width(), 0.3 * len(ys) + 2.4))
    cmaps = ("viridis_r", "viridis", "viridis_r")  # bright = good: short, accurate, few calls
    formats = ("%.1f", "%.2f", "%.3g")
    for m, ax in enumerate(axes):
        data = np.ma.masked_invalid(grid_values[m])
        im = ax.imshow(data, cmap=cmaps[m], origin="lower", aspect="auto")
        ax.set_facecolor("#eeeeee")
        cbar = fig.colorbar(im, ax=ax, shrink=0.9)
        cbar.set_label(labels[m])
        lo, hi = (np.nanmin(grid_values[m]), np.nanmax(grid_values[m]))
        for r in range(len(ys)):
            for c in range(len(xs)):
                v = grid_values[m, r, c]
                if np.isnan(v):
                    ax.text(c, r, "n/a", ha="center", va="center", fontsize=style.SMALL_PT, color="0.4")
                    continue
                rel = 0.5 if hi == lo else (v - lo) / (hi - lo)
                bright = rel > 0.55 if cmaps[m] == "viridis" else rel < 0.45
                ax.text(c, r, formats[m] % v, ha="center", va="center", fontsize=style.SMALL_PT,
                        color="black" if bright else "white")
        ax.set_xticks(range(len(xs)), [_value_text(v) for v in xs])
        ax.set_yticks(range(len(ys)), [_value_text(v) for v in ys])
        ax.set_xlabel(_key_label(kx))
        ax.set_ylabel(_key_label(ky))
        ax.set_title(labels[m].split(" (")[0])
        ax.grid(False)
    note = _seed_text(cells_xy.values())
    if len(keys) > 2:
        note += "; averaged over " + ", ".join(keys[2:])
    fig.suptitle("Sweep of run %s over %s x %s (%s)" % (run, kx, ky, note))
    return style.save(fig, out_dir, "sweep_" + run, fmt)


def lines(table, grid, run, by_cell, key, out_dir, fmt):
    ik = grid.index(key)
    per_value = {}
    for cell, rows in by_cell.items():
        per_value.setdefault(cell[ik], []).extend(rows)
    xs = sorted(per_value, key=_sort_key)
    numeric = all(isinstance(x, float) for x in xs)
    positions = xs if numeric else list(range(len(xs)))
    values, labels = _units(table, [i for rows in per_value.values() for i in rows])
    stats = _stats([per_value[x] for x in xs], values)
    fig, axes = plt.subplots(1, 3, figsize=(style.width(), 2.6))
    for m, ax in enumerate(axes):
        mean = np.array([s[0][m] for s in stats])
        # Clipped at 0: the mean of equal values can exceed them in the last bit.
        lo = np.maximum(mean - np.array([s[1][m] for s in stats]), 0)
        hi = np.maximum(np.array([s[2][m] for s in stats]) - mean, 0)
        ax.errorbar(positions, mean, yerr=(lo, hi) if (lo.any() or hi.any()) else None,
                    marker="o", ms=4, lw=1.3, capsize=3, color="#1f77b4")
        if not numeric:
            ax.set_xticks(positions, [_value_text(v) for v in xs])
        elif all(float(x).is_integer() for x in xs):  # e.g. a cap or a window: whole numbers
            style.integer_ticks(ax.xaxis)
        ax.set_xlabel(_key_label(key))
        ax.set_ylabel(labels[m])
        ax.set_title(labels[m].split(" (")[0])
    fig.suptitle("Sweep of run %s over %s (%s%s)"
                 % (run, key, _seed_text(per_value.values()),
                    "; bar: min-max" if any(len(r) > 1 for r in per_value.values()) else ""))
    return style.save(fig, out_dir, "sweep_" + run, fmt)


def _cell_order(cell):
    return tuple(_sort_key(v) for v in cell)


def cost_accuracy(table, grid, runs, out_dir, fmt):
    """Accuracy against cost (left) and against simulated time (right): for each run, one marker
    per grid cell at the mean of its seeds' ok rows, bars from their min to max, labelled with the
    cell's values of the keys that vary the run (up to 30 labels). A run the grid does not change
    is a single point: the reference the others cost against. None if no run has a cost."""
    series = []
    for run in runs:
        by_cell, varying = cells(table, grid, run)
        ordered = sorted(by_cell, key=_cell_order)
        groups = [(", ".join("%s=%s" % (k.rsplit(".", 1)[-1], _value_text(cell[grid.index(k)]))
                             for k in varying), by_cell[cell]) for cell in ordered]
        if not varying:  # the same run at every grid point: one point over all its rows
            groups = [("", [i for cell in ordered for i in by_cell[cell]])]
        points = []
        for label, group in groups:
            rows = [i for i in group if table.number(i, "cost_usd", True) is not None]
            if rows:
                points.append((label, rows))
        if points:
            series.append((run, points))
    if not series:
        return None
    all_rows = [i for _, points in series for _, rows in points for i in rows]
    labelled = sum(len(points) for _, points in series) <= 30
    t_div, t_unit = (60.0, "min") if max(table.number(i, "sim_time_s")
                                         for i in all_rows) >= 600 else (1.0, "s")
    fig, axes = plt.subplots(1, 2, figsize=(style.width(), 3.2), sharey=True)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (run, points) in enumerate(series):
        colour = colours[k % len(colours)]
        acc = [[100.0 * table.number(i, "accuracy") for i in rows] for _, rows in points]
        xs = ([[table.number(i, "cost_usd") for i in rows] for _, rows in points],
              [[table.number(i, "sim_time_s") / t_div for i in rows] for _, rows in points])
        for ax, x in zip(axes, xs):
            xm = np.array([np.mean(v) for v in x])
            ym = np.array([np.mean(v) for v in acc])
            # Clipped at 0: the mean of equal values can exceed them in the last bit.
            xerr = (np.maximum(xm - [min(v) for v in x], 0), np.maximum([max(v) for v in x] - xm, 0))
            yerr = (np.maximum(ym - [min(v) for v in acc], 0),
                    np.maximum([max(v) for v in acc] - ym, 0))
            ax.errorbar(xm, ym, xerr=xerr, yerr=yerr, marker="o", ms=4, ls="none", lw=1.0,
                        capsize=2, color=colour, label=run if ax is axes[0] else None)
            for (label, _), px, py in zip(points, xm, ym):
                if labelled and label:
                    ax.annotate(label, (px, py), xytext=(3, 3), textcoords="offset points",
                                fontsize=style.SMALL_PT, color=colour)
    axes[0].set_xlabel("cost of the run (USD)")
    axes[1].set_xlabel("simulated time (%s)" % t_unit)
    axes[0].set_ylabel("global test accuracy (%)")
    axes[0].set_title("accuracy against cost")
    axes[1].set_title("accuracy against time")
    axes[0].legend(fontsize=style.SMALL_PT)
    fig.suptitle("Sweep: accuracy against cost and time (a point: a run at a grid point, mean "
                 "of its seeds; one point for a run the grid does not change; bars: min-max)",
                 fontsize=style.BODY_PT)
    return style.save(fig, out_dir, "cost_accuracy", fmt)


def sweep_figures(path, out_dir, notes, only, fmt):
    """Heatmaps or line plots for each run of the sweep (or the comma-separated runs `only`);
    returns the files written."""
    table, grid = read_sweep(path)
    runs = []
    for name in (r["run"].strip() for r in table.rows):
        if name not in runs:
            runs.append(name)
    runs = select_runs(only, runs, table.path)
    written = []
    for run in runs:
        by_cell, varying = cells(table, grid, run)
        if not by_cell:
            notes.append("run %s: no ok rows in %s" % (run, table.path))
        elif not varying:
            notes.append("run %s: the grid (%s) does not vary it" % (run, ", ".join(grid)))
        elif len(varying) == 1:
            written.append(lines(table, grid, run, by_cell, varying[0], out_dir, fmt))
        else:
            written.append(heatmap(table, grid, run, by_cell, varying, out_dir, fmt))
    if not written:
        raise PlotError("%s: nothing to draw (%s)" % (table.path, "; ".join(notes)))
    # With something the grid varies: the cost figure, every selected run in it.
    if "cost_usd" not in table.columns:
        notes.append("cost: %s has no cost_usd column (a sweep from before costs): no "
                     "cost_accuracy figure" % table.path)
    else:
        figure = cost_accuracy(table, grid, runs, out_dir, fmt)
        if figure:
            written.append(figure)
        else:
            notes.append("cost: no ok row with a cost_usd in %s" % table.path)
    return written
