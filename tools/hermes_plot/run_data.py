"""A run directory (`hermes-sim run --out DIR`) read into columns per run, without matplotlib so
that bad input is reported before any plotting library loads."""

import os

from .data import (GLOBAL_COLUMNS, SUMMARY_COLUMNS, WORKERS_COLUMNS, PlotError, check_run_dir,
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
        self.evals = _by_run(read_table(os.path.join(path, "global.csv"), GLOBAL_COLUMNS),
                             {"time_s": False, "loss": False, "accuracy": False})
        self.iterations = _by_run(
            read_table(os.path.join(path, "workers.csv"), WORKERS_COLUMNS),
            {"start_s": False, "end_s": False, "local_iteration": False, "chunk_size": False,
             "duration_s": False, "credits_left": True},
            texts=("worker", "profile", "update"))

    def select(self, names):
        return select_runs(names, self.runs, os.path.join(self.path, "summary.csv"))

    def with_rows(self, runs, table):
        """The runs of `runs` that have rows in `table` (evals or iterations), in order."""
        drawn = [r for r in runs if r in table]
        if not drawn:
            raise PlotError("%s: none of the runs %s has rows in it" % (self.path, ", ".join(runs)))
        return drawn

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
