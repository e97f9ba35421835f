"""Figures of a sweep directory (`hermes-sim sweep ... --out DIR`): DIR/summary.csv has one row per
point and run, with the columns `point`, one column per grid key named by its key path
(`runs.hermes.alpha`, numbers written the shortest way), then every column of a run's
summary.csv; DIR/sweep.json says which run each row is and which points there are (sweep_data).
The seeds of a grid cell are averaged. Two varying grid keys give heatmaps of simulated time,
accuracy and API calls (a third and fourth key, when they take few values, a row of heatmaps per
combination); one gives line plots (with the seeds' min-max range); a sweep without grid keys
gives line plots over its seeds. Runs that diverged or failed are left out of the means, capped
runs are marked, points not done are named: in the cells and in a line below the panels. With
summary.csv's cost_usd, cost_accuracy draws accuracy against cost and against simulated time:
one point per run and grid cell, every run of the sweep in one figure."""

import numpy as np

from . import style
from .data import select_runs
from .style import plt
from .sweep_data import SEED, Cell, Sweep, sort_key as _sort_key, value_text as _value_text

# At most this many combinations of the keys beyond the heatmap's two get a row of heatmaps each;
# more are averaged over (and the title says so).
MAX_HEATMAP_ROWS = 4


def read_sweep(path):
    """The sweep directory `path` (sweep_data.Sweep)."""
    return Sweep(path)


def _key_label(key):
    """Axis label of a grid key: "alpha (runs.hermes.alpha)"."""
    last = key.rsplit(".", 1)[-1]
    return key if last == key else "%s (%s)" % (last, key)


def _short(key):
    return key.rsplit(".", 1)[-1]


def _units(table, rows):
    """Row -> (time, accuracy %, API calls) in units readable for this sweep, and their labels."""
    t_max = max([table.number(i, "sim_time_s") for i in rows] or [0.0])
    api_max = max([table.number(i, "api_calls") for i in rows] or [0.0])
    t_div, t_unit = (60.0, "min") if t_max >= 600 else (1.0, "s")
    a_div, a_unit = (1e6, "millions") if api_max >= 1e6 else (1e3, "thousands")

    def values(i):
        return (table.number(i, "sim_time_s") / t_div, 100.0 * table.number(i, "accuracy"),
                table.number(i, "api_calls") / a_div)
    return values, ("simulated time (%s)" % t_unit, "global test accuracy (%)",
                    "API calls (%s)" % a_unit)


def _seed_text(sweep, cells, keys):
    """How many seeds each drawn value of the figure averages."""
    if keys == [SEED]:
        return "no grid keys: one run per seed"
    counts = sorted({len({sweep.table.rows[i]["seed"].strip() for i in c.rows})
                     for c in cells if c.rows})
    if not counts or counts == [1]:
        return "one run per grid point"
    n = str(counts[0]) if len(counts) == 1 else "%d-%d" % (counts[0], counts[-1])
    return "mean of %s seeds per grid point" % n


def _cell_label(keys, values):
    return ", ".join("%s=%s" % (_short(k), _value_text(v)) for k, v in zip(keys, values))


def _footnote(sweep, by_cell, keys):
    """What the figure leaves out of its means or marks, in one or two lines: the cells whose
    runs failed, the points not done, the runs a cap stopped."""
    failed, missing, timed_out, capped, stops = [], [], [], 0, {}
    drawn = 0
    for values in sorted(by_cell, key=lambda v: tuple(_sort_key(x) for x in v)):
        c = by_cell[values]
        drawn += len(c.rows)
        capped += len(c.capped)
        for why, n in c.stops.items():
            stops[why] = stops.get(why, 0) + n
        if c.failed:
            failed.append("%s (%s)" % (_cell_label(keys, values),
                                       ", ".join(p for p in c.problems()
                                                 if "missing" not in p and "capped" not in p)))
        if c.missing > c.timed_out:
            missing.append(_cell_label(keys, values))
        if c.timed_out:
            timed_out.append(_cell_label(keys, values))
    parts = []

    def listed(items):
        return "; ".join(items[:6]) + ("; and %d more" % (len(items) - 6) if len(items) > 6 else "")

    if failed:
        parts.append("not in the means: " + listed(failed))
    if missing:
        parts.append("not run (point missing from summary.csv): " + listed(missing))
    if timed_out:
        parts.append("timed out (--point-timeout; the sweep's command runs it again): " +
                     listed(timed_out))
    if capped:
        why = ", ".join("%s %d" % (k, n) for k, n in sorted(stops.items()))
        parts.append("stopped by a cap, not by patience: %s of %d drawn runs (%s)"
                     % ("all" if capped == drawn else str(capped), drawn, why))
    return "\n".join(parts)


