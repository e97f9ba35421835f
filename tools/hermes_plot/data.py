"""Reading the CSV files hermes-sim writes (README.md, "Outputs of a run") into plain columns.

Only the standard library's csv module: a table is a list of dicts keyed by header name, with the
columns a figure needs checked up front so that a wrong or truncated file fails with its path,
line and column instead of a traceback from inside matplotlib.
"""

import csv
import json
import math
import os
import stat
import re


class PlotError(Exception):
    """Bad input: printed as 'tools/plot: error: ...' with exit status 1."""


class NoRows(PlotError):
    """A valid run directory whose file has no row for any drawn run (every run diverged or
    stopped before its first evaluation, say): the figure says so instead of drawing curves."""


FORMATS = ("png", "svg", "pdf")  # of the figure files (--format)
RUN_FILES = ("summary.csv", "global.csv", "workers.csv")

# The columns of summary.csv the figures read. The run parameters (staleness ... demo_iterations,
# one column each, empty where a parameter does not apply) are not among them: only
# `hermes-sim compare` groups runs by parameters.
SUMMARY_COLUMNS = ("run", "protocol", "seed", "status", "stop_reason", "iterations",
                   "sim_time_s", "accuracy", "api_calls")
GLOBAL_COLUMNS = ("run", "time_s", "iteration", "worker", "loss", "accuracy")
WORKERS_COLUMNS = ("run", "start_s", "end_s", "worker", "profile", "local_iteration",
                   "chunk_size", "duration_s", "update", "credits_left")
DEMO_WORKERS_COLUMNS = ("run", "node", "profile", "iterations", "finished_s", "compute_s",
                        "transfer_s")
TIMELINE_COLUMNS = ("run", "node", "profile", "activity", "iteration", "start_s", "end_s",
                    "credits_left")


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


def check_regular_file(path):
    """A file to read must be a regular file: a FIFO would wait for a writer for ever and
    /dev/zero never end. Raises PlotError naming it and what it is."""
    if not os.path.lexists(path):
        raise PlotError("%s: no such file" % path)
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise PlotError("%s: %s" % (path, e.strerror)) from None
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    for test, kind in kinds:
        if test(mode):
            raise PlotError("%s is %s, not a regular file" % (path, kind))
    if not stat.S_ISREG(mode):
        raise PlotError("%s is not a regular file" % path)


def read_table(path, required, allow_empty=False):
    """Reads `path`, checking that every column of `required` is in its header."""
    check_regular_file(path)
    try:
        return _read_table(path, required, allow_empty)
    except UnicodeDecodeError as e:
        raise PlotError("%s: not a CSV file of UTF-8 text (byte %d: %s)"
                        % (path, e.start, e.reason)) from None


def _read_table(path, required, allow_empty):
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
    check_regular_file(path)
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except ValueError as e:  # UnicodeDecodeError and json.JSONDecodeError are ValueErrors
        raise PlotError("%s: not valid JSON (%s)" % (path, e)) from None
    except RecursionError:
        raise PlotError("%s: nested too deeply to read (hermes-sim writes at most 64 levels)"
                        % path) from None


def select_runs(names, available, source):
    """The runs to draw: `names` (--runs, comma-separated) or all `available` ones (of file
    `source`, for the message)."""
    if not names:
        return list(available)
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in available]
    if unknown:
        raise PlotError("--runs: %s has no run named %s (its runs: %s)"
                        % (source, ", ".join(unknown), ", ".join(available)))
    return wanted


def is_sweep_dir(path):
    """A sweep directory: sweep.json and points/. A sweep.json that is not a regular file beside
    points/ is an error naming it (not a run directory without its CSVs)."""
    manifest = os.path.join(path, "sweep.json")
    if not os.path.isdir(os.path.join(path, "points")) or not os.path.lexists(manifest):
        return False
    check_regular_file(manifest)
    return True


def is_demo_dir(path):
    """A run directory of demo runs only: demo_workers.csv and no global.csv."""
    return os.path.isfile(os.path.join(path, "demo_workers.csv")) and \
        not os.path.isfile(os.path.join(path, "global.csv"))


def check_run_dir(path):
    """Raises PlotError unless `path` holds the CSV files of a protocol run."""
    if not os.path.isdir(path):
        raise PlotError("%s: no such directory (expected a run directory of `hermes-sim run` or "
                        "a sweep directory of `hermes-sim sweep`)" % path)
    for f in RUN_FILES:  # one that is there but is no regular file is named as what it is
        if os.path.lexists(os.path.join(path, f)):
            check_regular_file(os.path.join(path, f))
    missing = [f for f in RUN_FILES if not os.path.isfile(os.path.join(path, f))]
    if missing:
        raise PlotError("%s is not a run directory: no %s (a run directory holds %s, or "
                        "demo_workers.csv for demo runs)"
                        % (path, ", ".join(missing), ", ".join(RUN_FILES)))


# Numbers written differently are one value (grid cells of a sweep: -1.60 equals -1.6), anything
# else is compared as written.
_DECIMAL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def canonical_value(text):
    text = text.strip()
    if _DECIMAL.match(text):
        value = float(text)
        if math.isfinite(value):
            return value + 0.0  # -0 == 0
    return text
