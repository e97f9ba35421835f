"""A run directory (`hermes-sim run --out DIR`) read into columns per run, without matplotlib so
that bad input is reported before any plotting library loads."""

import os

from .data import (GLOBAL_COLUMNS, SUMMARY_COLUMNS, WORKERS_COLUMNS, NoRows, check_run_dir,
                   read_json, read_table, select_runs)


class RunDir:
    """The CSV files of a run directory, split by run (in summary.csv order)."""

    def __init__(self, path):
        check_run_dir(path)
        self.path = path
        self.summary = read_table(os.path.join(path, "summary.csv"), SUMMARY_COLUMNS)
        self.runs = self.summary.texts("run")
        self.protocol = dict(zip(self.runs, self.summary.texts("protocol")))
        self.status = dict(zip(self.runs, self.summary.texts("status")))
        self.scenario = {}
        if os.path.isfile(os.path.join(path, "scenario.json")):
            self.scenario = read_json(os.path.join(path, "scenario.json"))
        self.selected = list(self.runs)
        # A run that diverged or stopped before its first evaluation (or iteration) has no rows
        # there; a file with none at all is still a valid run directory.
        self.evals = _by_run(read_table(os.path.join(path, "global.csv"), GLOBAL_COLUMNS,
                                        allow_empty=True),
                             {"time_s": False, "loss": False, "accuracy": False})
        self.iterations = _by_run(
            read_table(os.path.join(path, "workers.csv"), WORKERS_COLUMNS, allow_empty=True),
            {"start_s": False, "end_s": False, "local_iteration": False, "chunk_size": False,
             "duration_s": False, "credits_left": True},
            texts=("worker", "profile", "update"))

    def select(self, names):
        self.selected = select_runs(names, self.runs, os.path.join(self.path, "summary.csv"))
        return self.selected

    def with_rows(self, runs, table):
        """The runs of `runs` that have rows in `table` (evals or iterations), in order; NoRows
        naming them and why when none has."""
        drawn = [r for r in runs if r in table]
        if not drawn:
            raise NoRows(self.left_out_text(runs, table))
        return drawn

    def left_out_text(self, runs, table):
        """'bsp (diverged, stopped by diverged), ...: no evaluation in global.csv' for the runs of
        `runs` without rows in `table`; '' when every run has some."""
        missing = [r for r in runs if r not in table]
        if not missing:
            return ""
        stops = dict(zip(self.runs, self.summary.texts("stop_reason")))
        what = "no evaluation in global.csv" if table is self.evals else \
            "no iteration in workers.csv"
        return "%s: %s" % (", ".join("%s (%s, stopped by %s)" % (r, self.status.get(r, "?"),
                                                                  stops.get(r, "?"))
                                     for r in missing), what)

    def idle_workers(self, run):
        """The workers of the cluster (scenario.json: w0, w1, ... in group order) that finished
        no iteration in `run` (crashed, evicted or never given a chunk before the run stopped)."""
        groups = (self.scenario.get("cluster") or {}).get("workers") or []
        n = sum(int(g.get("count", 1)) for g in groups if isinstance(g, dict))
        seen = set(self.iterations.get(run, {}).get("worker", []))
        return ["w%d" % i for i in range(n) if "w%d" % i not in seen]

    def mark_left_out(self, fig, table):
        """Below the figure, the drawn (selected) runs it leaves out for want of rows."""
        text = self.left_out_text(self.selected, table)
        if text:
            from . import layout, style  # matplotlib's, only when there is a figure to mark
            text = layout.wrap("not drawn: " + text, style.width() - 0.15, style.SMALL_PT)
            fig.supxlabel(text, fontsize=style.SMALL_PT, color="#b2182b")

    def title(self, run):
        return "%s (%s)" % (run, self.protocol.get(run, "?"))


def _by_run(table, numeric, texts=()):
    """{run: {column: [values]}} with the `numeric` columns as floats (True: may be empty)."""
    out = {}
    for i, row in enumerate(table.rows):
        cols = out.setdefault(row["run"].strip(), {c: [] for c in list(numeric) + list(texts)})
        for column, allow_empty in numeric.items():
            cols[column].append(table.number(i, column, allow_empty))
        for column in texts:
            cols[column].append(row[column].strip())
    return out
