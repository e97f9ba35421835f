"""accuracy_loss.png: the global model's test accuracy and loss against simulated time, a line per
run (the paper's Fig. 13).

The accuracy axis is scaled to the runs that learn (status ok in summary.csv) after the first
quarter of their evaluations: a diverged run, whose accuracy falls to chance, or the climb from
chance would otherwise stretch it over 0-100% and squash every run that learns into one band. The
panel's title says so, and whenever the axis hides part of a curve, a small panel below shows the
whole curves (from 0 when one is near chance). Diverged runs are drawn dashed and clipped. Curves
that lie on each other (ASP and an SSP whose staleness bound never binds) are told apart by
markers and a legend note instead of one hiding the other. When a run is over within a tenth of
the longest run's time (ASP's seconds beside BSP's minutes), time is on a log axis, so that its
curve is more than a smear at the left edge.

On a wide print (5 in and more) accuracy and loss are side by side, the whole curves under the
accuracy and the legend beside them; on a column they are stacked over one time axis, the legend
below. No legend lies over the curves."""

import math

from . import layout, style
from .style import plt, ticker

SKIP_FRACTION = 0.25  # the first quarter of a run's evaluations: still climbing from chance
MARKERS = ("s", "^", "v", "D", "P", "X", "*", "<", ">")
MARKS_PER_CURVE = 8
LOG_TIME_RATIO = 0.1
SIDE_BY_SIDE_PANEL = 2.5  # inches: accuracy and loss side by side from a 5 in print on


def _finite(values):
    return [v for v in values if math.isfinite(v)]


def accuracy_range(curves):
    """(low, high) of the accuracy axis, in %, from the accuracy curves (lists of %) of the runs
    that learn: their values after the first quarter of their evaluations, with a margin of 5%
    of the span (at least half a point), within 0-100."""
    kept = []
    for curve in curves:
        kept += _finite(curve[min(len(curve) - 1, math.ceil(SKIP_FRACTION * len(curve))):])
    if not kept:
        return 0.0, 100.0
    lo, hi = min(kept), max(kept)
    margin = max(0.05 * (hi - lo), 0.5)
    return max(0.0, lo - margin), min(100.0, hi + margin)


def whole_range(curves):
    """(low, high) of the panel of whole accuracy curves (lists of %): every value, from 0 when
    one is near chance (below 25%), within 0-100."""
    values = [v for curve in curves for v in _finite(curve)]
    if not values:
        return 0.0, 100.0
    lo, hi = min(values), max(values)
    margin = max(0.05 * (hi - lo), 0.5)
    return (0.0 if lo < 25 else max(0.0, lo - margin)), min(100.0, hi + margin)


def loss_range(curves):
    """(low, high, log scale?) of the loss axis from the loss curves of the runs that learn."""
    values = [v for curve in curves for v in _finite(curve)]
    if not values:
        return None
    lo, hi = min(values), max(values)
    log = lo > 0 and hi / lo >= 10
    if log:
        return lo / 1.25, hi * 1.25, True
    margin = max(0.05 * (hi - lo), 1e-3)
    return max(0.0, lo - margin), hi + margin, False


def coinciding(curves, tolerance=0.05):
    """For each curve ((times, values)), the index of an earlier curve it lies on (the same
    evaluation times and values within `tolerance`), else None."""
    out = []
    for j, (t_j, v_j) in enumerate(curves):
        same = None
        for i in range(j):
            t_i, v_i = curves[i]
            if len(t_i) == len(t_j) and all(abs(a - b) <= 1e-9 * max(1.0, abs(a))
                                            for a, b in zip(t_i, t_j)) and \
                    all(abs(a - b) <= tolerance for a, b in zip(v_i, v_j)
                        if math.isfinite(a) and math.isfinite(b)):
                same = i
                break
        out.append(same)
    return out


def log_time(ends):
    """Whether the time axis is logarithmic: when a run is over within LOG_TIME_RATIO of the
    longest run's time (ASP's 20 s beside BSP's 13 min), on a linear axis it would be a smear at
    its left edge."""
    ends = [e for e in ends if e > 0]
    return len(ends) > 1 and min(ends) < LOG_TIME_RATIO * max(ends)


def marker_indices(times, shift, log_x, marks=MARKS_PER_CURVE):
    """Indices of the evaluations that get a marker: the ones nearest `marks` positions evenly
    spaced along the time axis as drawn (linear or log), shifted by `shift` (0 to 1) of a step so
    that coinciding curves put their markers side by side."""
    pos = [math.log10(t) if log_x else t for t in times]
    if len(pos) <= marks:
        return list(range(len(pos)))
    lo, hi = pos[0], pos[-1]
    step = (hi - lo) / marks
    out = []
    for j in range(marks):
        target = lo + (j + shift) * step
        k = min(range(len(pos)), key=lambda i: abs(pos[i] - target))
        if k not in out:
            out.append(k)
    return out


