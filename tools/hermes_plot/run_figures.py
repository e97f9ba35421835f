"""Figures of one run directory (`hermes-sim run --out DIR`): the workers' iteration times, their
chunk sizes and the burst credits of B-series nodes (the global model over time is
accuracy_loss.py)."""

import statistics

from . import style
from .style import plt


def _worker_order(workers, profiles):
    """Worker names in index order (w2 before w10), each with its profile."""
    seen = {}
    for w, p in zip(workers, profiles):
        seen.setdefault(w, p)
    return sorted(seen.items(), key=lambda wp: (len(wp[0]), wp[0]))


def _profile_legend(fig, colours, extra=()):
    """One legend for all panels: a line per profile (plus `extra` (handle, label) pairs)."""
    handles = [plt.Line2D([], [], color=c, lw=2) for c in colours.values()]
    labels = list(colours)
    for h, l in extra:
        handles.append(h)
        labels.append(l)
    style.legend_below(fig, handles, labels)


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


def iteration_times(rd, runs, out_dir, fmt):
    """Each worker's iteration time against its local iteration, coloured by node profile, with
    the cluster median per iteration (the paper's Fig. 11-12)."""
    runs = rd.with_rows(runs, rd.iterations)
    fig, axes = style.panel_grid(len(runs))
    colours = _cluster_colours(rd, runs)
    for ax, run in zip(axes, runs):
        it, workers = _workers_of(rd, run)
        for worker, profile in workers:
            rows = _rows_of(it, worker)
            ax.plot([it["local_iteration"][i] for i in rows], [it["duration_s"][i] for i in rows],
                    color=colours[profile], lw=0.8, alpha=0.75,
                    marker="o" if len(rows) == 1 else "None", ms=3)  # one iteration: a dot
        # The median over every worker, up to the last local iteration every worker reached (beyond
        # it only the fast workers would be left in it).
        common = min(max(it["local_iteration"][i] for i in _rows_of(it, w)) for w, _ in workers)
        by_iter = {}
        for k, d in zip(it["local_iteration"], it["duration_s"]):
            if k <= common:
                by_iter.setdefault(k, []).append(d)
        ks = sorted(by_iter)
        med = [statistics.median(by_iter[k]) for k in ks]
        ax.plot(ks, med, color="black", lw=1.4, ls="--")
        ax.text(0.98, 0.04, "cluster median at iteration %d: %.2f s" % (ks[-1], med[-1]),
                transform=ax.transAxes,
                ha="right", va="bottom", fontsize=style.SMALL_PT,
                bbox={"boxstyle": "round", "fc": "white", "ec": "0.8", "alpha": 0.9})
        ax.set_title(rd.title(run))
        ax.set_xlabel("local iteration")
        ax.set_ylabel("iteration time (s)")
        ax.set_xlim(left=min(ks))
        if max(it["local_iteration"]) == min(ks):  # a single iteration: room round it
            ax.set_xlim(min(ks) - 0.5, min(ks) + 0.5)
        idle = rd.idle_workers(run)
        if idle:  # workers with no line: say which
            ax.text(0.02, 0.97, "no iteration: " + ", ".join(idle), transform=ax.transAxes,
                    ha="left", va="top", fontsize=style.SMALL_PT, color="#b2182b")
        ax.set_ylim(bottom=0)
        style.integer_ticks(ax.xaxis)
        if max(it["local_iteration"]) == min(ks):
            ax.set_xticks([min(ks)])
    _profile_legend(fig, colours,
                    [(plt.Line2D([], [], color="black", lw=1.4, ls="--"),
                      "cluster median (iterations every worker reached)")])
    fig.suptitle("Iteration time per worker (chunk requested to compute done)")
    rd.mark_left_out(fig, rd.iterations)
    return style.save(fig, out_dir, "iteration_times", fmt)


def chunk_sizes(rd, runs, out_dir, fmt):
    """Each worker's chunk size over simulated time (dynamic allocation resizing outliers).
    Runs whose chunks never change are left out unless no run changes them."""
    runs = rd.with_rows(runs, rd.iterations)
    varying = [r for r in runs if len(set(rd.iterations[r]["chunk_size"])) > 1]
    runs = varying or runs
    fig, axes = style.panel_grid(len(runs))
    colours = _cluster_colours(rd, runs)
    div, xlabel = style.time_axis(max(max(rd.iterations[r]["end_s"]) for r in runs))
    for ax, run in zip(axes, runs):
        it, workers = _workers_of(rd, run)
        if not varying:  # the lines lie on each other: say what they show
            ax.text(0.5, 0.5, "every chunk: %g samples" % it["chunk_size"][0],
                    transform=ax.transAxes, ha="center", va="center", fontsize=style.BODY_PT,
                    bbox={"boxstyle": "round", "fc": "white", "ec": "0.8"})
        for worker, profile in workers:
            rows = _rows_of(it, worker)
            ax.plot([it["start_s"][i] / div for i in rows], [it["chunk_size"][i] for i in rows],
                    drawstyle="steps-post", color=colours[profile], lw=1.0, alpha=0.8)
        ax.set_title(rd.title(run))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("chunk size (samples)")
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        style.integer_ticks(ax.yaxis)
    _profile_legend(fig, colours)
    fig.suptitle("Chunk size per worker over time (one line per worker)")
    rd.mark_left_out(fig, rd.iterations)
    return style.save(fig, out_dir, "chunk_sizes", fmt)


def burst_credits(rd, runs, out_dir, fmt):
    """Credits left in each B-series node's bank after each of its iterations; None when the
    cluster has no B-series node."""
    runs = [r for r in runs if r in rd.iterations and
            any(c is not None for c in rd.iterations[r]["credits_left"])]
    if not runs:
        return None
    fig, axes = style.panel_grid(len(runs))
    palette = plt.get_cmap("tab10").colors
    legend = {}
    div, xlabel = style.time_axis(max(max(rd.iterations[r]["end_s"]) for r in runs))
    for ax, run in zip(axes, runs):
        it, workers = _workers_of(rd, run)
        for worker, profile in workers:
            rows = [i for i in _rows_of(it, worker) if it["credits_left"][i] is not None]
            if not rows:
                continue
            label = "%s (%s)" % (worker, profile)
            colour = palette[len(legend) % len(palette)] if label not in legend else legend[label]
            legend[label] = colour
            ax.plot([it["end_s"][i] / div for i in rows], [it["credits_left"][i] for i in rows],
                    color=colour, lw=1.2, marker="o", ms=2)
        ax.set_title(rd.title(run))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("CPU credits left")
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
    style.legend_below(fig, [plt.Line2D([], [], color=c, lw=2) for c in legend.values()],
                       list(legend))
    fig.suptitle("Burst credits of B-series nodes after each iteration")
    rd.mark_left_out(fig, rd.iterations)
    return style.save(fig, out_dir, "credits", fmt)
