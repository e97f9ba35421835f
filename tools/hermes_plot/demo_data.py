"""A run directory of demo runs (protocol "demo": chunks out, compute, updates back, no math) read
into columns per run, without matplotlib: demo_workers.csv (one row per worker: iterations and
time spent computing and transferring) and, when the scenario asked for it (outputs.timeline),
timeline.csv (one row per span of what each node did when)."""

import os

from .data import DEMO_WORKERS_COLUMNS, TIMELINE_COLUMNS, read_table, select_runs


class DemoDir:
    def __init__(self, path):
        self.path = path
        table = read_table(os.path.join(path, "demo_workers.csv"), DEMO_WORKERS_COLUMNS)
        self.runs = []
        self.workers = {}  # run -> [{node, profile, iterations, finished_s, compute_s, ...}]
        for i, row in enumerate(table.rows):
            run = row["run"].strip()
            if run not in self.workers:
                self.runs.append(run)
            self.workers.setdefault(run, []).append({
                "node": row["node"].strip(), "profile": row["profile"].strip(),
                "iterations": int(table.number(i, "iterations")),
                "finished_s": table.number(i, "finished_s"),
                "compute_s": table.number(i, "compute_s"),
                "transfer_s": table.number(i, "transfer_s")})
        self.spans = {}  # run -> {column: [values]}; empty without timeline.csv
        timeline = os.path.join(path, "timeline.csv")
        if os.path.isfile(timeline):
            spans = read_table(timeline, TIMELINE_COLUMNS, allow_empty=True)
            numeric = {"iteration": False, "start_s": False, "end_s": False,
                       "credits_left": True}
            for i, row in enumerate(spans.rows):
                cols = self.spans.setdefault(row["run"].strip(), {
                    "node": [], "profile": [], "activity": [], **{c: [] for c in numeric}})
                for column in ("node", "profile", "activity"):
                    cols[column].append(row[column].strip())
                for column, allow_empty in numeric.items():
                    cols[column].append(spans.number(i, column, allow_empty))

    def select(self, names):
        return select_runs(names, self.runs, os.path.join(self.path, "demo_workers.csv"))
