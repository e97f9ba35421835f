"""Heatmaps of a sweep over two varying grid keys (sweep_figures dispatches here): simulated time,
accuracy and API calls over the plane of the two keys, the mean of each grid cell's ok seeds; a
third and fourth key, when they take few values, give a row of heatmaps per combination, on one
colour scale, else are pooled into the cells (and the title says so). Seeds that diverged are
never averaged in nor silently left out: a cell says how many diverged, which a cap stopped, and
whether its point is missing or timed out; the words shrink to marks, then hatches, when they do
not fit the cells at the print width."""

import numpy as np
from matplotlib import ticker
from matplotlib.patches import Rectangle

from . import style
from .style import plt
from .sweep_data import Cell, sort_key as _sort_key, value_text as _value_text
from .sweep_layout import _axis_inches, _frame, _stacked, _value_ticks
from .sweep_words import _BETTER, _HIGHER_IS_BETTER, _axis_names, _cap_keys, _cell_label, \
    _every_cap, _failed_words, _seed_text, _units

# At most this many combinations of the keys beyond the heatmap's two get a row of heatmaps each;
# more are averaged over (and the title says so).
MAX_HEATMAP_ROWS = 4

# Heatmap cells: every seed failed (grey, hatched), no row at all (white, outlined).
_FAILED_FACE, _FAILED_HATCH = "#d9d9d9", "#8c8c8c"


def _cell_tag(c, every_cap=False):
    """What became of a cell's seeds (a Cell, None when the grid point has no row and sweep.json
    does not list it): (its tag, or "" when every seed ended ok by its patience; no seed drawn;
    some seeds failed or missing beside ok ones; some capped; some failed). Tags: "diverged"
    (every seed), "1/3 diverged" (the value is the mean of the other two), "capped" or "2/3
    capped" (a cap, not patience, stopped those seeds), "missing", "timed out" (sweep.json lists
    the point, summary.csv has no row), "not run" (neither has it). With `every_cap` (every run
    of the figure capped: the notes say so once) no cell says capped."""
    if c is None or not c.total():
        return ("not run", True, False, False, False)
    problems = [p for p in c.problems() if not (every_cap and p.endswith("capped"))]
    return (", ".join(problems), not c.rows, bool(c.rows and (c.failed or c.missing)),
            bool(c.capped) and not every_cap, bool(c.failed))


def _pool(by_cell, keys, wanted):
    """{values of `wanted` (a sub-list of keys): Cell} pooling the other keys."""
    index = [keys.index(k) for k in wanted]
    out = {}
    for values, c in by_cell.items():
        out.setdefault(tuple(values[i] for i in index), Cell()).add(c)
    return out


def plane(sweep, by_cell, keys, kx, ky, fixed=None):
    """The (kx, ky) plane of a run's cells (keyed by `keys`): sorted x and y values (also those
    where every seed failed or is missing: they keep their row and column), and the pooled Cell of
    each (x, y) (only the cells matching `fixed`, {key: value}, when given; the other keys
    pooled)."""
    if fixed:
        by_cell = {v: c for v, c in by_cell.items()
                   if all(v[keys.index(k)] == x for k, x in fixed.items())}
    xs = sorted({v[keys.index(kx)] for v in by_cell}, key=_sort_key)
    ys = sorted({v[keys.index(ky)] for v in by_cell}, key=_sort_key)
    return xs, ys, _pool(by_cell, keys, [kx, ky])


def _plane_means(sweep, cells_xy, xs, ys, values):
    """The metrics' mean over the drawn (ok) rows of each cell, [metric][y][x] in display units
    (NaN where no row is drawn)."""
    means = np.full((3, len(ys), len(xs)), np.nan)
    for (x, y), c in cells_xy.items():
        if c.rows:
            means[:, ys.index(y), xs.index(x)] = np.array([values(i) for i in c.rows]).mean(axis=0)
    return means


def _decimals(values):
    """The format that writes the largest of `values` with three significant digits."""
    top = np.nanmax(np.abs(values))
    return "%%.%df" % (max(0, 2 - int(np.floor(np.log10(top)))) if top > 0 else 0)


def _luminance(rgba):
    r, g, b = rgba[:3]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


