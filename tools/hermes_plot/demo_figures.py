"""Figures of demo runs (demo_data.py): what each worker did when (a Gantt chart from
timeline.csv), where each worker's time went (demo_workers.csv), and how its compute time grew as
a B-series node ran out of burst credits."""

from . import style
from .style import plt

# Span colours by activity; waiting is the white between spans.
ACTIVITY_COLOURS = {"compute": "#1f77b4", "recv_chunk": "#ff7f0e", "send_update": "#2ca02c",
                    "recv_model": "#9467bd"}
OTHER_COLOUR = "#7f7f7f"
WINDOW_ITERATIONS = 3  # the zoomed Gantt shows the first iterations, where spans are wide enough


def _node_order(nodes):
    """Node names with workers in index order (w2 before w10) below the PS."""
    return sorted(set(nodes), key=lambda n: (n.startswith("w"), len(n), n))


def _activity_colours(spans):
    names = sorted(set(spans["activity"]), key=lambda a: (a not in ACTIVITY_COLOURS, a))
    return {a: ACTIVITY_COLOURS.get(a, OTHER_COLOUR) for a in names}


def window_end(spans, iterations=WINDOW_ITERATIONS):
    """The time by which every node has ended the spans of its first `iterations` iterations
    (the end of the run when no span goes beyond them)."""
    last = {}
    for node, it, end in zip(spans["node"], spans["iteration"], spans["end_s"]):
        if it <= iterations:
            last[node] = max(last.get(node, 0.0), end)
    return max(last.values()) if last else max(spans["end_s"])


def _gantt(ax, spans, colours, t_end, div):
    nodes = _node_order(spans["node"])
    for row, node in enumerate(nodes):
        for activity, colour in colours.items():
            bars = [(s / div, (e - s) / div) for n, a, s, e in
                    zip(spans["node"], spans["activity"], spans["start_s"], spans["end_s"])
                    if n == node and a == activity and s < t_end]
            ax.broken_barh(bars, (row - 0.4, 0.8), facecolors=colour, lw=0)
    profile = dict(zip(spans["node"], spans["profile"]))
    ax.set_yticks(range(len(nodes)), ["%s (%s)" % (n, profile[n]) for n in nodes])
    ax.set_ylim(len(nodes) - 0.5, -0.5)  # first node on top
    ax.set_xlim(0, t_end / div)
    ax.grid(axis="y", visible=False)


def timeline(dd, runs, out_dir, fmt):
    """A Gantt chart per run: every span of every node over the whole run, and over its first
    iterations. None without timeline.csv."""
    runs = [r for r in runs if dd.spans.get(r, {}).get("node")]
    if not runs:
        return None
    n_nodes = max(len(set(dd.spans[r]["node"])) for r in runs)
    fig, axes = style.panel_grid(2 * len(runs), height=0.2 * n_nodes + 1.0)
    colours = {}
    for row, run in enumerate(runs):
        spans = dd.spans[run]
        run_colours = _activity_colours(spans)
        colours.update(run_colours)
        whole, first = axes[2 * row], axes[2 * row + 1]
        for ax, t_end in ((whole, max(spans["end_s"])), (first, window_end(spans))):
            div, xlabel = style.time_axis(t_end)
            _gantt(ax, spans, run_colours, t_end, div)
            ax.set_xlabel(xlabel)
        whole.set_title("%s: the whole run" % run)
        first.set_title("%s: the first %d iterations" % (run, WINDOW_ITERATIONS))
    handles = [plt.Rectangle((0, 0), 1, 1, fc=c) for c in colours.values()]
    handles.append(plt.Rectangle((0, 0), 1, 1, fc="white", ec="0.6"))
    style.legend_below(fig, handles, list(colours) + ["waiting (no span)"])
    fig.suptitle("What each node did when (timeline.csv)")
    return style.save(fig, out_dir, "demo_timeline", fmt)


