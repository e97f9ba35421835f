"""Figures of demo runs (demo_data.py): what each worker did when (a Gantt chart from
timeline.csv), where each worker's time went (demo_workers.csv), and how its compute time grew as
a B-series node ran out of burst credits."""

from . import layout, style
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


PAIR_PANEL = 2.5  # inches: the two panels of a run side by side from a 5 in print on
BAR_IN = 0.2  # inches per node of a bar chart or Gantt chart


def _same_nodes(dd, runs, key):
    """Whether every run has the same nodes (in the spans or the workers' rows): then their
    panels can share a y axis of node names."""
    names = [tuple(_node_order(key(r))) for r in runs]
    return len(set(names)) == 1


def timeline(dd, runs, out_dir, fmt):
    """A Gantt chart per run: every span of every node over the whole run, and over its first
    iterations. None without timeline.csv."""
    runs = [r for r in runs if dd.spans.get(r, {}).get("node")]
    if not runs:
        return None
    n_nodes = max(len(set(dd.spans[r]["node"])) for r in runs)
    colours = {}
    for run in runs:
        colours.update(_activity_colours(dd.spans[run]))
    labels = list(colours) + ["waiting (no span)"]
    fig, axes, legend = layout.panel_grid(
        2 * len(runs), "What each node did when (timeline.csv)", labels,
        sharey=_same_nodes(dd, runs, lambda r: dd.spans[r]["node"]), min_panel=PAIR_PANEL,
        max_columns=2, plot_height=BAR_IN * n_nodes)
    for row, run in enumerate(runs):
        spans = dd.spans[run]
        whole, first = axes[2 * row], axes[2 * row + 1]
        for ax, t_end in ((whole, max(spans["end_s"])), (first, window_end(spans))):
            div, xlabel = style.time_axis(t_end)
            _gantt(ax, spans, _activity_colours(spans), t_end, div)
            ax.set_xlabel(xlabel)
        layout.panel_title(whole, "%s: the whole run" % run, fig)
        layout.panel_title(first, "%s: the first %d iterations" % (run, WINDOW_ITERATIONS), fig)
    handles = [plt.Rectangle((0, 0), 1, 1, fc=c) for c in colours.values()]
    handles.append(plt.Rectangle((0, 0), 1, 1, fc="white", ec="0.6"))
    legend(handles)
    return layout.save(fig, out_dir, "demo_timeline", fmt)


def worker_totals(dd, runs, out_dir, fmt):
    """Per worker: its time computing, transferring and waiting until it finished, and its
    iterations; the time panels of all runs on one axis, and the iteration panels on another."""
    n_workers = max(len(dd.workers[r]) for r in runs)
    fig, axes, legend = layout.panel_grid(
        2 * len(runs), "Demo workers (demo_workers.csv)", ["compute", "transfers", "waiting"],
        sharey=_same_nodes(dd, runs, lambda r: [w["node"] for w in dd.workers[r]]),
        min_panel=PAIR_PANEL, max_columns=2, plot_height=BAR_IN * n_workers)
    div, xlabel = style.time_axis(max(w["finished_s"] for r in runs for w in dd.workers[r]))
    unit = xlabel.split("(")[-1][:-1]
    most = max(w["iterations"] for r in runs for w in dd.workers[r])
    longest = max(w["finished_s"] for r in runs for w in dd.workers[r]) / div
    for row, run in enumerate(runs):
        workers = dd.workers[run]
        names = ["%s (%s)" % (w["node"], w["profile"]) for w in workers]
        ys = range(len(workers))
        compute = [w["compute_s"] / div for w in workers]
        transfer = [w["transfer_s"] / div for w in workers]
        # Whatever is neither compute nor transfer until the worker's last iteration ended.
        waiting = [max(w["finished_s"] / div - c - t, 0.0)
                   for w, c, t in zip(workers, compute, transfer)]
        ax = axes[2 * row]
        ax.barh(ys, compute, color=ACTIVITY_COLOURS["compute"], label="compute")
        ax.barh(ys, transfer, left=compute, color=ACTIVITY_COLOURS["recv_chunk"],
                label="transfers")
        ax.barh(ys, waiting, left=[c + t for c, t in zip(compute, transfer)], color="#dddddd",
                label="waiting")
        ax.set_yticks(ys, names)
        ax.set_ylim(len(workers) - 0.5, -0.5)
        ax.set_xlim(0, longest * 1.02)
        ax.set_xlabel("until its last iteration ended (%s)" % unit)
        layout.panel_title(ax, "%s: where each worker's time went" % run, fig)
        ax = axes[2 * row + 1]
        counts = [w["iterations"] for w in workers]
        bars = ax.barh(ys, counts, color="#555555")
        ax.bar_label(bars, fontsize=style.SMALL_PT, padding=2)
        ax.set_yticks(ys, names)
        ax.set_ylim(len(workers) - 0.5, -0.5)
        ax.set_xlim(0, 1.18 * max(most, 1))  # room for the count after the longest bar
        layout.integer_ticks(ax.xaxis)
        ax.set_xlabel("iterations")
        layout.panel_title(ax, "%s: iterations per worker" % run, fig)
    legend([plt.Rectangle((0, 0), 1, 1, fc=c) for c in
            (ACTIVITY_COLOURS["compute"], ACTIVITY_COLOURS["recv_chunk"], "#dddddd")])
    return layout.save(fig, out_dir, "demo_workers", fmt)