def _pool(by_cell, keys, wanted):
    """{values of `wanted` (a sub-list of keys): Cell} pooling the other keys."""
    index = [keys.index(k) for k in wanted]
    out = {}
    for values, c in by_cell.items():
        out.setdefault(tuple(values[i] for i in index), Cell()).add(c)
    return out


def plane(sweep, by_cell, keys, kx, ky, fixed=None):
    """The (kx, ky) plane of a run's cells (keyed by `keys`): sorted x and y values, the pooled
    Cell of each (x, y) (only the cells matching `fixed`, {key: value}, when given; the other
    keys pooled), the metrics' mean per cell as an array [metric][y][x] (NaN where no row is
    drawn) in display units, and the units' labels."""
    if fixed:
        by_cell = {v: c for v, c in by_cell.items()
                   if all(v[keys.index(k)] == x for k, x in fixed.items())}
    xs = sorted({v[keys.index(kx)] for v in by_cell}, key=_sort_key)
    ys = sorted({v[keys.index(ky)] for v in by_cell}, key=_sort_key)
    cells_xy = _pool(by_cell, keys, [kx, ky])
    return xs, ys, cells_xy


def _plane_means(sweep, cells_xy, xs, ys, values):
    means = np.full((3, len(ys), len(xs)), np.nan)
    for (x, y), c in cells_xy.items():
        if c.rows:
            means[:, ys.index(y), xs.index(x)] = np.array([values(i) for i in c.rows]).mean(axis=0)
    return means


def heatmap(sweep, run, by_cell, keys, out_dir, fmt):
    kx, ky, extra = keys[0], keys[1], keys[2:]
    combos = [()]
    if extra:
        combos = sorted(_pool(by_cell, keys, extra), key=lambda v: tuple(_sort_key(x) for x in v))
        if len(combos) > MAX_HEATMAP_ROWS:
            combos = [()]
    pooled = extra if combos == [()] else []
    table = sweep.table
    all_rows = [i for c in by_cell.values() for i in c.rows]
    values, labels = _units(table, all_rows)
    planes = []
    for combo in combos:
        xs, ys, cells_xy = plane(sweep, by_cell, keys, kx, ky, dict(zip(extra, combo)))
        planes.append((combo, xs, ys, cells_xy, _plane_means(sweep, cells_xy, xs, ys, values)))
    # One colour scale per metric over every row of heatmaps, so that colours compare across rows.
    scales = []
    for m in range(3):
        finite = np.concatenate([p[4][m][np.isfinite(p[4][m])] for p in planes])
        scales.append((finite.min(), finite.max()) if finite.size else (0.0, 0.0))
    height = sum(0.3 * len(p[2]) + 1.4 for p in planes) + 1.0
    fig, axes = plt.subplots(len(planes), 3, figsize=(style.width(), height), squeeze=False)
    cmaps = ("viridis_r", "viridis", "viridis_r")  # bright = good: short, accurate, few calls
    formats = ("%.1f", "%.2f", "%.3g")
    every_cap = all(len(c.capped) == len(c.rows) and not c.failed and not c.missing
                    for c in by_cell.values())
    for row, (combo, xs, ys, cells_xy, grid_values) in enumerate(planes):
        for m in range(3):
            ax = axes[row][m]
            data = np.ma.masked_invalid(grid_values[m])
            lo, hi = scales[m]
            im = ax.imshow(data, cmap=cmaps[m], origin="lower", aspect="auto",
                           vmin=lo if hi > lo else None, vmax=hi if hi > lo else None)
            ax.set_facecolor("#eeeeee")
            if np.isfinite(grid_values[m]).any():
                cbar = fig.colorbar(im, ax=ax, shrink=0.9)
                cbar.set_label(labels[m])
            for r, y in enumerate(ys):
                for c, x in enumerate(xs):
                    cell = cells_xy.get((x, y), Cell())
                    problems = [] if every_cap else cell.problems()
                    v = grid_values[m, r, c]
                    if np.isnan(v):
                        ax.text(c, r, "\n".join(problems) or "n/a", ha="center", va="center",
                                fontsize=style.SMALL_PT, color="#b2182b" if cell.failed else "0.35")
                        continue
                    rel = 0.5 if hi == lo else (v - lo) / (hi - lo)
                    bright = rel > 0.55 if cmaps[m] == "viridis" else rel < 0.45
                    text = formats[m] % v + ("\n" + "; ".join(problems) if problems else "")
                    ax.text(c, r, text, ha="center", va="center", fontsize=style.SMALL_PT,
                            color="black" if bright else "white")
            ax.set_xticks(range(len(xs)), [_value_text(v) for v in xs])
            ax.set_yticks(range(len(ys)), [_value_text(v) for v in ys])
            ax.set_xlabel(_key_label(kx))
            ax.set_ylabel(_key_label(ky))
            title = labels[m].split(" (")[0]
            if combo:
                title += " (%s)" % _cell_label(extra, combo)
            ax.set_title(title, fontsize=style.BODY_PT if combo else None)
            ax.grid(False)
    note = _seed_text(sweep, by_cell.values(), keys)
    if pooled:
        note += "; averaged over " + ", ".join(pooled)
    fig.suptitle("Sweep of run %s over %s (%s)" % (run, " x ".join(keys), note))
    footnote = _footnote(sweep, by_cell, keys)
    if footnote:
        fig.supxlabel(footnote, fontsize=style.SMALL_PT, color="#b2182b")
    return style.save(fig, out_dir, "sweep_" + run, fmt)


