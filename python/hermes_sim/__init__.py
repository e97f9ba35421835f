"""hermes_sim: run hermes-sim scenarios from Python and read results as pandas DataFrames.

    import hermes_sim
    result = hermes_sim.run("scenarios/examples/my.json", threads=2)
    result.summary            # summary.csv as a DataFrame; .global_, .workers, .api, .nodes
    sweep = hermes_sim.load("sweeps/alpha-beta")   # a run or a sweep directory

A run is the command line's own pipeline in this process (docs/python.md): the same checks and
messages (raised as hermes_sim.InputError, a ValueError), the same dataset resolution and the
same files, byte for byte, in `out` when given. The GIL is released while a run computes, and
Ctrl-C stops it with nothing half-written.
"""

import csv
import io
import json
import math
import os
import contextlib
import re
import shutil
import sys
import tempfile

import numpy as np
import pandas as pd

from . import _core

__all__ = ["Comparison", "InputError", "Result", "Sweep", "compare", "load", "plot", "run",
           "to_csv", "validate", "version"]

InputError = _core.InputError


def _program_dir():
    """Where a hermes-sim executable of this module's build or install is: the build directory
    (the package is <build>/python/hermes_sim, the build directory holds hermes-source-tree.txt),
    else <prefix>/bin (the package is <prefix>/lib/python3/dist-packages/hermes_sim). The home
    (profiles, reference tables) and the default data directories are found from there, as the
    executable finds them."""
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.path.normpath(os.path.join(here, "..", ".."))
    if os.path.isfile(os.path.join(build, "hermes-source-tree.txt")):
        return build
    return os.path.normpath(os.path.join(here, "..", "..", "..", "..", "bin"))


_core.set_program_dir(_program_dir())

# The tables of a run directory: attribute name -> file.
TABLES = {
    "summary": "summary.csv",
    "global_": "global.csv",
    "workers": "workers.csv",
    "api": "api.csv",
    "nodes": "nodes.csv",
}


def version():
    """The build line `hermes-sim --version` starts with."""
    return _core.version()


