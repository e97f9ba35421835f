"""What the sweep figures write about a sweep's grid cells (sweep_heatmap, sweep_lines,
cost_accuracy): axis names from the grid keys' paths, the metrics in units readable for the sweep
and which way each is better, how many seeds a point averages, and how seeds that did not end ok
by their patience ended (diverged, error, stopped by a cap)."""

from .sweep_data import SEED, value_text as _value_text


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


def _cell_label(names, keys, values):
    return ", ".join("%s=%s" % (names[k], _value_text(v)) for k, v in zip(keys, values))


def _every_cap(by_cell):
    """Whether a cap stopped every drawn run of the figure and nothing else happened: then the
    notes say so once instead of every cell saying capped."""
    drawn = [c for c in by_cell.values() if c.rows]
    return bool(drawn) and all(len(c.capped) == len(c.rows) and not c.failed and not c.missing
                               for c in by_cell.values())


def _failed_words(cells):
    """How the failed seeds of `cells` (Cells) ended: "diverged", or "diverged or error"."""
    statuses = sorted({s for c in cells for s in c.failed})
    return " or ".join(statuses) if statuses else "diverged"


def _cap_keys(cells):
    """The caps that stopped runs of `cells` (Cells), by their scenario keys (hermes-sim's
    "cap_key", run_endings)."""
    return " or ".join(sorted({k for c in cells for k in c.stops})) or "a cap"