def lines(sweep, run, by_cell, key, out_dir, fmt):
    table = sweep.table
    per_value = {v[0]: c for v, c in by_cell.items()}
    xs = sorted(per_value, key=_sort_key)
    numeric = all(isinstance(x, float) for x in xs)
    positions = xs if numeric else list(range(len(xs)))
    drawn = [x for x in xs if per_value[x].rows]
    values, labels = _units(table, [i for x in drawn for i in per_value[x].rows])
    fig, axes = plt.subplots(1, 3, figsize=(style.width(), 2.8))
    pos = dict(zip(xs, positions))
    some_capped = any(c.capped for c in per_value.values()) and not all(
        len(c.capped) == len(c.rows) for c in per_value.values())
    bars = False
    for m, ax in enumerate(axes):
        if drawn:
            v = [np.array([values(i)[m] for i in per_value[x].rows]) for x in drawn]
            mean = np.array([a.mean() for a in v])
            # Clipped at 0: the mean of equal values can exceed them in the last bit.
            lo = np.maximum(mean - np.array([a.min() for a in v]), 0)
            hi = np.maximum(np.array([a.max() for a in v]) - mean, 0)
            px = [pos[x] for x in drawn]
            bars = bars or bool(lo.any() or hi.any())
            # Over seeds the points are not a curve: markers only, and their mean.
            ax.errorbar(px, mean, yerr=(lo, hi) if (lo.any() or hi.any()) else None,
                        marker="o", ms=4, lw=1.3, capsize=3, color="#1f77b4",
                        ls="none" if key == SEED else "-")
            if key == SEED:
                ax.axhline(mean.mean(), color="0.5", lw=0.8, ls="--",
                           label="mean of the seeds" if m == 0 else None)
            if some_capped:  # hollow rings round the points a cap stopped
                capped = [k for k, x in enumerate(drawn) if per_value[x].capped]
                ax.plot([px[k] for k in capped], [mean[k] for k in capped], ls="none",
                        marker="o", ms=9, mfc="none", mec="#d95f02", mew=1.2,
                        label="stopped by a cap" if m == 0 else None)
        # Values with nothing to draw: a cross on the axis and what happened there.
        for x in xs:
            c = per_value[x]
            if c.rows:
                continue
            ax.plot([pos[x]], [0.02], transform=ax.get_xaxis_transform(), marker="x", ms=7,
                    color="#b2182b", ls="none", clip_on=False)
            ax.text(pos[x], 0.06, "\n".join(c.problems()), transform=ax.get_xaxis_transform(),
                    ha="center", va="bottom", fontsize=style.SMALL_PT, color="#b2182b", rotation=90)
        if not numeric:
            ax.set_xticks(positions, [_value_text(v) for v in xs])
        elif all(float(x).is_integer() for x in xs):  # e.g. a cap, a window or a seed
            style.integer_ticks(ax.xaxis)
        ax.set_xlabel(_key_label(key))
        ax.set_ylabel(labels[m])
        ax.set_title(labels[m].split(" (")[0])
    if some_capped or key == SEED:
        axes[0].legend(fontsize=style.SMALL_PT, loc="best")
    fig.suptitle("Sweep of run %s over %s (%s%s)"
                 % (run, key, _seed_text(sweep, per_value.values(), [key]),
                    "; bar: min-max" if bars else ""))
    footnote = _footnote(sweep, by_cell, [key])
    if footnote:
        fig.supxlabel(footnote, fontsize=style.SMALL_PT, color="#b2182b")
    return style.save(fig, out_dir, "sweep_" + run, fmt)


