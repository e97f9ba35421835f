"""Figures of a sweep directory (`hermes-sim sweep ... --out DIR`): DIR/summary.csv has one row per
point and run, with the columns `point`, one column per grid key named by its key path
(`runs.hermes.alpha`, numbers written the shortest way), then every column of a run's
summary.csv; DIR/sweep.json says which run each row is and which points there are (sweep_data).
The ok seeds of a grid cell are averaged; seeds that diverged are never averaged in nor silently
left out: a cell, value or point says how many diverged, which a cap stopped, and which points
are missing or timed out. For each run the grid varies, sweep_figures draws heatmaps over two
varying grid keys (sweep_heatmap) or line plots over one, or over the seeds of a sweep without
grid keys (sweep_lines); with summary.csv's cost_usd, cost_accuracy draws accuracy against cost
and against simulated time, every run of the sweep in one figure (cost_accuracy). Their layout at
the print width is sweep_layout, the words they write about the cells sweep_words."""

from .cost_accuracy import cost_accuracy
from .data import select_runs
from .sweep_data import Sweep, value_text as _value_text
from .sweep_heatmap import heatmap
from .sweep_lines import lines


def read_sweep(path, hermes_sim=None):
    """The sweep directory `path` (sweep_data.Sweep)."""
    return Sweep(path, hermes_sim)


def sweep_figures(path, out_dir, notes, only, fmt, hermes_sim=None):
    """Heatmaps or line plots for each run of the sweep (or the comma-separated runs `only`) and
    the cost figure; returns the files written (none, with notes saying why, when the sweep has
    nothing to draw yet: a valid sweep is never an error)."""
    sweep = Sweep(path, hermes_sim)
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
