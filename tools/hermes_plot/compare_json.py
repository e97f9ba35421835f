"""The comparison with the paper comes from one place, `hermes-sim compare --format json`: this
module finds the binary, runs it on a run's summary.csv and checks the fields of its JSON document
that comparison.png draws, so that a wrong binary fails with the field at fault instead of a
traceback inside matplotlib."""

import json
import os
import shutil
import subprocess

from .data import PlotError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPO_BINARY = os.path.join(ROOT, "build", "hermes-sim")


def _executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


class NotFound(PlotError):
    """No hermes-sim found by looking (none was named): the comparison is skipped, the other
    figures are drawn."""


def find_hermes_sim(option=None, environ=None):
    """The hermes-sim binary: --hermes-sim PATH, else $HERMES_SIM, else the hermes-sim installed
    beside the hermes-plot launcher ($HERMES_PLOT_SIBLING, set by cmake/hermes-plot.in), else
    `hermes-sim` on PATH, else <repo>/build/hermes-sim. An explicit choice (the option or the
    variable) that is not an executable file is an error, never a silent fall-back to another
    binary; finding none raises NotFound."""
    environ = os.environ if environ is None else environ
    if option is not None:
        if not _executable(option):
            raise PlotError("--hermes-sim %s: no executable file there" % option)
        return option
    from_env = environ.get("HERMES_SIM", "")
    if from_env:
        if not _executable(from_env):
            raise PlotError("$HERMES_SIM=%s: no executable file there (unset it to look on PATH "
                            "and in %s)" % (from_env, REPO_BINARY))
        return from_env
    sibling = environ.get("HERMES_PLOT_SIBLING", "")
    if sibling and _executable(sibling):
        return sibling
    on_path = shutil.which("hermes-sim", path=environ.get("PATH", os.defpath))
    if on_path:
        return on_path
    if _executable(REPO_BINARY):
        return REPO_BINARY
    raise NotFound("comparison.png needs hermes-sim (its `compare --format json`) and none was "
                    "found: no --hermes-sim PATH, no $HERMES_SIM, no hermes-sim on PATH, no %s "
                    "(build it with tools/build release, or pass --hermes-sim PATH)"
                    % REPO_BINARY)


def run_compare(binary, summary, reference=None):
    """The JSON document of `hermes-sim compare SUMMARY --format json [--reference CSV]`."""
    command = [binary, "compare", summary, "--format", "json"]
    if reference is not None:
        command += ["--reference", reference]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as e:
        raise PlotError("%s: cannot run it (%s)" % (binary, e.strerror or e)) from None
    if done.returncode != 0:
        raise PlotError("`%s` failed with status %d:\n%s"
                        % (" ".join(command), done.returncode, done.stderr.strip()))
    try:
        doc = json.loads(done.stdout)
    except ValueError as e:
        raise PlotError("`%s` printed no JSON document (%s); is %s a hermes-sim with "
                        "`compare --format json`?" % (" ".join(command), e, binary)) from None
    check_document(doc, " ".join(command))
    return doc


# What comparison.png reads of each part of the document: (field, accepted JSON types).
_NUMBER = (int, float)
_TOP = (("reference", (str, type(None))), ("dataset", (str, type(None))), ("setup", dict),
        ("warnings", list), ("configurations", list), ("headlines", list))
_SETUP = (("differences", list),)
_DIFFERENCE = (("pointer", str),)
_CONFIG = (("label", str), ("protocol", str), ("runs", list), ("sim", (dict, type(None))),
           ("speedup_withheld", (str, type(None))), ("paper", (dict, type(None))))
_RUN = (("run", str), ("status", str), ("stop_reason", str), ("ending", (str, type(None))))
_METRICS = ("iterations", "training_time_min", "wi_avg", "accuracy_pct", "api_calls_m")
_STAT = (("mean", _NUMBER), ("min", _NUMBER), ("max", _NUMBER))
_HEADLINE = (("name", str), ("sim", (str, type(None))), ("paper", (str, type(None))),
             ("withheld", (str, type(None))))


_TYPE_NAMES = {dict: "an object", list: "a list", str: "a string", int: "a number",
               float: "a number", type(None): "null"}


def _expected(types):
    names = [_TYPE_NAMES[t] for t in (types if isinstance(types, tuple) else (types,))]
    return " or ".join(sorted(set(names), key=names.index))


def _check(value, fields, where, source):
    if not isinstance(value, dict):
        raise PlotError("%s: %s is not a JSON object" % (source, where))
    for name, types in fields:
        if name not in value:
            raise PlotError("%s: %s has no field \"%s\"" % (source, where, name))
        if not isinstance(value[name], types) or isinstance(value[name], bool):
            raise PlotError("%s: %s/%s is %s, expected %s"
                            % (source, where, name, json.dumps(value[name]), _expected(types)))


def check_document(doc, source):
    """Raises PlotError naming the JSON pointer of the first field comparison.png cannot use."""
    _check(doc, _TOP, "", source)
    _check(doc["setup"], _SETUP, "/setup", source)
    for i, d in enumerate(doc["setup"]["differences"]):
        _check(d, _DIFFERENCE, "/setup/differences/%d" % i, source)
    for i, w in enumerate(doc["warnings"]):
        if not isinstance(w, str):
            raise PlotError("%s: /warnings/%d is not a string" % (source, i))
    for i, c in enumerate(doc["configurations"]):
        where = "/configurations/%d" % i
        _check(c, _CONFIG, where, source)
        for k, r in enumerate(c["runs"]):
            _check(r, _RUN, "%s/runs/%d" % (where, k), source)
        if c["sim"] is None:
            # A paper row no run matched (docs/compare-json.md): drawn as "not simulated".
            if c["runs"] or c["paper"] is None:
                raise PlotError("%s: %s/sim is null, but only a paper row no run matched may have "
                                "no simulated values (it has %d runs and %s paper row)"
                                % (source, where, len(c["runs"]),
                                   "no" if c["paper"] is None else "a"))
            continue
        _check(c["sim"], tuple((m, dict) for m in _METRICS), where + "/sim", source)
        for m in _METRICS:
            _check(c["sim"][m], _STAT, "%s/sim/%s" % (where, m), source)
        if c["sim"].get("speedup_vs_bsp") is not None:
            _check(c["sim"]["speedup_vs_bsp"], _STAT, where + "/sim/speedup_vs_bsp", source)
        if c["paper"] is not None:
            _check(c["paper"], tuple((m, _NUMBER) for m in _METRICS + ("speedup_vs_bsp",)),
                   where + "/paper", source)
    for i, h in enumerate(doc["headlines"]):
        _check(h, _HEADLINE, "/headlines/%d" % i, source)


def setup_warning(doc):
    """"not the paper's setup: ..." when the scenario differs from the paper's, else None."""
    differences = doc["setup"]["differences"]
    if not differences:
        return None
    return "not the paper's setup: " + "; ".join(
        "%s is %s (paper: %s)" % (d["pointer"], json.dumps(d.get("run")),
                                  json.dumps(d.get("paper"))) for d in differences)
