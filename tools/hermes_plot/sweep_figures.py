"""Figures of a sweep directory (`hermes-sim sweep ... --out DIR`): DIR/summary.csv has one row per
point and run, with the columns `point`, one column per grid key named by its key path
(`runs.hermes.alpha`, numbers written the shortest way), then every column of a run's
summary.csv; DIR/sweep.json says which run each row is and which points there are (sweep_data).
The ok seeds of a grid cell are averaged; seeds that diverged are never averaged in nor silently
left out: a cell, value or point says how many diverged, which a cap stopped, and which points
are missing or timed out. Two varying grid keys give heatmaps of simulated time, accuracy and API
calls (a third and fourth key, when they take few values, a row of heatmaps per combination, on
one colour scale); one gives line plots (with the seeds' min-max range); a sweep without grid
keys gives line plots over its seeds. With summary.csv's cost_usd, cost_accuracy draws accuracy
against cost and against simulated time: one point per run and grid cell, every run of the sweep
in one figure. Panels go side by side on a page-wide figure and one under the other in a column
(style.columns); notes and keys go under the panels, wrapped to the width."""

import numpy as np
from matplotlib import ticker, transforms
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.textpath import TextToPath
from matplotlib.transforms import Bbox

from . import style
from .data import select_runs
from .style import plt
from .sweep_data import CAPS as _CAPS, SEED, Cell, Sweep, sort_key as _sort_key, \
    value_text as _value_text

# At most this many combinations of the keys beyond the heatmap's two get a row of heatmaps each;
# more are averaged over (and the title says so).
MAX_HEATMAP_ROWS = 4


def read_sweep(path):
    """The sweep directory `path` (sweep_data.Sweep)."""
    return Sweep(path)


FAILED_COLOUR = "#d62728"
# Heatmap cells: every seed failed (grey, hatched), no row at all (white, outlined).
_FAILED_FACE, _FAILED_HATCH = "#d9d9d9", "#8c8c8c"

_MEASURE = TextToPath()


def _width_pt(text, pt=style.SMALL_PT):
    """Width in points of one line of `text` at `pt` points (the figures' font)."""
    return _MEASURE.get_text_width_height_descent(text, FontProperties(size=pt), ismath=False)[0]


def _wrap(text, inches, pt=style.SMALL_PT):
    """`text` broken at spaces into lines no wider than `inches` at `pt` points (never inside a
    word); its own newlines are kept."""
    out = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = word if not line else line + " " + word
            if line and _width_pt(trial, pt) > inches * 72.0:
                out.append(line)
                line = word
            else:
                line = trial
        out.append(line)
    return "\n".join(out)


def _lines_height(text, pt=style.SMALL_PT):
    """Inches a block of `text` takes at a line spacing of 1.25, and a little more: its strip
    shrinks with the panels when the layout needs room."""
    return (text.count("\n") + 1) * pt * 1.32 / 72.0 if text else 0.0


def _balanced(text):
    """`text` on two lines of about the same width, broken at a space."""
    words = text.split(" ")
    if len(words) < 2:
        return text
    cut = min(range(1, len(words)), key=lambda n: abs(_width_pt(" ".join(words[:n])) -
                                                       _width_pt(" ".join(words[n:]))))
    return " ".join(words[:cut]) + "\n" + " ".join(words[cut:])


def _axis_inches(stacked, panels=3):
    """About how wide a panel's axes are (inches): the figure's width, or a third of it, less
    its y tick labels and label and, for a heatmap, its colour bar."""
    return style.width() - 1.3 if stacked else style.width() / panels - 0.8


def _value_ticks(axis, positions, texts, inches):
    """Ticks at `positions` labelled `texts`, every k-th label only when they would not fit
    side by side in `inches` (7 pt, 4 pt apart)."""
    need = max(_width_pt(t) for t in texts) + 4.0
    step = max(1, int(np.ceil(len(texts) * need / (inches * 72.0))))
    axis.set_ticks(positions, [t if n % step == 0 else "" for n, t in enumerate(texts)])
    axis.set_minor_locator(ticker.NullLocator())


def _axis_names(keys):
    """{key: axis label}: a key's last part (alpha), or its whole path where two keys share the
    last part; and the note that gives the paths of the shortened ones."""
    last = [k.rsplit(".", 1)[-1] for k in keys]
    names = {k: (n if last.count(n) == 1 else k) for k, n in zip(keys, last)}
    paths = ["%s: %s" % (names[k], k) for k in keys if names[k] != k]
    return names, ("grid keys: " + ", ".join(paths)) if paths else ""


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


