"""Reading the CSV files hermes-sim writes (README.md, "Outputs of a run") into plain columns.

Only the standard library's csv module: a table is a list of dicts keyed by header name, with the
columns a figure needs checked up front so that a wrong or truncated file fails with its path,
line and column instead of a traceback from inside matplotlib.
"""

import csv
import json
import math
import os
import re


class PlotError(Exception):
    """Bad input: printed as 'tools/plot: error: ...' with exit status 1."""


RUN_FILES = ("summary.csv", "global.csv", "workers.csv")

SUMMARY_COLUMNS = ("run", "protocol", "params", "seed", "status", "stop_reason", "iterations",
                   "local_iterations", "sim_time_s", "wi_avg", "accuracy", "loss", "api_calls",
                   "bytes", "major_updates", "speedup_vs_bsp")
GLOBAL_COLUMNS = ("run", "time_s", "iteration", "worker", "loss", "accuracy")
WORKERS_COLUMNS = ("run", "start_s", "end_s", "worker", "profile", "local_iteration",
                   "chunk_size", "duration_s", "update", "credits_left")
REFERENCE_COLUMNS = ("framework", "protocol", "params", "training_time_min", "accuracy_pct",
                     "api_calls_m", "speedup_vs_bsp")


class Table:
    """Rows of a CSV file (dicts by column name) and where they came from, for messages."""

    def __init__(self, path, columns, rows, lines):
        self.path = path
        self.columns = columns
        self.rows = rows
        self.lines = lines  # file line of each row (the header is line 1)

    def number(self, i, column, allow_empty=False):
        """Row i's `column` as a float; empty -> None when allowed."""
        text = self.rows[i][column].strip()
        if text == "" and allow_empty:
            return None
        try:
            return float(text)
        except ValueError:
            raise PlotError("%s line %d: column %s: %r is not a number"
                            % (self.path, self.lines[i], column, text)) from None

    def numbers(self, column, allow_empty=False):
        return [self.number(i, column, allow_empty) for i in range(len(self.rows))]

    def texts(self, column):
        return [r[column].strip() for r in self.rows]


def read_table(path, required, allow_empty=False):
    """Reads `path`, checking that every column of `required` is in its header."""
    if not os.path.isfile(path):
        raise PlotError("%s: no such file" % path)
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        try:
            header = next(reader)
        except StopIteration:
            raise PlotError("%s is empty (expected a header row with the columns %s)"
                            % (path, ", ".join(required))) from None
        except csv.Error as e:
            raise PlotError("%s: not a CSV file (%s)" % (path, e)) from None
        header = [h.strip() for h in header]
        missing = [c for c in required if c not in header]
        if missing:
            raise PlotError("%s: no column %s (its columns: %s)"
                            % (path, ", ".join(missing), ", ".join(header)))
        rows, lines = [], []
        try:
            for record in reader:
                if not record or all(not field.strip() for field in record):
                    continue
                if len(record) != len(header):
                    raise PlotError("%s line %d: %d fields, the header has %d"
                                    % (path, reader.line_num, len(record), len(header)))
                rows.append(dict(zip(header, record)))
                lines.append(reader.line_num)
        except csv.Error as e:
            raise PlotError("%s line %d: %s" % (path, reader.line_num, e)) from None
    if not rows and not allow_empty:
        raise PlotError("%s has a header but no rows" % path)
    return Table(path, header, rows, lines)


def read_json(path):
    if not os.path.isfile(path):
        raise PlotError("%s: no such file" % path)
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except ValueError as e:
        raise PlotError("%s: not valid JSON (%s)" % (path, e)) from None


def is_sweep_dir(path):
    return os.path.isfile(os.path.join(path, "sweep.json")) and \
        os.path.isdir(os.path.join(path, "points"))


def check_run_dir(path):
    """Raises PlotError unless `path` holds the CSV files of a protocol run."""
    if not os.path.isdir(path):
        raise PlotError("%s: no such directory (expected a run directory of `hermes-sim run` or "
                        "a sweep directory of `hermes-sim sweep`)" % path)
    missing = [f for f in RUN_FILES if not os.path.isfile(os.path.join(path, f))]
    if missing:
        hint = ""
        if os.path.isfile(os.path.join(path, "demo_workers.csv")):
            hint = " (a demo run: tools/plot draws protocol runs only)"
        raise PlotError("%s is not a run directory: no %s%s"
                        % (path, ", ".join(missing), hint))


# Run parameters, "key=value;key=value", compared as `hermes-sim compare` does
# (sim/metrics/params_text.h): keys trimmed, a value that is entirely a decimal number compared as
# that number (so -1.60 equals -1.6), anything else as written.
_DECIMAL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def canonical_value(text):
    text = text.strip()
    if _DECIMAL.match(text):
        value = float(text)
        if math.isfinite(value):
            return value + 0.0  # -0 == 0
    return text


def parse_params(text):
    params = {}
    for segment in text.split(";"):
        segment = segment.strip()
        if not segment:
            continue
        if "=" not in segment:
            raise PlotError("params %r: %r has no '=' (expected key=value;key=value)"
                            % (text, segment))
        key, value = segment.split("=", 1)
        params[key.strip()] = canonical_value(value)
    return params


def params_match(reference, run):
    """Every key of the reference row is in the run with an equal value (a subset match)."""
    return all(k in run and run[k] == v for k, v in reference.items())
