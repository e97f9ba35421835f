"""Figures of one run directory (`hermes-sim run --out DIR`): the workers' iteration times, their
chunk sizes and the burst credits of B-series nodes (the global model over time is
accuracy_loss.py).

A panel per run, in as many columns as the print width holds (layout.panel_grid), every panel of
a figure on the same y axis so that runs compare; a figure keeps within a page's height."""

import statistics

from . import layout, style
from .style import plt

FEW_POINTS = 5  # a worker with at most this many iterations gets a marker at each
TOO_SHORT = 0.05  # a panel whose iterations (nine in ten: the first may be longer) stay under
#                   this fraction of the shared axis says so


def _worker_order(workers, profiles):
    """Worker names in index order (w2 before w10), each with its profile."""
    seen = {}
    for w, p in zip(workers, profiles):
        seen.setdefault(w, p)
    return sorted(seen.items(), key=lambda wp: (len(wp[0]), wp[0]))


def _cluster_colours(rd, runs):
    """Profile colours over every drawn run, in catalog order."""
    profiles = {p for r in runs for p in rd.iterations[r]["profile"]}
    colours = style.profile_colours(profiles)
    return {p: colours[p] for p in sorted(colours, key=style.profile_sort_key)}


def _workers_of(rd, run):
    it = rd.iterations[run]
    return it, _worker_order(it["worker"], it["profile"])


def _rows_of(it, worker):
    return [i for i, w in enumerate(it["worker"]) if w == worker]


def _run_title(rd, run):
    """The panel title: the run, its protocol, and its status unless ok (a diverged run's few
    iterations are no straggler pattern)."""
    status = rd.status.get(run, "ok")
    return rd.title(run) + ("" if status == "ok" else ": " + status)


def _line_kw(n_points):
    """A worker with a handful of iterations is drawn as points too: a lone iteration is no
    line."""
    return {"marker": "o", "ms": 2.5} if n_points <= FEW_POINTS else {}


def _x_labels(axes, cols, label):
    """The x label under the last panel of each column."""
    for i, ax in enumerate(axes):
        if layout.bottom_of_column(i, len(axes), cols):
            ax.set_xlabel(label)


def _iteration_limits(ax, ks):
    """x limits of an iteration axis: its iterations, half an iteration beyond when they are a
    few (one iteration would otherwise be an axis from 0.998 to 1.002)."""
    lo, hi = min(ks), max(ks)
    if hi - lo < 4:
        ax.set_xlim(lo - 0.5, hi + 0.5)
    else:
        ax.set_xlim(lo, hi)
    layout.integer_ticks(ax.xaxis)


def _time_limits(ax, series):
    """A time axis from 0 to a little past the panel's last point (a marker at the very end, the
    lone iteration of a diverged run, would be cut in half by the axis)."""
    ax.set_xlim(0, 1.04 * max(x for xs, _ in series for x in xs) or 1.0)


def _shared_top(values, margin=0.05):
    return max(values + [0.0]) * (1 + margin) or 1.0


def _same_line_notes(ax, groups, names, points):
    """'w0, w1: same line' for each group of workers whose lines lie on each other."""
    if groups:
        text = "\n".join("%s: same line" % layout.name_list([names[i] for i in g])
                         for g in groups)
        layout.corner_text(ax, text, points)


def _finish(fig, rd, notes, legend, colours, out_dir, name, fmt):
    """Places the panels, then what needs their final places (the same-line notes, the legend of
    a line per colour, the runs left out), and writes the figure."""
    layout.place(fig)
    for note in notes:
        _same_line_notes(*note)
    legend([plt.Line2D([], [], color=c, lw=2) for c in colours])
    rd.mark_left_out(fig, rd.iterations)
    return layout.save(fig, out_dir, name, fmt)


