"""A sweep directory (`hermes-sim sweep ... --out DIR`) read for its figures, without matplotlib:
DIR/summary.csv (one row per point and run: `point`, one column per grid key, then a run's
summary.csv columns) and DIR/sweep.json (the scenario as loaded, the grid, the seeds, the runs
every point executes and every point with its values).

What a row belongs to is read from sweep.json rather than from the row's `run` name: an unnamed
run's default name follows its parameters (`hermes-1.3` is `hermes-1.6-b0.05` at the point
alpha=-1.6, beta=0.05), but each point keeps the runs at the same places, in file order
(scenarios/README.md, "sweep"), so the k-th row of a point is the k-th run sweep.json names. A
grid key addresses a run as the sweep did: by the name it has in the file (the longest dotted
name first), else by its index (`runs.1.alpha`); any other key changes every run.

A cell of a run is one combination of grid values; its rows are the seeds that ran there. A row
is `ok`, `capped` (ok, but stopped by a cap: max_iterations or max_sim_time), or failed (its
status: `diverged`, ...), as hermes-sim says of its status and stop reason (run_endings: the
words are not copied here). A point sweep.json lists whose rows summary.csv lacks (interrupted,
timed out) is missing; the figures say so instead of leaving the cell out silently."""

import os

from .data import SUMMARY_COLUMNS, PlotError, canonical_value, read_json, read_table
from .run_endings import read_endings
SEED = "seed"  # the axis of a sweep without grid keys (--seeds only)


def value_text(v):
    return ("%g" % v) if isinstance(v, float) else str(v)


def sort_key(v):
    return (0, v, "") if isinstance(v, float) else (1, 0.0, v)


class Cell:
    """The rows of one run at one combination of values: drawn (ok, capped included), capped,
    failed ({status: count}) and missing (points not in summary.csv)."""

    def __init__(self):
        self.rows, self.capped, self.failed, self.missing = [], [], {}, 0
        self.bad = []  # the failed rows themselves: cost_accuracy draws them where they ended
        self.timed_out = 0  # of the missing: points --point-timeout abandoned
        self.stops = {}  # the scenario key of a cap -> the rows it stopped

    def add(self, other):
        self.rows += other.rows
        self.capped += other.capped
        self.bad += other.bad
        self.missing += other.missing
        self.timed_out += other.timed_out
        for k, n in other.failed.items():
            self.failed[k] = self.failed.get(k, 0) + n
        for k, n in other.stops.items():
            self.stops[k] = self.stops.get(k, 0) + n

    def total(self):
        return len(self.rows) + sum(self.failed.values()) + self.missing

    def problems(self):
        """What keeps some of the cell's runs out of its mean, or marks it: ['1/2 diverged',
        'capped', 'missing'] (counts only when part of the cell)."""
        n, out = self.total(), []
        for status, k in sorted(self.failed.items()):
            out.append(status if k == n else "%d/%d %s" % (k, n, status))
        if self.missing:
            what = "timed out" if self.timed_out == self.missing else "missing"
            out.append(what if self.missing == n else "%d/%d %s" % (self.missing, n, what))
        if self.capped:
            out.append("capped" if len(self.capped) == n else
                       "%d/%d capped" % (len(self.capped), n))
        return out