def _style_of(rd, run, i, diverged, times, log_x):
    """Line and marker style of run number i. Hermes keeps an open circle at every evaluation
    (each follows a major update); the other runs get a marker shape of their own, spaced evenly
    along the time axis as drawn (a log axis crowds the evaluations to the right) and shifted per
    run so that coinciding curves still show both."""
    colour = style.RUN_COLOURS[i % len(style.RUN_COLOURS)]
    kw = {"color": colour, "lw": 1.1 if diverged else 1.3, "ls": "--" if diverged else "-"}
    if diverged:
        kw["alpha"] = 0.75
    if rd.protocol.get(run) == "hermes":
        kw.update(marker="o", ms=3, mfc="white", mec=colour, mew=0.8)
    else:
        kw.update(marker=MARKERS[i % len(MARKERS)], ms=4,
                  markevery=marker_indices(times, (i % 4 + 0.5) / 4, log_x))
    return kw


def _label(rd, run, diverged, same_as):
    label = rd.title(run)
    if diverged:  # "diverged", or whatever else summary.csv says instead of ok
        label += ": " + rd.status[run]
    if same_as is not None:
        label += ", same curve as %s" % same_as
    return label


def _layout(side_by_side, full, title, acc_title, loss_title, full_title, labels):
    """The figure and its axes (accuracy, loss, full-range or None, legend strip), with the
    wrapped titles set. Side by side (wide prints): accuracy | loss above, the full-range panel
    under the accuracy and the legend beside it. Stacked (a column): accuracy, loss, full range,
    legend, sharing the time axis."""
    width = style.width()
    size = style.BODY_PT
    panel_w = width / 2 if side_by_side else width
    acc_title = layout.wrap(acc_title, panel_w - 0.4, size)
    loss_title = layout.wrap(loss_title, panel_w - 0.4, size)
    full_title = layout.wrap(full_title, panel_w - 0.4, size)
    sup, top = layout.wrapped_suptitle(title)
    line = layout.LINE * size / 72.0
    legend_w = panel_w if side_by_side and full else width
    labels, ncol, legend_h = layout.legend_layout(labels, legend_w - 0.1)
    if side_by_side:
        upper = 0.45 + max(layout.lines_of(acc_title), layout.lines_of(loss_title)) * line + 1.9
        lower = max(0.45 + layout.lines_of(full_title) * line + 0.8, legend_h) if full else 0
        strip = 0 if full else legend_h
        fig = style.figure(top + upper + lower + strip)
        rows = [upper] + ([lower] if full else [strip])
        spec = fig.add_gridspec(2, 2, height_ratios=rows)
        ax_acc = fig.add_subplot(spec[0, 0])
        ax_loss = fig.add_subplot(spec[0, 1])
        if full:
            ax_full = fig.add_subplot(spec[1, 0], sharex=ax_acc)
            ax_legend = fig.add_subplot(spec[1, 1])
            ax_acc.tick_params(labelbottom=False)  # the time axis is read below it
        else:
            ax_full, ax_legend = None, fig.add_subplot(spec[1, :])
    else:
        heights = [layout.lines_of(acc_title) * line + 1.45,
                   layout.lines_of(loss_title) * line + 1.15]
        if full:
            heights.append(layout.lines_of(full_title) * line + 0.75)
        heights[-1] += 0.4  # the time axis' tick labels and label
        heights.append(legend_h)
        fig = style.figure(top + sum(heights))
        spec = fig.add_gridspec(len(heights), 1, height_ratios=heights)
        ax_acc = fig.add_subplot(spec[0])
        ax_loss = fig.add_subplot(spec[1], sharex=ax_acc)
        ax_full = fig.add_subplot(spec[2], sharex=ax_acc) if full else None
        ax_legend = fig.add_subplot(spec[-1])
        for ax in (ax_acc, ax_loss):
            ax.tick_params(labelbottom=False)
        if full:
            ax_loss.tick_params(labelbottom=False)
    fig.suptitle(sup)
    ax_acc.set_title(acc_title)
    ax_loss.set_title(loss_title)
    if ax_full is not None:
        ax_full.set_title(full_title)
    ax_legend.axis("off")
    return fig, ax_acc, ax_loss, ax_full, ax_legend, labels, ncol