# How a heatmap writes in its cells, tried in this order until the words fit the cells: the
# value and the tag on a line each; the tag broken at its spaces; the value alone, the tag as a
# dotted hatch; nothing but colours and hatches (the colour bar gives the values).
_CELL_MODES = ("lines", "words", "values", "colours")


def heatmap(sweep, run, by_cell, keys, out_dir, fmt):
    """Simulated time, accuracy and API calls over the plane of the first two varying keys (a
    third and fourth key: a row of such panels per combination of their values, up to
    MAX_HEATMAP_ROWS, else pooled), one colour scale per metric: bright is better in every panel,
    and every colour bar has its better end on top and says so. A cell whose seeds did not all
    end ok by their patience says why (diverged, 1/3 diverged, capped, missing, timed out); a
    grid point without rows says not run."""
    table = sweep.table
    kx, ky, extra = keys[0], keys[1], keys[2:]
    combos = [()]
    if extra:
        combos = sorted(_pool(by_cell, keys, extra), key=lambda v: tuple(_sort_key(x) for x in v))
        if len(combos) > MAX_HEATMAP_ROWS:
            combos = [()]
    pooled = extra if combos == [()] else []
    names, paths = _axis_names(keys)
    every_cap = _every_cap(by_cell)
    values, labels = _units(table, [i for c in by_cell.values() for i in c.rows])
    # Every panel over the same x and y values: a value where every seed failed keeps its place.
    xs, ys, _ = plane(sweep, by_cell, keys, kx, ky)
    planes = []  # (title suffix, means [metric][y][x], {(row, column): tag of _cell_tag})
    for combo in combos:
        _, _, cells_xy = plane(sweep, by_cell, keys, kx, ky, dict(zip(extra, combo)))
        tags = {(r, c): _cell_tag(cells_xy.get((x, y)), every_cap)
                for r, y in enumerate(ys) for c, x in enumerate(xs)}
        planes.append((_cell_label(names, extra, combo) if combo else "",
                       _plane_means(sweep, cells_xy, xs, ys, values), tags))
    seeds = _seed_text(by_cell.values() if not pooled else
                       _pool(by_cell, keys, [kx, ky]).values(), keys, [names[k] for k in pooled])
    title = "Sweep of run %s over %s and %s%s: %s" % (
        run, names[kx], names[ky],
        (", a row per " + " and ".join(names[k] for k in extra)) if extra and not pooled else "",
        seeds)
    for mode in _CELL_MODES:
        note = _heatmap_note(by_cell, names, paths, planes, mode, every_cap, bool(pooled))
        fig, texts = _heatmap_figure(xs, ys, planes, labels, names, kx, ky, title, note, mode)
        if mode == _CELL_MODES[-1] or _texts_fit(fig, texts):
            break
        plt.close(fig)  # the words do not fit the cells at this width: fewer of them
    return style.save(fig, out_dir, "sweep_" + run, fmt)


# In the "values" mode of _CELL_MODES, what a value's mark means.
_MARK_FAILED, _MARK_CAPPED = "\u2020", "*"  # a dagger, an asterisk


def _cell_text(value, tag, mode):
    """The text of a cell in `mode` (_CELL_MODES): its value (None without an ok seed) and tag
    (of _cell_tag)."""
    tag, none_ok, partly_failed, capped, _ = tag
    if mode == "colours" or (mode == "values" and none_ok):
        return ""
    if mode == "values":
        return value + (_MARK_FAILED if partly_failed else "") + (_MARK_CAPPED if capped else "")
    if not tag:
        return value or ""
    if mode == "words":
        tag = tag.replace(", ", "\n").replace(" ", "\n")
    return tag if value is None else value + "\n" + tag


# A column's figure of stacked panels grows no higher than this (inches) before its panels shrink.
_MAX_STACK_IN = 7.0