# Which way each metric of _units is better, said in each colour bar and axis: shorter runs,
# higher accuracy, fewer calls.
_BETTER = ("shorter is better", "higher is better", "fewer is better")
_HIGHER_IS_BETTER = (False, True, False)


def _seed_text(cells, keys, pooled=()):
    """How many seeds a grid point has (`cells`: its Cells, rows ok or not, missing points
    counted), and, when some are not ok, that its value is the mean of the ok ones only. With the
    names of `pooled` keys (a heatmap over two of three keys), a cell holds runs of several of
    their values too, and says so."""
    if keys == [SEED]:
        return "no grid keys: one run per seed"
    cells = [c for c in cells if c.total()]
    counts = sorted({c.total() for c in cells})
    if not counts:
        return "no run done"
    failures = any(c.failed or c.missing for c in cells)
    where = "per cell (its seeds and %s values pooled)" % ", ".join(pooled) if pooled else \
        "per grid point"
    unit = "runs" if pooled else "seeds"
    if counts == [1]:
        return "one run " + where
    n = str(counts[0]) if len(counts) == 1 else "%d-%d" % (counts[0], counts[-1])
    if failures:
        return "%s %s %s, the mean of those ok" % (n, unit, where)
    return "mean of %s %s %s" % (n, unit, where)


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


def _cell_label(names, keys, values):
    return ", ".join("%s=%s" % (names[k], _value_text(v)) for k, v in zip(keys, values))


def _every_cap(by_cell):
    """Whether a cap stopped every drawn run of the figure and nothing else happened: then the
    notes say so once instead of every cell saying capped."""
    drawn = [c for c in by_cell.values() if c.rows]
    return bool(drawn) and all(len(c.capped) == len(c.rows) and not c.failed and not c.missing
                               for c in by_cell.values())


def _decimals(values):
    """The format that writes the largest of `values` with three significant digits."""
    top = np.nanmax(np.abs(values))
    return "%%.%df" % (max(0, 2 - int(np.floor(np.log10(top)))) if top > 0 else 0)


def _luminance(rgba):
    r, g, b = rgba[:3]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _stacked():
    """Whether the three panels of a sweep figure go one under the other: they do unless three
    side by side each get 2.2 in (a page-wide figure, not a column)."""
    return style.columns(3, min_panel=2.2) < 3


TITLE_PT = style.BODY_PT + 0.5  # rcParams' figure.titlesize
_LEFT_IN = 0.06  # the notes' and legends' margin from the figure's edges


def _frame(rows, cols, panel_h, decor_h, title, note, legend_rows=()):
    """A figure at the print width: rows x cols panels of `panel_h` inches (plus `decor_h` for
    each row's titles and tick labels), its title wrapped to the width, then a strip for each
    legend, of the number of rows `legend_rows` gives, and one for the notes, wrapped. Returns
    (figure, gridspec of the panels' rows, the legend strips' axes)."""
    inches = style.width() - 2 * _LEFT_IN
    title = _wrap(title, inches, TITLE_PT)
    note = "\n".join(_wrap(n, inches) for n in note.split("\n")) if note else ""
    strips = [n * style.SMALL_PT * 1.6 / 72.0 + 0.06 for n in legend_rows if n]  # 1.53 a row
    if note:
        strips.append(_lines_height(note))
    fig = style.figure(rows * (panel_h + decor_h) + _lines_height(title, TITLE_PT) +
                       sum(strips) + 0.15)
    fig.suptitle(title, fontsize=TITLE_PT)
    # The strips in a grid of their own: spanning the panels' columns in theirs, they would
    # make constrained layout align every margin across them, narrowing the panels.
    outer = fig.add_gridspec(1 + len(strips), 1,
                             height_ratios=[rows * (panel_h + decor_h)] + strips)
    spec = outer[0].subgridspec(rows, cols)
    axes = [fig.add_subplot(outer[k]) for k in range(1, len(strips) + 1)]
    for ax in axes:
        ax.axis("off")
    if note:
        # From the figure's left edge, not the panels': the strip only reserves the height.
        axes[-1].text(_LEFT_IN / style.width(), 1.0, note, ha="left", va="top",
                      transform=transforms.blended_transform_factory(fig.transFigure,
                                                                     axes[-1].transAxes),
                      fontsize=style.SMALL_PT, linespacing=1.25).set_in_layout(False)
        axes.pop()
    return fig, spec, axes


