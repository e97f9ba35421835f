"""cost_accuracy of a sweep whose summary.csv has cost_usd (sweep_figures calls it): accuracy
against cost and against simulated time, one point per run and grid cell (the mean of its ok
seeds, bars from their min to max), every run of the sweep in one figure; seeds that diverged
drawn apart, never averaged in. Labels are placed clear of the markers, bars and each other:
the cells' values beside the points, else numbers and a key, else numbers on the points no other
beats only."""

import numpy as np
from matplotlib import ticker
from matplotlib.lines import Line2D
from matplotlib.transforms import Bbox

from . import style
from .style import plt
from .sweep_data import SEED, Cell, sort_key as _sort_key
from .sweep_layout import _LEFT_IN, _frame, _legend, _width_pt
from .sweep_words import _axis_names, _cell_label


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