def iteration_times(rd, runs, out_dir, fmt):
    """Each worker's iteration time against its local iteration, coloured by node profile, with
    the cluster median per iteration (the paper's Fig. 11-12); every panel on one y axis from 0.
    A run whose iterations are too short to show on it (ASP's single steps beside BSP's chunks)
    says so, with its median."""
    runs = rd.with_rows(runs, rd.iterations)
    colours = _cluster_colours(rd, runs)
    median_label = "cluster median (iterations every worker reached)"
    fig, axes, legend = layout.panel_grid(
        len(runs), "Iteration time per worker (chunk requested to compute done)",
        list(colours) + [median_label], ylabel="iteration time (s)")
    top = _shared_top([d for r in runs for d in rd.iterations[r]["duration_s"]])
    notes = []
    for ax, run in zip(axes, runs):
        it, workers = _workers_of(rd, run)
        for worker, profile in workers:
            rows = _rows_of(it, worker)
            ax.plot([it["local_iteration"][i] for i in rows], [it["duration_s"][i] for i in rows],
                    color=colours[profile], lw=0.8, alpha=0.75, **_line_kw(len(rows)))
        # The median over every worker, up to the last local iteration every worker reached (beyond
        # it only the fast workers would be left in it).
        common = min(max(it["local_iteration"][i] for i in _rows_of(it, w)) for w, _ in workers)
        by_iter = {}
        for k, d in zip(it["local_iteration"], it["duration_s"]):
            if k <= common:
                by_iter.setdefault(k, []).append(d)
        ks = sorted(by_iter)
        med = [statistics.median(by_iter[k]) for k in ks]
        ax.plot(ks, med, color="black", lw=1.4, ls="--", **_line_kw(len(ks)))
        layout.panel_title(ax, _run_title(rd, run), fig)
        _iteration_limits(ax, it["local_iteration"])
        text = "median at iteration %d: %.3g s" % (ks[-1], med[-1])
        durations = sorted(it["duration_s"])
        if durations[int(0.9 * (len(durations) - 1))] < TOO_SHORT * top:
            text += ", too short for this axis"
        idle = rd.idle_workers(run)
        if idle:  # workers with no line (crashed, evicted, never given a chunk): say which
            text += "; no iteration: " + ", ".join(idle)
        notes.append((ax, text, list(zip(it["local_iteration"], it["duration_s"]))))
    axes[0].set_ylim(0, top)  # shared by every panel
    _x_labels(axes, fig.panel_columns, "local iteration")
    layout.place(fig)
    for ax, text, points in notes:
        width = layout.axes_inches(ax)[0] - 0.2
        layout.corner_text(ax, layout.wrap(text, width, style.SMALL_PT), points)
    legend([plt.Line2D([], [], color=c, lw=2) for c in colours.values()] +
           [plt.Line2D([], [], color="black", lw=1.4, ls="--")])
    rd.mark_left_out(fig, rd.iterations)
    return layout.save(fig, out_dir, "iteration_times", fmt)


def _constant_chunks(rd, runs, out_dir, fmt):
    """No run resizes its chunks: one panel of a bar per run at its chunk size, instead of a
    panel per run of flat lines."""
    sizes = [rd.iterations[r]["chunk_size"][0] for r in runs]
    title, top = layout.wrapped_suptitle(
        "Chunk size per run: no run resizes its chunks (every worker, every iteration)")
    fig = style.figure(top + 0.6 + 0.2 * len(runs))
    ax = fig.add_subplot()
    fig.suptitle(title)
    ys = range(len(runs))
    bars = ax.barh(ys, sizes, color="0.45", height=0.6)
    ax.bar_label(bars, ["%g" % s for s in sizes], padding=2, fontsize=style.SMALL_PT)
    ax.set_yticks(ys, [rd.title(r) for r in runs])
    ax.set_ylim(len(runs) - 0.5, -0.5)
    ax.set_xlim(0, 1.15 * max(sizes))
    ax.set_xlabel("chunk size (samples)")
    ax.grid(axis="y", visible=False)
    layout.integer_ticks(ax.xaxis)
    rd.mark_left_out(fig, rd.iterations)
    return layout.save(fig, out_dir, "chunk_sizes", fmt)


def _constant_note(rd, runs):
    """'bsp, asp: 2500 samples throughout' for the runs left out, grouped by chunk size."""
    by_size = {}
    for r in runs:
        by_size.setdefault(rd.iterations[r]["chunk_size"][0], []).append(r)
    return "; ".join("%s: %g samples throughout, not drawn" % (", ".join(rs), size)
                     for size, rs in by_size.items())