class Sweep:
    def __init__(self, path, hermes_sim=None):
        """`hermes_sim`: the binary that says how each row ended (run_endings), found as for
        comparison.png when None; asked only once a row's ending is needed."""
        self.path = path
        self.hermes_sim, self._endings = hermes_sim, None
        self.manifest = read_json(os.path.join(path, "sweep.json"))
        if not isinstance(self.manifest, dict):
            raise PlotError("%s: not a JSON object" % os.path.join(path, "sweep.json"))
        summary = os.path.join(path, "summary.csv")
        self.points = self._manifest_points()
        if not os.path.isfile(summary):
            # A sweep stopped before its first point finished: valid, nothing to draw yet.
            self.table, self.grid = None, list(self.manifest_grid())
            self.row_run, self.runs = [], self._manifest_runs()
            return
        self.table = read_table(summary, ("point",) + SUMMARY_COLUMNS, allow_empty=True)
        start, end = self.table.columns.index("point"), self.table.columns.index("run")
        self.grid = self.table.columns[start + 1:end]
        self.row_run = self._identities()
        self.runs = []
        for name in self._manifest_runs() + self.row_run:
            if name not in self.runs:
                self.runs.append(name)
        self.runs = [r for r in self.runs if r in self.row_run] or self.runs

    # sweep.json ------------------------------------------------------------------------------

    def _scenario_run_names(self):
        """The names of the scenario's runs in file order, as sweep.json records them."""
        runs = self.manifest.get("scenario", {})
        runs = runs.get("runs") if isinstance(runs, dict) else None
        if not isinstance(runs, list):
            return []
        return [r.get("name") for r in runs if isinstance(r, dict) and isinstance(r.get("name"),
                                                                                  str)]

    def _manifest_runs(self):
        """The runs every point executes, in order (sweep.json `runs`, else the scenario's)."""
        runs = self.manifest.get("runs")
        if isinstance(runs, list) and runs and all(isinstance(r, str) for r in runs):
            return list(runs)
        return self._scenario_run_names()

    def manifest_grid(self):
        """{key: [canonical values]} of sweep.json's grid ({} when it has none)."""
        grid = self.manifest.get("grid")
        if not isinstance(grid, dict):
            return {}
        out = {}
        for key, values in grid.items():
            if isinstance(values, list):
                seen = []
                for v in values:
                    c = canonical_value(v if isinstance(v, str) else str(v))
                    if c not in seen:
                        seen.append(c)
                out[key] = seen
        return out

    def _manifest_points(self):
        """[(point, seed, {key: canonical value})] of sweep.json's points ([] when absent)."""
        out = []
        for p in self.manifest.get("points") or []:
            if not isinstance(p, dict) or not isinstance(p.get("point"), str):
                continue
            params = p.get("params") if isinstance(p.get("params"), dict) else {}
            out.append((p["point"], p.get("seed"),
                        {k: canonical_value(str(v)) for k, v in params.items()}))
        return out

    def _identities(self):
        """The run each row of summary.csv belongs to: the k-th row of a point is the k-th run
        of sweep.json (each point keeps the runs at the same places); a point with another
        number of rows keeps the names its rows give."""
        executed = self._manifest_runs()
        by_point = {}
        for i, row in enumerate(self.table.rows):
            by_point.setdefault(row["point"].strip(), []).append(i)
        out = [row["run"].strip() for row in self.table.rows]
        if not executed:
            return out
        for rows in by_point.values():
            if len(rows) == len(executed):
                for k, i in enumerate(rows):
                    out[i] = executed[k]
        return out

    # grid keys and runs ----------------------------------------------------------------------

    def target(self, key):
        """The run grid key `key` changes (None: every run), found as the sweep finds it: the
        longest dotted name first, then an index into the scenario's runs."""
        parts = key.split(".")
        if len(parts) < 2 or parts[0] != "runs":
            return None
        names = self._scenario_run_names() or self.runs
        rest = parts[1:]
        for n in range(len(rest), 0, -1):
            name = ".".join(rest[:n])
            if name in names:
                return name
        if rest[0].isdigit() and int(rest[0]) < len(names):
            return names[int(rest[0])]
        return None

    def affects(self, key, run):
        t = self.target(key)
        return t is None or t == run

    def rows_of(self, run):
        return [i for i, r in enumerate(self.row_run) if r == run]

    def axes(self, run):
        """The keys that vary `run`: grid keys that change it and take several values (sweep.json's
        grid, else summary.csv's), or `seed` in a sweep without grid keys and several seeds."""
        if not self.grid:
            seeds = {self.table.rows[i]["seed"].strip() for i in self.rows_of(run)}
            seeds |= {str(s) for _, s, _ in self.points}
            return [SEED] if len(seeds) > 1 else []
        declared = self.manifest_grid()
        out = []
        for n, key in enumerate(self.grid):
            if not self.affects(key, run):
                continue
            values = declared.get(key)
            if values is None:
                values = {canonical_value(self.table.rows[i][key]) for i in self.rows_of(run)}
            if len(values) > 1:
                out.append(key)
        return out

    def endings(self):
        """The Endings of this sweep's rows, asked of hermes-sim once (run_endings)."""
        if self._endings is None:
            self._endings = read_endings(os.path.join(self.path, "summary.csv"), self.hermes_sim)
        return self._endings

    def state(self, i):
        """'ok', 'capped' or the status of row i."""
        row = self.table.rows[i]
        return self.endings().state(row["status"].strip(), row["stop_reason"].strip())

    def cap_key(self, i):
        """The scenario key of the cap that stopped row i (a capped row)."""
        row = self.table.rows[i]
        return self.endings().cap_key(row["status"].strip(), row["stop_reason"].strip())

    def cells(self, run, keys):
        """{values of `keys`: Cell} of `run`: its rows, and the points sweep.json lists that have
        no row in summary.csv (missing), each under its values."""
        out = {}

        def cell(values):
            return out.setdefault(tuple(values), Cell())

        for i in self.rows_of(run):
            row = self.table.rows[i]
            c = cell(canonical_value(row[k]) for k in keys)
            s = self.state(i)
            if s in ("ok", "capped"):
                c.rows.append(i)
                if s == "capped":
                    c.capped.append(i)
                    why = self.cap_key(i)
                    c.stops[why] = c.stops.get(why, 0) + 1
            else:
                c.failed[s] = c.failed.get(s, 0) + 1
                c.bad.append(i)
        done = {row["point"].strip() for row in self.table.rows}
        timed_out = self.timed_out()
        for point, seed, params in self.points:
            if point in done:
                continue
            values = [canonical_value(str(seed)) if k == SEED else params.get(k) for k in keys]
            if None not in values:
                c = cell(values)
                c.missing += 1
                c.timed_out += point in timed_out
        return out

    def timed_out(self):
        """{point: timeout_s} of DIR/timed_out.json (the points --point-timeout abandoned and
        no later start ran yet); {} without it."""
        path = os.path.join(self.path, "timed_out.json")
        if not os.path.isfile(path):
            return {}
        doc = read_json(path)
        points = doc.get("points") if isinstance(doc, dict) else None
        return {p["point"]: p.get("timeout_s") for p in points or []
                if isinstance(p, dict) and isinstance(p.get("point"), str)}

    def missing_points(self):
        """The points sweep.json lists that have no row in summary.csv."""
        done = set() if self.table is None else {r["point"].strip() for r in self.table.rows}
        return [(p, seed, params) for p, seed, params in self.points if p not in done]
