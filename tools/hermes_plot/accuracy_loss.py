"""accuracy_loss.png: the global model's test accuracy and loss against simulated time, a line per
run (the paper's Fig. 13).

The axes are scaled to the runs that learn (status ok in summary.csv): a diverged run, whose
accuracy falls to chance, would otherwise stretch the accuracy axis over 0-100% and squash every
run that learns into one band. Diverged runs are drawn dashed and clipped to those axes, and again
in a small panel below over the full 0-100%, where they can be seen whole. Curves that lie on
each other (ASP and an SSP whose staleness bound never binds) are told apart by markers and a
legend note instead of one hiding the other."""

import math

from . import style
from .style import plt, ticker

SKIP_FRACTION = 0.25  # the first quarter of a run's evaluations: still climbing from chance
MARKERS = ("s", "^", "v", "D", "P", "X", "*", "<", ">")
MARKS_PER_CURVE = 8


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


def _style_of(rd, run, i, n_points, diverged):
    """Line and marker style of run number i. Hermes keeps an open circle at every evaluation
    (each follows a major update); the other runs get a marker shape of their own, spaced out
    and shifted per run so that coinciding curves still show both."""
    colour = style.RUN_COLOURS[i % len(style.RUN_COLOURS)]
    kw = {"color": colour, "lw": 1.1 if diverged else 1.3, "ls": "--" if diverged else "-"}
    if diverged:
        kw["alpha"] = 0.75
    if rd.protocol.get(run) == "hermes":
        kw.update(marker="o", ms=3, mfc="white", mec=colour, mew=0.8)
    else:
        step = max(1, n_points // MARKS_PER_CURVE)
        kw.update(marker=MARKERS[i % len(MARKERS)], ms=4, markevery=(i % step, step))
    return kw


def _label(rd, run, diverged, same_as):
    label = rd.title(run)
    if diverged:  # "diverged", or whatever else summary.csv says instead of ok
        label += ": " + rd.status[run]
    if same_as is not None:
        label += ", same curve as %s" % same_as
    return label


def accuracy_loss(rd, runs, out_dir, fmt):
    """Global test accuracy and loss against simulated time, one line per run."""
    runs = rd.with_rows(runs, rd.evals)
    diverged = {r for r in runs if rd.status.get(r) != "ok"}
    learning = [r for r in runs if r not in diverged] or runs  # none learns: scale to them all
    t_max = max(max(rd.evals[r]["time_s"]) for r in runs)
    div, xlabel = style.time_axis(t_max)
    if diverged:
        fig, (ax_acc, ax_loss, ax_full) = plt.subplots(
            3, 1, figsize=(style.width(), 6.6), sharex=True, gridspec_kw={"height_ratios": [2.4, 2.0, 1.1]})
    else:
        fig, (ax_acc, ax_loss) = plt.subplots(2, 1, figsize=(style.width(), 5.0), sharex=True)
        ax_full = None
    curves = [([t / div for t in rd.evals[r]["time_s"]],
               [100.0 * a for a in rd.evals[r]["accuracy"]]) for r in runs]
    same = coinciding(curves)
    for i, run in enumerate(runs):
        t, acc = curves[i]
        kw = _style_of(rd, run, i, len(t), run in diverged)
        label = _label(rd, run, run in diverged, None if same[i] is None else runs[same[i]])
        ax_acc.plot(t, acc, label=label, **kw)
        ax_loss.plot(t, rd.evals[run]["loss"], **kw)
        if ax_full is not None:
            ax_full.plot(t, acc, **kw)
    ax_acc.set_ylim(*accuracy_range([curves[runs.index(r)][1] for r in learning]))
    ax_acc.set_ylabel("global test accuracy (%)")
    ax_acc.set_title("Global model on the test set" +
                     (" (axes fit the runs that learn)" if diverged else ""))
    scale = loss_range([rd.evals[r]["loss"] for r in learning])
    if scale is not None:
        low, high, log = scale
        if log:
            ax_loss.set_yscale("log")
            ax_loss.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: "%g" % v))
            ax_loss.yaxis.set_minor_formatter(ticker.NullFormatter())
        ax_loss.set_ylim(low, high)
    ax_loss.set_ylabel("global test loss")
    bottom = ax_loss
    if ax_full is not None:
        ax_full.set_ylim(0, 100)
        ax_full.set_ylabel("accuracy (%),\nfull range")
        bottom = ax_full
    bottom.set_xlabel(xlabel)
    bottom.set_xlim(left=0)
    handles, labels = ax_acc.get_legend_handles_labels()
    if any(rd.protocol.get(r) == "hermes" for r in runs):
        handles.append(plt.Line2D([], [], ls="none", marker="o", ms=4, mfc="white", mec="0.3"))
        labels.append("major update aggregated (Hermes)")
    ax_acc.legend(handles, labels, loc="lower right", fontsize=style.SMALL_PT)
    rd.mark_left_out(fig, rd.evals)
    return style.save(fig, out_dir, "accuracy_loss", fmt)