def chunk_sizes(rd, runs, out_dir, fmt):
    """Each worker's chunk size over simulated time (dynamic allocation resizing outliers), every
    panel on one y axis from 0. Runs whose chunks never change are left out, and named in the
    title with their chunk size; when no run changes them, a bar per run instead."""
    runs = rd.with_rows(runs, rd.iterations)
    varying = [r for r in runs if len(set(rd.iterations[r]["chunk_size"])) > 1]
    if not varying:
        return _constant_chunks(rd, runs, out_dir, fmt)
    title = "Chunk size per worker over time (one line per worker)"
    constant = [r for r in runs if r not in varying]
    if constant:
        title += "; " + _constant_note(rd, constant)
    colours = _cluster_colours(rd, varying)
    fig, axes, legend = layout.panel_grid(len(varying), title, list(colours),
                                          ylabel="chunk size (samples)")
    div, xlabel = style.time_axis(max(max(rd.iterations[r]["end_s"]) for r in varying))
    top = _shared_top([c for r in varying for c in rd.iterations[r]["chunk_size"]])
    notes = []
    for ax, run in zip(axes, varying):
        it, workers = _workers_of(rd, run)
        series = []
        for worker, profile in workers:
            rows = _rows_of(it, worker)
            xs = [it["start_s"][i] / div for i in rows]
            ys = [it["chunk_size"][i] for i in rows]
            series.append((xs, ys))
            ax.plot(xs, ys, drawstyle="steps-post", color=colours[profile], lw=1.0, alpha=0.8,
                    **_line_kw(len(rows)))
        layout.panel_title(ax, _run_title(rd, run), fig)
        _time_limits(ax, series)
        # Workers of one profile resized alike draw one line in one colour: say how many.
        groups = [g for g in layout.same_lines(series, top)
                  if len({workers[i][1] for i in g}) == 1]
        notes.append((ax, groups, [w for w, _ in workers],
                      [p for xs, ys in series for p in zip(xs, ys)]))
    axes[0].set_ylim(0, top)
    layout.integer_ticks(axes[0].yaxis)
    _x_labels(axes, fig.panel_columns, xlabel)
    return _finish(fig, rd, notes, legend, colours.values(), out_dir, "chunk_sizes", fmt)


def burst_credits(rd, runs, out_dir, fmt):
    """Credits left in each B-series node's bank after each of its iterations, every panel on one
    y axis from 0; None when the cluster has no B-series node. Nodes whose credits lie on each
    other share the line in turns (each colour a dash of it) and the panel names them."""
    runs = [r for r in runs if r in rd.iterations and
            any(c is not None for c in rd.iterations[r]["credits_left"])]
    if not runs:
        return None
    palette = plt.get_cmap("tab10").colors
    legend_colours = {}
    for run in runs:  # a colour per node across panels, in worker order
        it, workers = _workers_of(rd, run)
        for worker, profile in workers:
            if any(it["credits_left"][i] is not None for i in _rows_of(it, worker)):
                label = "%s (%s)" % (worker, profile)
                legend_colours.setdefault(label, palette[len(legend_colours) % len(palette)])
    fig, axes, legend = layout.panel_grid(
        len(runs), "Burst credits of B-series nodes after each iteration", list(legend_colours),
        ylabel="CPU credits left")
    div, xlabel = style.time_axis(max(max(rd.iterations[r]["end_s"]) for r in runs))
    top = _shared_top([c for r in runs for c in rd.iterations[r]["credits_left"]
                       if c is not None])
    notes = []
    for ax, run in zip(axes, runs):
        it, workers = _workers_of(rd, run)
        names, labels, series = [], [], []
        for worker, profile in workers:
            rows = [i for i in _rows_of(it, worker) if it["credits_left"][i] is not None]
            if rows:
                names.append(worker)
                labels.append("%s (%s)" % (worker, profile))
                series.append(([it["end_s"][i] / div for i in rows],
                               [it["credits_left"][i] for i in rows]))
        groups = layout.same_lines(series, top)
        dashes = {}
        for g in groups:
            for k, i in enumerate(g):
                dashes[i] = layout.interleaved(len(g), k)
        for i, (xs, ys) in enumerate(series):
            ax.plot(xs, ys, color=legend_colours[labels[i]], lw=1.3,
                    ls=dashes.get(i, "-"), **_line_kw(len(xs)))
        layout.panel_title(ax, _run_title(rd, run), fig)
        _time_limits(ax, series)
        notes.append((ax, groups, names, [p for xs, ys in series for p in zip(xs, ys)]))
    axes[0].set_ylim(0, top)
    _x_labels(axes, fig.panel_columns, xlabel)
    return _finish(fig, rd, notes, legend, legend_colours.values(), out_dir, "credits", fmt)