def _heatmap_figure(xs, ys, planes, labels, names, kx, ky, title, note, mode):
    """The three panels of each plane (side by side, a row per plane, or all stacked at a
    column's width) with their cells written as `mode` says; returns the figure and [(text, its
    cell (row, column), axes)] of the texts drawn in cells."""
    stacked = _stacked()
    means_all = np.array([p[1] for p in planes])  # [plane][metric][y][x]
    # Time and calls to three digits, as many decimals in every cell of a panel (5.90, not 5.9
    # beside 6.73); accuracy to a hundredth of a point, a tenth in narrow cells ("values").
    formats = (_decimals(means_all[:, 0]), "%.1f" if mode == "values" else "%.2f",
               _decimals(means_all[:, 2]))
    # Rows as high as the cells' lines need (any panel's: they are written alike).
    n_lines = max([_cell_text("0", tag, mode).count("\n") + 1
                   for _, _, tags in planes for tag in tags.values()] + [1])
    row_in = 0.14 if mode == "colours" else \
        max(0.28, n_lines * style.SMALL_PT * 1.25 / 72.0 + 0.1)
    panel_h = max(0.95, row_in * len(ys))  # a colour bar long enough for its ticks
    rows, cols = (3 * len(planes), 1) if stacked else (len(planes), 3)
    decor = (0.3 if len(planes) == 1 else 0.45) if stacked else \
        (0.65 if len(planes) == 1 else 0.75)
    if rows * (panel_h + decor) > _MAX_STACK_IN:  # many planes: within a page, fewer words
        panel_h = max(0.5, _MAX_STACK_IN / rows - decor)
    fig, spec, _ = _frame(rows, cols, panel_h, decor, title, note)
    # One colour scale per metric over every plane, so that colours compare across rows.
    scales, single = [], []
    for m in range(3):
        lo, hi = (float(np.nanmin(means_all[:, m])), float(np.nanmax(means_all[:, m])))
        # One value: a colour bar around it, ticked at that value only (no 100.8 % accuracy).
        single.append([lo] if hi == lo else None)
        if hi == lo:
            lo, hi = lo - max(abs(lo), 1.0) * 0.01, hi + max(abs(hi), 1.0) * 0.01
        scales.append((lo, hi))
    axes, texts = [], []
    for p, (suffix, means, tags) in enumerate(planes):
        for m in range(3):
            n = p * 3 + m
            last = n == rows * cols - 1 if stacked else p == len(planes) - 1
            ax = fig.add_subplot(spec[n, 0] if stacked else spec[p, m],
                                 sharex=axes[0] if stacked and axes else None)
            axes.append(ax)
            higher = _HIGHER_IS_BETTER[m]
            cmap = plt.get_cmap("viridis" if higher else "viridis_r")  # bright: better
            lo, hi = scales[m]
            im = ax.imshow(np.ma.masked_invalid(means[m]), cmap=cmap, vmin=lo, vmax=hi,
                           origin="lower", aspect="auto", interpolation="nearest")
            ax.set_facecolor("white")
            cbar = fig.colorbar(im, ax=ax, pad=0.03, fraction=0.06, aspect=12)
            if not higher:
                cbar.ax.invert_yaxis()  # the better (bright) end on top in every colour bar
            cbar.set_label(_BETTER[m], fontsize=style.SMALL_PT)
            cbar.ax.tick_params(labelsize=style.SMALL_PT)
            if single[m]:
                cbar.set_ticks(single[m])
            else:
                cbar.ax.yaxis.set_major_locator(
                    ticker.MaxNLocator(nbins=3 if panel_h < 0.8 else 5))
            for (r, c), cell in sorted(tags.items()):
                tag, none_ok, _, _, failed = cell
                corner = (c - 0.5, r - 0.5)
                if none_ok:
                    ax.add_patch(Rectangle(corner, 1, 1,
                                           facecolor=_FAILED_FACE if failed else "white",
                                           edgecolor=_FAILED_HATCH if failed else "0.6",
                                           hatch="////" if failed else None,
                                           lw=0 if failed else 0.6, zorder=1))
                    colour, value = ("black" if failed else "0.35"), None
                else:
                    v = means[m, r, c]
                    colour = "black" if _luminance(cmap((v - lo) / (hi - lo))) > 0.45 else "white"
                    value = formats[m] % v
                    if tag and mode == "colours":  # no room for words or marks: a hatch
                        ax.add_patch(Rectangle(corner, 1, 1, fill=False, edgecolor=colour, lw=0,
                                               hatch="...", zorder=2))
                text = _cell_text(value, cell, mode)
                if text:
                    texts.append((ax.text(c, r, text, ha="center", va="center", color=colour,
                                          fontsize=style.SMALL_PT, linespacing=1.15), (r, c), ax))
            _value_ticks(ax.xaxis, range(len(xs)), [_value_text(v) for v in xs],
                         _axis_inches(stacked) - 0.3)
            ax.set_yticks(range(len(ys)), [_value_text(v) for v in ys])
            ax.set_xlim(-0.5, len(xs) - 0.5)
            ax.set_ylim(-0.5, len(ys) - 0.5)
            if last:
                ax.set_xlabel(names[kx])
            elif stacked:
                ax.tick_params(labelbottom=False)
            if stacked or m == 0:
                ax.set_ylabel(names[ky])
            else:  # side by side: the first panel's y labels serve all three, the cells get wider
                ax.tick_params(labelleft=False)
            ax.set_title(labels[m] + ("\n" + suffix if suffix else ""))
            ax.grid(False)
            ax.tick_params(length=2)
    for t, _, _ in texts:
        t.set_in_layout(False)
    return fig, texts