def _legend(ax, handles, texts, ncol, **kw):
    """The legend in the strip of _frame, from the figure's left edge."""
    kw = dict(dict(handlelength=1.2, columnspacing=1.5), **kw)
    legend = ax.legend(handles, texts, loc="upper left", ncol=ncol, borderaxespad=0,
                       frameon=False,
                       bbox_to_anchor=(_LEFT_IN / style.width(), 1.0),
                       bbox_transform=transforms.blended_transform_factory(
                           ax.figure.transFigure, ax.transAxes), **kw)
    legend.set_in_layout(False)
    return legend


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


def _failed_words(cells):
    """How the failed seeds of `cells` (Cells) ended: "diverged", or "diverged or error"."""
    statuses = sorted({s for c in cells for s in c.failed})
    return " or ".join(statuses) if statuses else "diverged"


_CAP_KEYS = {"max_iterations": "training.stop.max_iterations",
             "max_sim_time": "training.stop.max_sim_time_s"}


def _cap_keys(cells):
    """The caps that stopped runs of `cells` (Cells), by their scenario keys."""
    reasons = sorted({r for c in cells for r in c.stops} & set(_CAPS))
    return " or ".join(_CAP_KEYS[r] for r in reasons) or "a cap"


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


def _cell_order(cell):
    return tuple(_sort_key(v) for v in cell)


# Where a label may go around its point (offset in points, alignment), nearest first.
_OFFSETS = [(dx * r, dy * r, ha, va) for r in (3.5, 8.0, 13.0)
            for dx, dy, ha, va in ((1, 0, "left", "center"), (-1, 0, "right", "center"),
                                   (0, 1, "center", "bottom"), (0, -1, "center", "top"),
                                   (0.7, 0.7, "left", "bottom"), (-0.7, 0.7, "right", "bottom"),
                                   (0.7, -0.7, "left", "top"), (-0.7, -0.7, "right", "top"))]


def _area(a, b):
    return max(0.0, min(a.x1, b.x1) - max(a.x0, b.x0)) * max(0.0, min(a.y1, b.y1) - max(a.y0, b.y0))


def _place_labels(fig, ax, marks, labels, bars=()):
    """Puts each of `labels` ([(x, y, text, colour)], in data units) beside its point where it
    covers no marker of `marks` ([(x, y)]), no error bar of `bars` ([(x0, y0, x1, y1)] segments),
    no label placed before (with a gap, so that 8 and 10 never read 810) and stays inside the
    panel: the nearest such place of _OFFSETS, else the least covered one. Points of one colour
    drawn on top of each other share one label ("8,10,12"). Returns whether every label found a
    free place."""
    renderer = fig.canvas.get_renderer()
    pt = fig.dpi / 72.0
    r = 3.0 * pt  # a marker's half size (4 pt markers) and a hair
    merged = []  # [[display x, display y, data x, data y, texts, colour]]
    for x, y, text, colour in labels:
        X, Y = ax.transData.transform((x, y))
        for m in merged:
            if m[5] == colour and abs(m[0] - X) < 1.5 * pt and abs(m[1] - Y) < 1.5 * pt:
                m[4].append(text)
                break
        else:
            merged.append([X, Y, x, y, [text], colour])
    sep = "," if all(t.isdigit() for m in merged for t in m[4]) else "; "
    labels = [(x, y, sep.join(texts), colour) for _, _, x, y, texts, colour in merged]
    taken = [Bbox.from_extents(X - r, Y - r, X + r, Y + r)
             for X, Y in ax.transData.transform(np.array(marks, dtype=float).reshape(-1, 2))]
    for x0, y0, x1, y1 in bars:  # a line and its caps (2 pt)
        (X0, Y0), (X1, Y1) = ax.transData.transform([(x0, y0), (x1, y1)])
        taken.append(Bbox.from_extents(min(X0, X1) - r * 0.7, min(Y0, Y1) - r * 0.7,
                                       max(X0, X1) + r * 0.7, max(Y0, Y1) + r * 0.7))
    inner = ax.bbox.padded(-fig.dpi / 72.0)
    free = True
    for x, y, text, colour in labels:
        best = None
        for dx, dy, ha, va in _OFFSETS:
            t = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha,
                            va=va, fontsize=style.SMALL_PT, color=colour, annotation_clip=False)
            t.set_in_layout(False)
            b = t.get_window_extent(renderer)
            cost = (sum(_area(b, o) for o in taken) +
                    (b.width * b.height - _area(b, inner)) * 10)
            if best is None or cost < best[0]:
                if best is not None:
                    best[1].remove()
                best = (cost, t, b)
            else:
                t.remove()
            if cost == 0:
                break
        free = free and best[0] == 0
        taken.append(best[2].padded(1.5 * pt))
    return free


