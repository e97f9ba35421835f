"""A run directory (`hermes-sim run --out DIR`) read into columns per run, without matplotlib so
that bad input is reported before any plotting library loads."""

import os

from .data import (GLOBAL_COLUMNS, SUMMARY_COLUMNS, WORKERS_COLUMNS, PlotError, check_run_dir,
                   read_json, read_table)


class RunDir:
    """The CSV files of a run directory, split by run (in summary.csv order)."""

    def __init__(self, path):
        check_run_dir(path)
        self.path = path
        self.summary = read_table(os.path.join(path, "summary.csv"), SUMMARY_COLUMNS)
        self.runs = self.summary.texts("run")
        self.protocol = dict(zip(self.runs, self.summary.texts("protocol")))
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
        """The runs to draw: `names` (comma-separated) or every run."""
        if not names:
            return list(self.runs)
        wanted = [n.strip() for n in names.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in self.runs]
        if unknown:
            raise PlotError("--runs: %s has no run named %s (its runs: %s)"
                            % (os.path.join(self.path, "summary.csv"), ", ".join(unknown),
                               ", ".join(self.runs)))
        return wanted

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
