"""Line plots of a sweep over one varying grid key, or over its seeds when it has no grid keys
(sweep_figures dispatches here): simulated time, accuracy and API calls against the key, the mean
of the ok seeds at each value with their min-max range. Seeds that diverged are never averaged in
nor silently left out: a value says how many diverged (a red x at its foot), which a cap stopped
(an open marker), and which points are missing or timed out (a grey square)."""

import numpy as np
from matplotlib import ticker, transforms
from matplotlib.lines import Line2D

from . import style
from .sweep_data import SEED, sort_key as _sort_key, value_text as _value_text
from .sweep_layout import _axis_inches, _balanced, _frame, _legend, _stacked, _value_ticks, \
    _width_pt
from .sweep_words import _BETTER, _axis_names, _cap_keys, _every_cap, _failed_words, \
    _seed_text, _units

FAILED_COLOUR = "#d62728"


def lines(sweep, run, by_cell, key, out_dir, fmt):
    """Simulated time, accuracy and API calls against the one varying key (or the seeds, in a
    sweep without grid keys: markers and their mean, no line): the mean of the ok seeds at each
    value, bars from their min to max; an open marker where a cap stopped seeds, a red x at the
    foot of a value where seeds diverged, a grey square where points are missing or timed out
    (the notes say how many), the line broken where no seed is ok."""
    table = sweep.table
    per_value = {v[0]: c for v, c in by_cell.items()}
    xs = sorted(per_value, key=_sort_key)
    numeric = all(isinstance(x, float) for x in xs)
    positions = np.array(xs if numeric else range(len(xs)), dtype=float)
    cells = [per_value[x] for x in xs]
    values, labels = _units(table, [i for c in cells for i in c.rows])
    mean, low, high = (np.full((3, len(xs)), np.nan) for _ in range(3))
    for j, c in enumerate(cells):
        if c.rows:
            v = np.array([values(i) for i in c.rows])
            mean[:, j], low[:, j], high[:, j] = v.mean(axis=0), v.min(axis=0), v.max(axis=0)
    every_cap = _every_cap(by_cell)
    capped = [] if every_cap else [j for j, c in enumerate(cells) if c.capped]
    bad = [j for j, c in enumerate(cells) if c.failed]
    absent = [j for j, c in enumerate(cells) if c.missing]
    names, paths = _axis_names([key])
    name = names[key]
    words = _failed_words(cells)

    def where(counts):
        """The values where `counts` (a number per value) is not 0, and how many of their
        seeds."""
        out = []
        for j, k in enumerate(counts):
            n = cells[j].total()
            if k:
                out.append("%s=%s (%s)" % (name, _value_text(xs[j]), "every seed"
                                           if k == n else "%d/%d seeds" % (k, n)))
        return ", ".join(out)
    handles, texts = [], []
    spread = any(len(c.rows) > 1 for c in cells) and key != SEED
    notes = [paths] if paths else []
    if capped:
        handles.append(Line2D([], [], marker="o", ls="none", mfc="white", mec="#1f77b4"))
        texts.append("stopped by a cap")
        notes.append("open marker: seeds stopped by a cap (%s), not by their patience, at %s"
                     % (_cap_keys(cells), where([len(c.capped) for c in cells])))
    if every_cap:
        notes.append("every run stopped by a cap (%s), not by its patience" % _cap_keys(cells))
    if bad:
        handles.append(Line2D([], [], marker="x", ls="none", color=FAILED_COLOUR, mew=1.2))
        texts.append("seeds %s (no value)" % words)
        notes.append("%s: %s" % (words, where([sum(c.failed.values()) for c in cells])))
    if absent:
        handles.append(Line2D([], [], marker="s", ls="none", mfc="white", mec="0.4"))
        texts.append("no row (missing or timed out)")
        timed = [c.timed_out for c in cells]
        if any(timed):
            notes.append("timed out (--point-timeout; the sweep's own command runs it again): "
                         + where(timed))
        if any(c.missing - c.timed_out for c in cells):
            notes.append("missing (listed in sweep.json, no row in summary.csv): "
                         + where([c.missing - c.timed_out for c in cells]))
    if any(cells[j].rows for j in bad + absent):
        notes.append("the marker above such a value: the mean of its ok seeds")
    if key == SEED:
        handles.append(Line2D([], [], color="0.5", lw=0.8, ls="--"))
        texts.append("mean of the seeds")
    stacked = _stacked()
    rows, cols = (3, 1) if stacked else (1, 3)
    panel_h = 0.95 if stacked else 1.55
    legend_rows, per_row = 0, 1
    if handles:
        per_row = max(1, int((style.width() * 72 - 10) //
                             max(_width_pt(t) + 25 for t in texts)))
        legend_rows = -(-len(handles) // per_row)
    title = "Sweep of run %s over %s: %s%s" % (run, name, _seed_text(cells, [key]),
                                               "; bars: min-max" if spread else "")
    fig, spec, strips = _frame(rows, cols, panel_h, 0.35 if stacked else 0.6, title,
                               "\n".join(notes), [legend_rows])
    axes = []
    foot = transforms.blended_transform_factory
    for m in range(3):
        ax = fig.add_subplot(spec[m, 0] if stacked else spec[0, m],
                             sharex=axes[0] if stacked and axes else None)
        axes.append(ax)
        # Clipped at 0: the mean of equal values can exceed them in the last bit.
        err = (np.maximum(mean[m] - low[m], 0), np.maximum(high[m] - mean[m], 0))
        has_err = bool(np.nan_to_num(err[0]).any() or np.nan_to_num(err[1]).any())
        # Over seeds the points are not a curve: markers only, and their mean.
        ax.errorbar(positions, mean[m], yerr=err if has_err else None, marker="o", ms=4, lw=1.3,
                    capsize=2.5, color="#1f77b4", ls="none" if key == SEED else "-")
        if key == SEED and np.isfinite(mean[m]).any():
            ax.axhline(np.nanmean(mean[m]), color="0.5", lw=0.8, ls="--")
        if capped:
            ax.plot(positions[capped], mean[m][capped], "o", ms=4, mfc="white", mec="#1f77b4",
                    zorder=3)
        if bad or absent:
            # At the foot of the panel: a failed or missing seed has no value to plot.
            if bad:
                ax.plot(positions[bad], [0.06] * len(bad), "x", ms=5, mew=1.2,
                        color=FAILED_COLOUR, transform=foot(ax.transData, ax.transAxes),
                        clip_on=False, zorder=4)
            if absent:
                ax.plot(positions[absent], [0.06] * len(absent), "s", ms=4, mfc="white",
                        mec="0.4", transform=foot(ax.transData, ax.transAxes), clip_on=False,
                        zorder=4)
            ax.margins(y=0.22)
        if numeric and min(xs) > 0 and max(xs) / min(xs) >= 100:  # e.g. learning rates
            ax.set_xscale("log")
        if not numeric or len(xs) <= 8:  # ticks at the values swept, not between them
            _value_ticks(ax.xaxis, positions, [_value_text(v) for v in xs],
                         _axis_inches(stacked))
        elif all(float(x).is_integer() for x in xs):  # e.g. a cap or a window: whole numbers
            style.integer_ticks(ax.xaxis)
        if not stacked or m == 2:
            ax.set_xlabel(name)
        else:
            ax.tick_params(labelbottom=False)
        ax.set_ylabel(_balanced(labels[m]) if _width_pt(labels[m], style.BODY_PT) >
                      (panel_h + 0.2) * 72 else labels[m])
        ax.set_title(_BETTER[m], loc="right", fontsize=style.SMALL_PT, color="0.35", pad=2)
        ax.yaxis.set_major_locator(ticker.MaxNLocator(nbins=4 if stacked else 5))
        # Values, not an offset above the axis ("1e-6+1"): seeds that barely differ.
        ax.yaxis.set_major_formatter(ticker.ScalarFormatter(useOffset=False))
    if strips:
        _legend(strips[0], handles, texts, per_row)
    return style.save(fig, out_dir, "sweep_" + run, fmt)