def cost_accuracy(sweep, runs, out_dir, fmt):
    """Accuracy against cost (left) and against simulated time (right): for each run, one marker
    per grid cell at the mean of its seeds' drawn rows (ok, capped included), bars from their min
    to max, labelled with the cell's values of the keys that vary the run (up to 30 labels). A
    run the grid does not change is a single point: the reference the others cost against. The
    rows left out (failed, without a cost) and the missing points are named below the panels.
    None if no run has a cost."""
    table = sweep.table
    series, left_out, missing = [], {}, 0
    for run in runs:
        keys = [k for k in sweep.axes(run) if k != SEED]
        by_cell = sweep.cells(run, keys)
        ordered = sorted(by_cell, key=lambda v: tuple(_sort_key(x) for x in v))
        points = []
        for values in ordered:
            c = by_cell[values]
            for status, n in c.failed.items():
                left_out[status] = left_out.get(status, 0) + n
            missing += c.missing
            rows = [i for i in c.rows if table.number(i, "cost_usd", True) is not None]
            if len(rows) < len(c.rows):
                left_out["no cost"] = left_out.get("no cost", 0) + len(c.rows) - len(rows)
            if rows:
                points.append((_cell_label(keys, values), rows))
        if points:
            series.append((run, points))
    if not series:
        return None
    all_rows = [i for _, points in series for _, rows in points for i in rows]
    labelled = sum(len(points) for _, points in series) <= 30
    t_div, t_unit = (60.0, "min") if max(table.number(i, "sim_time_s")
                                         for i in all_rows) >= 600 else (1.0, "s")
    fig, axes = plt.subplots(1, 2, figsize=(style.width(), 3.3), sharey=True)
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
    notes = ["%d %s" % (n, why) for why, n in sorted(left_out.items())]
    if missing:
        notes.append("%d not run (points missing from summary.csv)" % missing)
    if notes:
        fig.supxlabel("runs not drawn: " + ", ".join(notes), fontsize=style.SMALL_PT, color="#b2182b")
    return style.save(fig, out_dir, "cost_accuracy", fmt)


def sweep_figures(path, out_dir, notes, only, fmt):
    """Heatmaps or line plots for each run of the sweep (or the comma-separated runs `only`) and
    the cost figure; returns the files written (none, with notes saying why, when the sweep has
    nothing to draw yet: a valid sweep is never an error)."""
    sweep = Sweep(path)
    missing, timed_out = sweep.missing_points(), sweep.timed_out()
    if missing:
        names = ["%s (timed out after %s s)" % (p, _value_text(float(timed_out[p])))
                 if isinstance(timed_out.get(p), (int, float)) else p for p, _, _ in missing]
        notes.append("%d of the %d points of %s/sweep.json have no row in summary.csv (not run "
                     "yet, interrupted or timed out; the sweep's own command runs them): %s"
                     % (len(missing), len(sweep.points), path,
                        ", ".join(names[:10]) + (", ..." if len(names) > 10 else "")))
    if sweep.table is None or not sweep.table.rows:
        notes.append("%s: no point is done yet: nothing to draw" % path)
        if only:
            select_runs(only, sweep.runs, path + "/sweep.json")
        return []
    runs = select_runs(only, sweep.runs, sweep.table.path)
    written = []
    for run in runs:
        keys = sweep.axes(run)
        if not sweep.rows_of(run):
            notes.append("run %s: no rows in %s" % (run, sweep.table.path))
        elif not keys:
            notes.append("run %s: the grid (%s) does not vary it" % (
                run, ", ".join(sweep.grid) or "no grid keys, one seed"))
        else:
            by_cell = sweep.cells(run, keys)
            if len(keys) == 1:
                written.append(lines(sweep, run, by_cell, keys[0], out_dir, fmt))
            else:
                written.append(heatmap(sweep, run, by_cell, keys, out_dir, fmt))
    if "cost_usd" not in sweep.table.columns:
        notes.append("cost: %s has no cost_usd column (a sweep from before costs): no "
                     "cost_accuracy figure" % sweep.table.path)
    else:
        figure = cost_accuracy(sweep, runs, out_dir, fmt)
        if figure:
            written.append(figure)
        else:
            notes.append("cost: no ok row with a cost_usd in %s" % sweep.table.path)
    if not written:
        notes.append("nothing drawn from %s (the notes above say why)" % path)
    return written