def _texts_fit(fig, texts):
    """Whether every cell text lies inside its cell, half a point from its sides."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    pad = 0.5 * fig.dpi / 72.0
    for t, (r, c), ax in texts:
        (x0, y0), (x1, y1) = ax.transData.transform([(c - 0.5, r - 0.5), (c + 0.5, r + 0.5)])
        b = t.get_window_extent(renderer)
        if b.x0 < x0 + pad or b.x1 > x1 - pad or b.y0 < y0 + pad or b.y1 > y1 - pad:
            return False
    return True


def _heatmap_note(by_cell, names, paths, planes, mode, every_cap, pooled):
    """The notes under a heatmap: what its words, marks or hatches (as `mode` of _CELL_MODES
    writes its cells) mean, the key paths, and the keys pooled into each cell."""
    words = _failed_words(by_cell.values())
    cells = [tag for _, _, tags in planes for tag in tags.values()]
    notes = [paths] if paths else []
    # A cell: the seeds of a grid point, or with keys pooled, the runs of several grid points.
    seeds, where = ("runs", "cell") if pooled else ("seeds", "grid point")
    if any(none_ok and failed for _, none_ok, _, _, failed in cells):
        notes.append("grey, hatched: every %s of the %s %s, no value" % (seeds[:-1], where,
                                                                         words))
    partly = any(c[2] for c in cells)
    partly_failed = any(c[2] and c[4] for c in cells)
    partly_missing = any(c[2] and ("missing" in c[0] or "timed out" in c[0]) for c in cells)
    capped = any(c[3] for c in cells)
    caps = _cap_keys(by_cell.values())
    if mode == "colours" and (partly or capped):
        notes.append("dotted: " + " or ".join(
            ["some %s %s or have no row (the colour is the mean of the others)"
             % (seeds, words)] * partly +
            ["stopped by a cap (%s), not by their patience" % caps] * capped))
    elif mode == "values":
        if partly:
            notes.append("%s: some %s %s%s, the value is the mean of the others"
                         % (_MARK_FAILED, seeds, words if partly_failed else "",
                            (" or " if partly_failed else "") + "have no row"
                            if partly_missing else ""))
        if capped:
            notes.append("%s: %s stopped by a cap (%s), not by their patience"
                         % (_MARK_CAPPED, seeds, caps))
    else:
        if partly_failed:
            notes.append("k/n %s: k of the %s's n %s %s, the value is the mean of the others"
                         % (words, where, seeds, words))
        if partly_missing:
            notes.append("k/n missing or timed out: k of the %s's n %s have no row, the value "
                         "is the mean of the others" % (where, seeds))
        if capped:
            notes.append("capped: %s stopped by a cap (%s), not by their patience%s"
                         % (seeds, caps, " (k/n: k of the n)" if any(
                             "/" in part and "capped" in part
                             for c in cells for part in c[0].split(", ")) else ""))
    if every_cap:
        notes.append("every run stopped by a cap (%s), not by its patience" % caps)
    white = "" if mode in ("lines", "words") else "white, "
    if any(c[0] == "missing" for c in cells):
        notes.append("%smissing: sweep.json lists the point, summary.csv has no row (interrupted; "
                     "the sweep's own command runs it)" % white)
    if any(c[0] == "timed out" for c in cells):
        notes.append("%stimed out: --point-timeout abandoned the point (the sweep's own command "
                     "runs it again)" % white)
    if any(c[0] == "not run" for c in cells):
        notes.append("%snot run: no row in summary.csv (the point failed or has not run yet)"
                     % white)
    return "\n".join(notes)