def compute_times(dd, runs, out_dir, fmt):
    """Each worker's compute time per iteration, coloured by node profile, and the burst credits
    left after each compute of B-series nodes, the panels of each kind on one y axis. None
    without timeline.csv."""
    runs = [r for r in runs if "compute" in dd.spans.get(r, {}).get("activity", [])]
    if not runs:
        return None
    has_credits = any(c is not None for r in runs for c in dd.spans[r]["credits_left"])
    per_run = 2 if has_credits else 1
    profiles = {p for r in runs for p in dd.spans[r]["profile"]}
    colours = style.profile_colours(profiles)
    ordered = sorted(colours, key=style.profile_sort_key)
    fig, axes, legend = layout.panel_grid(
        per_run * len(runs), "Demo compute times (timeline.csv)", ordered, sharey=False,
        min_panel=PAIR_PANEL, max_columns=per_run)
    top = {"compute": 0.0, "credits": 0.0}
    notes = []
    for row, run in enumerate(runs):
        s = dd.spans[run]
        computes = [i for i, a in enumerate(s["activity"]) if a == "compute"]
        div, xlabel = style.time_axis(max(s["end_s"]))
        ax_time = axes[per_run * row]
        ax_credit = axes[per_run * row + 1] if has_credits else None
        credit_series, credit_nodes, points = [], [], []
        for node in _node_order(s["node"][i] for i in computes):
            mine = [i for i in computes if s["node"][i] == node]
            colour = colours[s["profile"][mine[0]]]
            times = [s["end_s"][i] - s["start_s"][i] for i in mine]
            top["compute"] = max(top["compute"], max(times))
            ax_time.plot([s["iteration"][i] for i in mine], times, color=colour, lw=1.0)
            credits = [i for i in mine if s["credits_left"][i] is not None]
            if ax_credit is not None and credits:
                xs = [s["end_s"][i] / div for i in credits]
                ys = [s["credits_left"][i] for i in credits]
                top["credits"] = max(top["credits"], max(ys))
                ax_credit.plot(xs, ys, color=colour, lw=1.0)
                credit_series.append((xs, ys))
                credit_nodes.append(node)
                points += list(zip(xs, ys))
        ax_time.set_xlabel("iteration")
        layout.integer_ticks(ax_time.xaxis)
        layout.panel_title(ax_time, "%s: compute time per iteration" % run, fig)
        ax_time.set_ylabel("compute time (s)")
        if ax_credit is not None:
            ax_credit.set_xlabel(xlabel)
            ax_credit.set_xlim(left=0)
            ax_credit.set_ylabel("CPU credits left")
            layout.panel_title(ax_credit, "%s: burst credits of B-series nodes" % run, fig)
            notes.append((ax_credit, credit_series, credit_nodes, points))
    for row in range(len(runs)):  # the panels of a kind compare across runs
        axes[per_run * row].set_ylim(0, 1.05 * top["compute"] or 1.0)
        if has_credits:
            axes[per_run * row + 1].set_ylim(0, 1.05 * top["credits"] or 1.0)
    layout.place(fig)
    for ax, series, nodes, points in notes:
        # Nodes of one profile (one colour) that burn their credits alike draw one line.
        groups = layout.same_lines(series, 1.05 * top["credits"] or 1.0)
        if groups:
            layout.corner_text(ax, "\n".join("%s: same line" % layout.name_list(
                [nodes[i] for i in g]) for g in groups), points)
    legend([plt.Line2D([], [], color=colours[p], lw=2) for p in ordered])
    return layout.save(fig, out_dir, "demo_compute", fmt)


def demo_figures(dd, runs, out_dir, fmt, notes):
    written = [worker_totals(dd, runs, out_dir, fmt)]
    for figure in (timeline(dd, runs, out_dir, fmt), compute_times(dd, runs, out_dir, fmt)):
        if figure:
            written.append(figure)
    if len(written) == 1:
        notes.append("demo_timeline, demo_compute: %s/timeline.csv has no span of these runs "
                     "(the scenario writes it with \"outputs\": {\"timeline\": true})" % dd.path)
    return written