def worker_totals(dd, runs, out_dir, fmt):
    """Per worker: its time computing, transferring and waiting until it finished, and its
    iterations."""
    fig, axes = plt.subplots(len(runs), 2, squeeze=False,
                             figsize=(style.width(), len(runs) * (0.25 * max(len(dd.workers[r])
                                                                    for r in runs) + 1.6)))
    div, xlabel = style.time_axis(max(w["finished_s"] for r in runs for w in dd.workers[r]))
    for row, run in enumerate(runs):
        workers = dd.workers[run]
        names = ["%s (%s)" % (w["node"], w["profile"]) for w in workers]
        ys = range(len(workers))
        compute = [w["compute_s"] / div for w in workers]
        transfer = [w["transfer_s"] / div for w in workers]
        # Whatever is neither compute nor transfer until the worker's last iteration ended.
        waiting = [max(w["finished_s"] / div - c - t, 0.0)
                   for w, c, t in zip(workers, compute, transfer)]
        ax = axes[row][0]
        ax.barh(ys, compute, color=ACTIVITY_COLOURS["compute"], label="compute")
        ax.barh(ys, transfer, left=compute, color=ACTIVITY_COLOURS["recv_chunk"],
                label="transfers")
        ax.barh(ys, waiting, left=[c + t for c, t in zip(compute, transfer)], color="#dddddd",
                label="waiting")
        ax.set_yticks(ys, names)
        ax.set_ylim(len(workers) - 0.5, -0.5)
        ax.set_xlabel("time until its last iteration ended (%s)" % xlabel.split("(")[-1][:-1])
        ax.set_title("%s: where each worker's time went" % run)
        ax.legend(loc="lower right", fontsize=style.SMALL_PT)
        ax = axes[row][1]
        counts = [w["iterations"] for w in workers]
        bars = ax.barh(ys, counts, color="#555555")
        ax.bar_label(bars, fontsize=style.SMALL_PT, padding=2)
        ax.set_yticks(ys, names)
        ax.set_ylim(len(workers) - 0.5, -0.5)
        ax.set_xlim(0, 1.12 * max(counts + [1]))
        style.integer_ticks(ax.xaxis)
        ax.set_xlabel("iterations")
        ax.set_title("%s: iterations per worker" % run)
    fig.suptitle("Demo workers (demo_workers.csv)")
    return style.save(fig, out_dir, "demo_workers", fmt)


def compute_times(dd, runs, out_dir, fmt):
    """Each worker's compute time per iteration, coloured by node profile, and the burst credits
    left after each compute of B-series nodes. None without timeline.csv."""
    runs = [r for r in runs if "compute" in dd.spans.get(r, {}).get("activity", [])]
    if not runs:
        return None
    has_credits = any(c is not None for r in runs for c in dd.spans[r]["credits_left"])
    fig, axes = plt.subplots(len(runs), 2 if has_credits else 1, squeeze=False,
                             figsize=(style.width(), 2.6 * len(runs) + 0.6))
    profiles = {p for r in runs for p in dd.spans[r]["profile"]}
    colours = style.profile_colours(profiles)
    for row, run in enumerate(runs):
        s = dd.spans[run]
        computes = [i for i, a in enumerate(s["activity"]) if a == "compute"]
        div, xlabel = style.time_axis(max(s["end_s"]))
        for node in _node_order(s["node"][i] for i in computes):
            mine = [i for i in computes if s["node"][i] == node]
            colour = colours[s["profile"][mine[0]]]
            axes[row][0].plot([s["iteration"][i] for i in mine],
                              [s["end_s"][i] - s["start_s"][i] for i in mine],
                              color=colour, lw=1.0)
            credits = [i for i in mine if s["credits_left"][i] is not None]
            if has_credits and credits:
                axes[row][1].plot([s["end_s"][i] / div for i in credits],
                                  [s["credits_left"][i] for i in credits], color=colour, lw=1.0)
        ax = axes[row][0]
        ax.set_xlabel("iteration")
        ax.set_ylabel("compute time (s)")
        ax.set_ylim(bottom=0)
        style.integer_ticks(ax.xaxis)
        ax.set_title("%s: compute time per iteration" % run)
        if has_credits:
            ax = axes[row][1]
            ax.set_xlabel(xlabel)
            ax.set_ylabel("CPU credits left")
            ax.set_ylim(bottom=0)
            ax.set_title("%s: burst credits of B-series nodes" % run)
    ordered = sorted(colours, key=style.profile_sort_key)
    axes[0][0].legend([plt.Line2D([], [], color=colours[p], lw=2) for p in ordered], ordered,
                      loc="upper left", fontsize=style.SMALL_PT)
    fig.suptitle("Demo compute times (timeline.csv)")
    return style.save(fig, out_dir, "demo_compute", fmt)


def demo_figures(dd, runs, out_dir, fmt, notes):
    written = [worker_totals(dd, runs, out_dir, fmt)]
    for figure in (timeline(dd, runs, out_dir, fmt), compute_times(dd, runs, out_dir, fmt)):
        if figure:
            written.append(figure)
    if len(written) == 1:
        notes.append("demo_timeline, demo_compute: %s/timeline.csv has no span of these runs "
                     "(the scenario writes it with \"outputs\": {\"timeline\": true})" % dd.path)
    return written