def _scenario_args(scenario):
    """(path, text, origin, base_dir) for the core from a path or a dict."""
    if isinstance(scenario, dict):
        try:
            text = json.dumps(scenario, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise InputError(f"<scenario dict>: not JSON: {e}") from None
        return None, text, "<scenario dict>", os.getcwd()
    if isinstance(scenario, (str, os.PathLike)):
        path = os.fspath(scenario)
        return path, None, path, os.path.dirname(os.path.abspath(path))
    raise TypeError(
        f"scenario must be a path or a dict (a scenario document), not {type(scenario).__name__}"
    )


def _override_args(overrides):
    """{"key.path": value} -> the command line's --set strings, values as JSON."""
    if overrides is None:
        return []
    if not isinstance(overrides, dict):
        raise TypeError("overrides must be a dict of 'key.path': value")
    out = []
    for key, value in overrides.items():
        if not isinstance(key, str) or not key:
            raise InputError(f"overrides: key {key!r} is not a non-empty 'key.path' string")
        try:
            out.append(f"{key}={json.dumps(value, allow_nan=False)}")
        except (TypeError, ValueError) as e:
            raise InputError(f"overrides: {key}: value is not JSON: {e}") from None
    return out


def validate(scenario, overrides=None):
    """Checks a scenario (path or dict) as `hermes-sim validate` does; returns its name, runs,
    workers, dataset, model, the model's layers and its parameter count, or raises InputError with every problem found."""
    path, text, origin, base_dir = _scenario_args(scenario)
    return _core.validate(path, text, origin, base_dir, _override_args(overrides))


_FIXED = re.compile(r"^-?[0-9]+\.([0-9]+)$")
_INTEGER = re.compile(r"^-?[0-9]+$")
_NON_FINITE = {"nan", "inf", "-inf"}


def _column_formats(content):
    """How the writer printed each column (sim/metrics/csv_writer.h, base/number_text.h): "int",
    ("fixed", decimals) or "shortest" for numbers, "text" for the rest; for to_csv."""
    rows = csv.reader(io.StringIO(content.decode("utf-8")))
    header = next(rows, [])
    seen = [set() for _ in header]
    for row in rows:
        for i, cell in enumerate(row[:len(header)]):
            if cell == "" or cell in _NON_FINITE:
                continue
            m = _FIXED.match(cell)
            seen[i].add(("fixed", len(m.group(1))) if m else
                        "int" if _INTEGER.match(cell) else "other")
    formats = {}
    for name, kinds in zip(header, seen):
        if not kinds or kinds == {"int"}:
            formats[name] = "int"
        elif len(kinds) == 1 and next(iter(kinds)) != "other":
            formats[name] = next(iter(kinds))
        else:
            formats[name] = "shortest"
    return formats


def _frame(content, dtype=None):
    """A CSV's bytes as a DataFrame: the file's columns, numbers as int64 / float64 (floats read
    back to the same double), empty cells as missing. attrs["hermes_formats"] keeps how each
    column was printed, for to_csv."""
    if content is None:
        return None
    frame = pd.read_csv(io.BytesIO(content), float_precision="round_trip",
                        keep_default_na=False, na_values=[""], dtype=dtype)
    frame.attrs["hermes_formats"] = _column_formats(content)
    return frame


def _shortest(v):
    """base/number_text.h's shortest(): the shortest text reading back as v, fixed or scientific,
    whichever is shorter (fixed on a tie, as std::to_chars); -0 is "0"."""
    if v == 0:
        return "0"
    fixed = np.format_float_positional(v, unique=True, trim="-")
    scientific = np.format_float_scientific(v, unique=True, trim="-", exp_digits=2)
    return fixed if len(fixed) <= len(scientific) else scientific


def _cell(value, form):
    if value is None:
        return ""
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return ""
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if form == "int":
            return str(int(value))
        if isinstance(form, tuple):
            text = f"{value:.{form[1]}f}"
            # CSV fields never carry a sign on a zero (NegativeZero::kAsZero).
            return text[1:] if text.startswith("-") and float(text) == 0 else text
        return _shortest(float(value))
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    return str(value)


def to_csv(frame):
    """A table of a Result back as the CSV text hermes-sim wrote: each number in its column's
    format (fixed decimals, whole numbers, or the shortest exact text), empty cells for missing
    values, fields quoted only where they need it (RFC 4180). A table read from a file gives that
    file again, byte for byte."""
    formats = frame.attrs.get("hermes_formats", {})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(frame.columns)
    columns = [(frame[c].tolist(), formats.get(c, "shortest")) for c in frame.columns]
    for i in range(len(frame)):
        writer.writerow([_cell(values[i], form) for values, form in columns])
    return out.getvalue()


class Result:
    """A run's tables. `files` maps each file name to its bytes, as written."""

    def __init__(self, files, out=None, scenario=None):
        self.files = dict(files)
        self.out = out
        self.scenario = scenario
        for attribute, name in TABLES.items():
            setattr(self, attribute, _frame(self.files.get(name)))

    def write(self, directory):
        """Writes the run's files into `directory` (which must exist): the tables as they are now
        (to_csv), the other files (scenario.json, provenance.json) as they were read."""
        for name, content in self.files.items():
            if name not in TABLES.values():
                with open(os.path.join(directory, name), "wb") as f:
                    f.write(content)
        for attribute, name in TABLES.items():
            frame = getattr(self, attribute)
            if frame is not None:
                with open(os.path.join(directory, name), "w", encoding="utf-8", newline="") as f:
                    f.write(to_csv(frame))

    def __repr__(self):
        runs = [] if self.summary is None else list(self.summary["run"])
        return f"<hermes_sim.Result runs={runs} out={self.out!r}>"


def run(scenario, runs=None, overrides=None, threads=None, out=None, force=False, data_dir=None,
        max_memory_gb=None, max_hours=None, gemm_kernel="auto", progress=None):
    """Runs a scenario (path or dict) as `hermes-sim run` does and returns a Result.

    runs: names to run (a list or "a,b"), default all. overrides: {"key.path": value}, as --set.
    threads: default the machine's hardware threads; the results do not depend on it.
    out: a run directory to write (as --out; force as --force); None writes nothing.
    progress: called with each progress event (a dict, docs/progress.md's JSON events).
    """
    path, text, origin, base_dir = _scenario_args(scenario)
    if runs is None:
        runs = ""
    elif not isinstance(runs, str):
        runs = ",".join(runs)
    relay = None
    if progress is not None:
        if not callable(progress):
            raise TypeError("progress must be callable (it receives each event as a dict)")

        def relay(line):
            progress(json.loads(line))

    core = _core.run(
        path, text, origin, base_dir, _override_args(overrides), runs,
        _core.default_threads() if threads is None else int(threads),
        None if out is None else os.fspath(out), bool(force), data_dir or "",
        _core.DEFAULT_MAX_MEMORY_GB if max_memory_gb is None else float(max_memory_gb),
        _core.DEFAULT_MAX_HOURS if max_hours is None else float(max_hours),
        gemm_kernel, relay)
    return Result(core["files"], core["out"], core["scenario"])


class Sweep:
    """A sweep directory's tables: `summary` (one row per point and run, the grid values as
    columns), and `global_`, `workers`, `api`, `nodes`: every finished point's table with its
    `point` and grid values in front, one tidy table each."""

    def __init__(self, directory):
        self.directory = directory
        with open(os.path.join(directory, "sweep.json"), encoding="utf-8") as f:
            self.manifest = json.load(f)
        summary_path = os.path.join(directory, "summary.csv")
        if not os.path.isfile(summary_path):
            raise InputError(f"{directory}: a sweep with no summary.csv yet: no point has finished "
                             "(resume it with hermes-sim sweep ... --out {directory}; "
                             "docs/sweeps.md)".replace("{directory}", directory))
        with open(summary_path, "rb") as f:
            self.summary = _frame(f.read(), dtype={"point": str})
        first_metric = list(self.summary.columns).index("run")
        self.grid_columns = list(self.summary.columns[1:first_metric])
        grid = self.summary[["point"] + self.grid_columns].drop_duplicates("point")
        for attribute, name in TABLES.items():
            if attribute == "summary":
                continue
            frames = []
            for point in grid["point"]:
                p = os.path.join(directory, "points", point, name)
                if os.path.isfile(p):
                    with open(p, "rb") as f:
                        frame = _frame(f.read())
                    frame.insert(0, "point", point)
                    frames.append(frame)
            table = None
            if frames:
                table = pd.concat(frames, ignore_index=True)
                table = grid.merge(table, on="point", how="right")
            setattr(self, attribute, table)

    def __repr__(self):
        return (f"<hermes_sim.Sweep {self.directory!r} points={self.summary['point'].nunique()} "
                f"grid={self.grid_columns}>")


def load(directory):
    """A run directory (its CSVs as a Result) or a sweep directory (a Sweep)."""
    directory = os.fspath(directory)
    if os.path.isfile(os.path.join(directory, "sweep.json")):
        return Sweep(directory)
    if not os.path.isdir(directory):
        raise InputError(f"{directory}: no such directory (a run or a sweep directory)")
    files = {}
    for name in TABLES.values():
        p = os.path.join(directory, name)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                files[name] = f.read()
    if "summary.csv" not in files and os.path.isfile(os.path.join(directory, "demo_workers.csv")):
        raise InputError(
            f"{directory}: a run directory of demo runs only: the demo trains nothing, so it has no "
            "summary.csv; read its demo_workers.csv and timeline.csv with pandas.read_csv "
            "(docs/outputs.md)")
    if "summary.csv" not in files:
        raise InputError(
            f"{directory}: neither a run directory (no summary.csv) nor a sweep (no sweep.json)")
    return Result(files, out=directory)


class Comparison:
    """`hermes-sim compare --format json` (docs/compare-json.md): `document` is the whole JSON
    document; `table` one row per configuration (label, protocol, status, then sim_<metric> as
    the mean over its runs and paper_<metric> from the reference table, missing where a side has
    none); `warnings` and `headlines` as compare prints them."""

    def __init__(self, document):
        self.document = document
        self.warnings = list(document.get("warnings") or [])
        self.headlines = pd.DataFrame(document.get("headlines") or [])
        rows = []
        for c in document.get("configurations") or []:
            row = {"label": c.get("label"), "protocol": c.get("protocol"),
                   "status": c.get("status")}
            for key, value in (c.get("sim") or {}).items():
                row["sim_" + key] = value.get("mean") if isinstance(value, dict) else value
            for key, value in (c.get("paper") or {}).items():
                if key != "framework":
                    row["paper_" + key] = value
            rows.append(row)
        self.table = pd.DataFrame(rows)

    def __repr__(self):
        return f"<hermes_sim.Comparison {len(self.table)} configurations>"


@contextlib.contextmanager
def _directory_of(source, caller, accepted):
    """A directory holding `source`: a Result written (Result.write) into a temporary directory,
    removed afterwards; a path as it is."""
    if isinstance(source, Result):
        scratch = tempfile.mkdtemp(prefix="hermes-sim-")
        try:
            source.write(scratch)
            yield scratch
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    elif isinstance(source, (str, os.PathLike)):
        yield os.fspath(source)
    else:
        raise TypeError(f"{caller}() takes {accepted}, not {type(source).__name__}")


def compare(source, reference=None, paper_scenario=None):
    """A run beside the paper's table, as `hermes-sim compare` computes it: `source` is a run or
    sweep directory, a summary.csv, or a Result (its tables as they are now, written into a
    temporary directory, removed afterwards). reference / paper_scenario: as --reference and
    --paper-scenario. Returns a Comparison."""
    with _directory_of(source, "compare", "a run or sweep directory, a summary.csv or a Result") \
            as target:
        text = _core.compare_json(target, "" if reference is None else os.fspath(reference),
                                  "" if paper_scenario is None else os.fspath(paper_scenario))
    return Comparison(json.loads(text))


def plot(source, out, format="png", width=None, runs=None):
    """Draws tools/plot's figures (docs/figures.md) into `out` and returns their paths.

    source: a Result, whose tables are written back with to_csv (so a table you filtered or
    changed is drawn as it is now) with its other files into a temporary run directory, removed
    afterwards; or a run or sweep directory. format: png, svg or pdf; width: "single",
    "double" or inches; runs: the runs to draw. Bad input raises InputError with tools/plot's
    message. Needs matplotlib (Debian: python3-matplotlib)."""
    tools = os.path.join(_core.home(), "tools")
    if tools not in sys.path:
        sys.path.insert(0, tools)
    from hermes_plot import cli as plot_cli

    with _directory_of(source, "plot", "a Result or a run or sweep directory") as directory:
        argv = [directory, "--out", os.fspath(out), "--format", format,
                "--hermes-sim", os.path.join(_program_dir(), "hermes-sim")]
        if width is not None:
            argv += ["--width", str(width)]
        if runs is not None:
            argv += ["--runs", runs if isinstance(runs, str) else ",".join(runs)]
        said, errors = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(errors):
            try:
                status = plot_cli.main(argv)
            except SystemExit as e:  # argparse's refusals
                status = e.code
    if status != 0:
        raise InputError(errors.getvalue().strip() or f"tools/plot failed ({status})")
    return [line[len("wrote "):] for line in said.getvalue().splitlines()
            if line.startswith("wrote ")]