def _cost_series(sweep, runs):
    """[(run, [(label, ok rows, failed rows, tag, some capped)])]: a point per grid cell of a run
    the grid varies (labelled with its values), one over all rows for a run it does not (nor a
    sweep over seeds only); rows with a cost only. Also {why: rows} left out (no cost) and the
    number of points missing from summary.csv."""
    table = sweep.table
    series, left_out, missing = [], {}, 0
    for run in runs:
        keys = [k for k in sweep.axes(run) if k != SEED]
        by_cell = sweep.cells(run, keys)
        names, _ = _axis_names(keys)
        ordered = sorted(by_cell, key=_cell_order)
        if keys:
            groups = [(_cell_label(names, keys, values), by_cell[values]) for values in ordered]
        else:  # the same run at every grid point: one point over all its rows
            one = Cell()
            for values in ordered:
                one.add(by_cell[values])
            groups = [("", one)]
        points = []
        for label, c in groups:
            missing += c.missing
            ok = [i for i in c.rows if table.number(i, "cost_usd", True) is not None]
            bad = [i for i in c.bad if table.number(i, "cost_usd", True) is not None]
            n = len(c.rows) + len(c.bad) - len(ok) - len(bad)
            if n:
                left_out["no cost"] = left_out.get("no cost", 0) + n
            if ok or bad:
                points.append((label, ok, bad, ", ".join(c.problems()),
                               bool([i for i in ok if i in c.capped])))
        if points:
            series.append((run, points))
    return series, left_out, missing


def cost_accuracy(sweep, runs, out_dir, fmt):
    """Accuracy against cost and against simulated time: for each run, one marker per grid
    cell at the mean of its ok seeds (open if a cap stopped one), bars from their min to max, and
    an x at the mean of the seeds that diverged (a triangle on the axis if their accuracy lies
    below it: the notes give it). Points are labelled with the cell's values beside them (up to
    four), else numbered with a key below; where even the numbers cannot all be placed clear of
    the markers and of each other, only the points no other beats on both accuracy and cost (or
    time) are numbered. A run the grid does not change is a single point: the reference the
    others cost against. The rows left out (without a cost) and the missing points are named in
    the notes. None if no row has a cost."""
    series, left_out, missing = _cost_series(sweep, runs)
    if not series:
        return None
    n_labels = sum(1 for _, points in series for p in points if p[0])
    modes = ("direct", "numbered", "front") if n_labels <= 4 else \
        ("numbered", "front") if n_labels <= 40 else ("front",)
    for mode in modes:
        fig, free = _cost_figure(sweep.table, series, mode, left_out, missing)
        if free or mode == modes[-1]:
            break
        plt.close(fig)  # the labels collide: numbers and a key, or fewer numbers
    return style.save(fig, out_dir, "cost_accuracy", fmt)


def _spread(values):
    """(mean, min, max) of `values`."""
    return (float(np.mean(values)), min(values), max(values))


def _front(points):
    """The indices of `points` ([(x, y)]) that no other point beats on both: x no larger and y no
    smaller, one of them strictly."""
    return {i for i, (x, y) in enumerate(points)
            if not any((x2 <= x and y2 >= y) and (x2 < x or y2 > y) for x2, y2 in points)}