def accuracy_loss(rd, runs, out_dir, fmt):
    """Global test accuracy and loss against simulated time, one line per run."""
    runs = rd.with_rows(runs, rd.evals)
    diverged = {r for r in runs if rd.status.get(r) != "ok"}
    learning = [r for r in runs if r not in diverged] or runs  # none learns: scale to them all
    t_max = max(max(rd.evals[r]["time_s"]) for r in runs)
    div, xlabel = style.time_axis(t_max)
    log_x = log_time([max(rd.evals[r]["time_s"]) for r in runs]) and \
        all(t > 0 for r in runs for t in rd.evals[r]["time_s"])
    if log_x:
        xlabel = xlabel[:-1] + ", log scale)"
    curves = [([t / div for t in rd.evals[r]["time_s"]],
               [100.0 * a for a in rd.evals[r]["accuracy"]]) for r in runs]
    same = coinciding(curves)
    low, high = accuracy_range([curves[runs.index(r)][1] for r in learning])
    # The accuracy axis hides part of a curve (the climb from chance, a diverged run): the
    # whole curves go in a panel below, and the accuracy panel says what its axis fits.
    hidden = any(not low <= a <= high for _, acc in curves for a in _finite(acc))
    acc_title = "Test accuracy"
    if hidden and diverged:
        acc_title += ", axis fitted to the runs that learn, after their first quarter of " \
                     "evaluations; diverged runs clipped"
    elif hidden:
        acc_title += ", axis fitted to the evaluations after each run's first quarter"
    loss_title = "Test loss" + (", axis fitted to the runs that learn" if diverged else "")
    names = [_label(rd, run, run in diverged, None if same[i] is None else runs[same[i]])
             for i, run in enumerate(runs)]
    labels = list(names)
    hermes = any(rd.protocol.get(r) == "hermes" for r in runs)
    if hermes:
        labels.append("major update aggregated (Hermes)")
    side_by_side = style.columns(2, SIDE_BY_SIDE_PANEL) == 2
    fig, ax_acc, ax_loss, ax_full, ax_legend, labels, ncol = _layout(
        side_by_side, hidden, "Global model on the test set",
        acc_title, loss_title, "Whole curves", labels)
    handles = []
    for i, run in enumerate(runs):
        t, acc = curves[i]
        kw = _style_of(rd, run, i, run in diverged, t, log_x)
        handles.append(ax_acc.plot(t, acc, label=names[i], **kw)[0])
        ax_loss.plot(t, rd.evals[run]["loss"], **kw)
        if ax_full is not None:
            ax_full.plot(t, acc, **kw)
    ax_acc.set_ylim(low, high)
    ax_acc.set_ylabel("accuracy (%)")
    scale = loss_range([rd.evals[r]["loss"] for r in learning])
    if scale is not None:
        lo, hi, log = scale
        if log:
            ax_loss.set_yscale("log")
            ax_loss.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: "%g" % v))
            ax_loss.yaxis.set_minor_formatter(ticker.NullFormatter())
        ax_loss.set_ylim(lo, hi)
    ax_loss.set_ylabel("loss")
    if ax_full is not None:
        ax_full.set_ylim(*whole_range([acc for _, acc in curves]))
        ax_full.yaxis.set_major_locator(ticker.MaxNLocator(nbins=3))
        ax_full.set_ylabel("accuracy (%)")
    # The panels with nothing under them carry the time label.
    if side_by_side:
        labelled = (ax_loss, ax_full if ax_full is not None else ax_acc)
    else:
        labelled = (ax_full if ax_full is not None else ax_loss,)
    times = [t for t, _ in curves]
    for ax in (ax_acc, ax_loss) + ((ax_full,) if ax_full is not None else ()):
        if log_x:
            first, last = min(t[0] for t in times) / 1.3, max(t[-1] for t in times) * 1.1
            ax.set_xscale("log")
            # Under three decades, 1-2-5 ticks: 1 and 10 alone say little.
            subs = (1.0, 2.0, 5.0) if last / first < 1000 else (1.0,)
            ax.xaxis.set_major_locator(ticker.LogLocator(subs=subs))
            ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: "%g" % v))
            ax.xaxis.set_minor_formatter(ticker.NullFormatter())
            ax.set_xlim(first, last)
        else:
            ax.set_xlim(left=0)
        if ax in labelled:
            ax.set_xlabel(xlabel)
    if hermes:
        handles.append(plt.Line2D([], [], ls="none", marker="o", ms=4, mfc="white", mec="0.3"))
    ax_legend.legend(handles, labels, loc="center", ncol=ncol, fontsize=style.SMALL_PT,
                     borderaxespad=0)
    rd.mark_left_out(fig, rd.evals)
    return layout.save(fig, out_dir, "accuracy_loss", fmt)