def _cost_figure(table, series, mode, left_out=None, missing=0):
    """The figure of cost_accuracy, its points labelled as `mode` says ("direct": with their
    grid values; "numbered": with numbers and a key; "front": numbers on the points no other
    beats only); returns it and whether every label found a place clear of the others."""
    all_rows = [i for _, points in series for _, ok, bad, _, _ in points for i in ok + bad]
    t_div, t_unit = (60.0, "min") if max(table.number(i, "sim_time_s")
                                         for i in all_rows) >= 600 else (1.0, "s")

    def metrics(rows):  # (cost, time, accuracy %), each (mean, min, max)
        return (_spread([table.number(i, "cost_usd") for i in rows]),
                _spread([table.number(i, "sim_time_s") / t_div for i in rows]),
                _spread([100.0 * table.number(i, "accuracy") for i in rows]))
    # The markers: dicts of run index, group index, kind (ok, capped, failed), rows, metrics.
    marks, groups = [], []
    for k, (run, points) in enumerate(series):
        for label, ok, bad, tag, capped in points:
            g = len(groups)
            groups.append({"run": run, "k": k, "label": label, "tag": tag, "text": ""})
            if ok:
                marks.append({"k": k, "g": g, "rows": ok, "m": metrics(ok),
                              "kind": "capped" if capped else "ok"})
            if bad:
                marks.append({"k": k, "g": g, "rows": bad, "m": metrics(bad), "kind": "failed"})
    ok_acc = [a for m in marks if m["kind"] != "failed" for a in m["m"][2][1:]]
    acc_all = [a for m in marks for a in m["m"][2][1:]]
    lo, hi = (min(ok_acc), max(ok_acc)) if ok_acc else (min(acc_all), max(acc_all))
    pad = max(0.08 * (hi - lo), 0.2)
    ylim = (lo - pad, hi + pad)
    for m in marks:  # a failed point far below the others: on the axis, its value in the notes
        m["clamp"] = m["kind"] == "failed" and not ylim[0] <= m["m"][2][0] <= ylim[1]
    # Which groups carry a label, and which.
    labelled = [g for g, group in enumerate(groups) if group["label"]]
    if mode == "front":
        best = set()
        for p in range(2):
            ok_marks = [m for m in marks if m["kind"] != "failed"]
            best |= {ok_marks[i]["g"]
                     for i in _front([(m["m"][p][0], m["m"][2][0]) for m in ok_marks])}
        labelled = [g for g in labelled if g in best]
    for n, g in enumerate(labelled, 1):
        groups[g]["text"] = groups[g]["label"] if mode == "direct" else str(n)
    # The notes: the key, what is not all ok, what lies below the axis.
    key, not_ok, below = [], [], []
    for group in groups:
        name = group["label"] or group["run"]
        if mode != "direct" and group["text"]:
            key.append(("(%s) %s%s" % (group["text"], group["label"],
                                       (": " + group["tag"]) if group["tag"] else ""),
                        group["k"]))
        elif group["tag"]:
            not_ok.append("%s: %s" % (name, group["tag"]))
    for m in marks:
        if m["clamp"]:
            group = groups[m["g"]]
            below.append("%s %s at %.1f%% accuracy"
                         % ("(%s)" % group["text"] if mode != "direct" and group["text"]
                            else group["label"] or group["run"],
                            _row_words(table, m["rows"]), m["m"][2][0]))
    notes = []
    if mode == "front":
        notes.append("numbered: the points no other beats on both accuracy and cost (or time); "
                     "%d points in all" % len(groups))
    # The key: a table of as many columns as fit, else (entries wider than the figure) a
    # paragraph of the notes.
    key_cols = int((style.width() - 2 * _LEFT_IN) * 72 // (max(
        [_width_pt(text) + style.SMALL_PT * 1.5 for text, _ in key] + [1])))
    if key and not key_cols:
        notes.append(";  ".join(_nobreak(text) for text, _ in key))
    if len(not_ok) > 6:  # the heatmaps or line plots say which
        notes.append("not all seeds ok at %d points (sweep_<run> shows which)" % len(not_ok))
    elif not_ok:
        notes.append("not all seeds ok: " + "; ".join(not_ok))
    if below:
        notes.append("below the axis: " + "; ".join(below))
    if len(series) > 1 and any(not group["label"] for group in groups):
        notes.append("a run the grid does not change: one point over every grid point")
    # What no marker shows: rows without a cost, points missing from summary.csv.
    gone = ["%d %s" % (n, why) for why, n in sorted((left_out or {}).items())]
    if missing:
        gone.append("%d not run (points missing from summary.csv)" % missing)
    if gone:
        notes.append("runs not drawn: " + ", ".join(gone))
    # The legend: the runs' colours, then the markers' shapes.
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    handles = [Line2D([], [], marker="o", ls="none", ms=4, color=colours[k % len(colours)])
               for k in range(len(series))]
    texts = [run for run, _ in series]
    kinds = {m["kind"] for m in marks if not m["clamp"]}
    if "capped" in kinds:
        handles.append(Line2D([], [], marker="o", ls="none", ms=4, mfc="white", mec="0.3"))
        texts.append("a cap stopped seeds")
    if "failed" in kinds:
        handles.append(Line2D([], [], marker="x", ls="none", ms=5, mew=1.2, color="0.3"))
        texts.append("seeds that %s" % _row_words(
            table, [i for m in marks if m["kind"] == "failed" for i in m["rows"]]))
    if below:
        handles.append(Line2D([], [], marker="v", ls="none", ms=5, color="0.3"))
        texts.append("%s, below the axis" % _row_words(
            table, [i for m in marks if m["clamp"] for i in m["rows"]]))
    per_row = max(1, int((style.width() * 72 - 10) // max(_width_pt(t) + 25 for t in texts)))
    cols = style.columns(2, min_panel=2.4)
    rows = 2 // cols
    tabled = key if key_cols else []
    fig, spec, strips = _frame(rows, cols, 1.9 if rows == 2 else 2.1, 0.5,
                               "Sweep: accuracy against cost and time (a point: a run at a "
                               "grid point, mean of its seeds; bars: min-max)",
                               "\n".join(notes), [-(-len(handles) // per_row),
                                                  -(-len(tabled) // max(key_cols, 1))])
    axes = []
    for p in range(2):
        axes.append(fig.add_subplot(spec[p, 0] if rows == 2 else spec[0, p],
                                    sharey=axes[0] if axes else None))
    for m in marks:
        colour = colours[m["k"] % len(colours)]
        ym, ylo, yhi = m["m"][2]
        for p, ax in enumerate(axes):
            xm, xlo, xhi = m["m"][p]
            # Clipped at 0: the mean of equal values can exceed them in the last bit.
            xerr = [[max(xm - xlo, 0)], [max(xhi - xm, 0)]]
            if m["clamp"]:  # on the axis, pointing down to where it lies
                y, yerr, marker = ylim[0], None, "v"
            else:
                y, yerr = ym, [[max(ym - ylo, 0)], [max(yhi - ym, 0)]]
                marker = "x" if m["kind"] == "failed" else "o"
            ax.errorbar([xm], [y], xerr=xerr, yerr=yerr, marker=marker, ls="none", lw=1.0,
                        capsize=2, color=colour, ms=4 if marker == "o" else 5,
                        mew=1.2 if marker == "x" else 1.0,
                        mfc="white" if m["kind"] == "capped" else colour, clip_on=False,
                        zorder=3)
            m.setdefault("xy", []).append((xm, y))
            m.setdefault("bars", []).append(
                [(xlo, y, xhi, y)] + ([(xm, ylo, xm, yhi)] if yerr is not None else []))
    axes[0].set_ylim(*ylim)
    axes[0].set_xlabel("cost of the run (USD)")
    axes[1].set_xlabel("simulated time (%s)" % t_unit)
    for ax in axes:
        ax.set_ylabel("global test accuracy (%)")
        ax.xaxis.set_major_locator(ticker.MaxNLocator(nbins=4 if rows == 1 else 5))
        ax.margins(x=0.12)
    if rows == 1:
        axes[1].tick_params(labelleft=False)
        axes[1].set_ylabel("")
    axes[0].set_title("accuracy against cost")
    axes[1].set_title("accuracy against time")
    for ax in axes:  # a margin, but no negative cost or time
        ax.set_xlim(left=max(ax.get_xlim()[0], 0.0))
    _legend(strips[0], handles, texts, per_row)
    if tabled:
        legend = _legend(strips[1], [Line2D([], [], ls="none")] * len(tabled),
                         [text for text, _ in tabled], key_cols, handlelength=0,
                         handletextpad=0)
        if len(series) > 1:  # each run's entries in its colour
            for t, (_, k) in zip(legend.get_texts(), tabled):
                t.set_color(colours[k % len(colours)])
    fig.canvas.draw()  # the layout, then the labels where they collide with nothing
    free = True
    for p, ax in enumerate(axes):
        # A group's number once: on its ok marker if it has one.
        labels = [m["xy"][p] + (groups[m["g"]]["text"], colours[m["k"] % len(colours)])
                  for m in marks if groups[m["g"]]["text"] and
                  (m["kind"] != "failed" or not any(o["g"] == m["g"] and o["kind"] != "failed"
                                                    for o in marks))]
        free = _place_labels(fig, ax, [m["xy"][p] for m in marks], labels,
                             [b for m in marks for b in m["bars"][p]]) and free
    return fig, free


def _row_words(table, rows):
    """How the failed `rows` ended: "diverged", or "diverged or error"."""
    statuses = sorted({table.rows[i]["status"].strip() for i in rows})
    return " or ".join(statuses) if statuses else "diverged"


def _nobreak(text):
    """A key entry in a paragraph, broken only after its commas."""
    return text.replace(" ", "\u00a0").replace(",\u00a0", ", ")


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
