"""Inputs of the tools/plot tests, written by the tests themselves (synthetic files in the formats
of README.md, "Outputs of a run", not real runs): run, sweep and demo directories, documents of
`hermes-sim compare --format json`, and a fake hermes-sim that prints such a document, so that the
tests need no C++ build. Imported by the plot_*_test.py files next to it; exits 77 (ctest
SKIP_RETURN_CODE) without Debian's matplotlib / numpy."""

import csv
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

_MISSING = [m for m in ("matplotlib", "numpy") if importlib.util.find_spec(m) is None]
if _MISSING:
    print("SKIP: no module %s (install python3-matplotlib and python3-numpy)"
          % ", ".join(_MISSING))
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOT = os.path.join(ROOT, "tools", "plot")
PAPER_TABLE = os.path.join(ROOT, "results", "reference", "paper-mnist.csv")
sys.path.insert(0, os.path.join(ROOT, "tools"))

# summary.csv: one column per declared run parameter after protocol, final_loss after loss.
PARAMS = ["staleness", "lookahead", "async_update", "alpha", "beta", "lambda", "window",
          "variant", "gup", "dynamic_allocation", "loss_weighting", "demo_iterations"]
SUMMARY = (["run", "protocol"] + PARAMS +
           ["seed", "status", "stop_reason", "iterations", "local_iterations", "sim_time_s",
            "wi_avg", "accuracy", "loss", "final_loss", "api_calls", "bytes", "major_updates",
            "speedup_vs_bsp", "cost_usd"])
CLUSTER_USD_PER_HOUR = 1.5  # what the synthetic runs cost: their time at this hourly price
WORKERS = ["run", "start_s", "end_s", "worker", "profile", "local_iteration", "chunk_size",
           "duration_s", "local_loss", "z_score", "threshold", "update", "credits_left"]
GLOBAL = ["run", "time_s", "iteration", "worker", "loss", "accuracy"]
HERMES = {"alpha": "-1.6", "beta": "0.15", "lambda": "5", "window": "10", "variant": "reference"}


class Run:
    """A run of a synthetic run directory: its summary row and the shape of its curves."""

    def __init__(self, name, protocol, params=None, status="ok", stop_reason="patience",
                 sim_time=3000.0, accuracy=0.97, api_calls=10_000_000, speedup="",
                 diverge_at=None):
        self.name, self.protocol, self.params = name, protocol, params or {}
        self.status, self.stop_reason = status, stop_reason
        self.sim_time, self.accuracy, self.api_calls = sim_time, accuracy, api_calls
        self.speedup = speedup
        self.diverge_at = diverge_at  # evaluation from which accuracy falls back to chance

    def accuracy_at(self, k):
        a = self.accuracy - (self.accuracy - 0.1) * math.exp(-k / 6.0)
        if self.diverge_at is not None and k >= self.diverge_at:
            a = max(0.1, a - 0.2 * (k - self.diverge_at + 1))
        return a


RUNS = [
    Run("bsp", "bsp", sim_time=6000.0, accuracy=0.978, api_calls=18_000_000, speedup="1"),
    Run("asp", "asp", sim_time=3300.0, accuracy=0.905, api_calls=24_000_000),
    Run("hermes-1.6-b0.15", "hermes", HERMES, sim_time=480.0, accuracy=0.976,
        api_calls=11_000_000, speedup="12.5"),
    Run("hermes-x", "hermes", dict(HERMES, alpha="-2", variant="paper"), sim_time=900.0,
        accuracy=0.95, api_calls=9_000_000),
]
PROFILES = [("w0", "B1ms"), ("w1", "B1ms"), ("w2", "DS2_v2"), ("w3", "F4s_v2")]
SPEED = {"B1ms": 1.6, "DS2_v2": 1.0, "F4s_v2": 0.8}


class TempDirTest(unittest.TestCase):
    """A test case with a fresh directory self.dir, removed after each test."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory(prefix="plot_test-")
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def summary_row(run, seed=1):
    return ([run.name, run.protocol] + [run.params.get(p, "") for p in PARAMS] +
            [seed, run.status, run.stop_reason, 100, 120, "%.6f" % run.sim_time, 1.0,
             run.accuracy, 0.08, 0.09, run.api_calls, 1e9, 100, run.speedup,
             "%.6f" % (run.sim_time / 3600.0 * CLUSTER_USD_PER_HOUR)])


def write_run_dir(path, runs=RUNS, evaluations=40, iterations=30):
    """A run directory of `runs` on four workers (two B-series), `iterations` each."""
    os.makedirs(path)
    with open(os.path.join(path, "scenario.json"), "w") as f:
        json.dump({"name": "tiny", "dataset": {"name": "mnist"}}, f)
    evals, workers = [], []
    for run in runs:
        for k in range(evaluations):  # global evaluations: accuracy up, loss down
            a = run.accuracy_at(k)
            evals.append([run.name, "%.9f" % (run.sim_time * (k + 1) / evaluations), k + 1,
                          "w%d" % (k % 4), "%.6f" % (2.3 * (1 - a) + 0.05), "%.6f" % a])
        hermes = run.protocol == "hermes"
        for w, profile in PROFILES:
            k = int(w[1:])
            t, chunk, credits = 0.0, 2500, 30.0 - 8 * k
            for i in range(1, iterations + 1):
                duration = 7.3 * SPEED[profile] * chunk / 2500 * (1 + 0.05 * math.sin(i + k))
                if hermes and profile != "DS2_v2":  # dynamic allocation pulls towards the median
                    chunk = int(chunk + (2500 / SPEED[profile] - chunk) * 0.3)
                credits = max(0.0, credits - 1.7) if profile == "B1ms" else None
                workers.append([run.name, "%.9f" % t, "%.9f" % (t + duration), w, profile, i,
                                chunk, "%.6f" % duration, "0.3", "", "",
                                "major" if i % 3 == 0 else "minor" if hermes else "push",
                                "" if credits is None else "%.4f" % credits])
                t += duration + 0.5
    write_csv(os.path.join(path, "summary.csv"), SUMMARY, [summary_row(r) for r in runs])
    write_csv(os.path.join(path, "global.csv"), GLOBAL, evals)
    write_csv(os.path.join(path, "workers.csv"), WORKERS, workers)


def write_sweep_dir(path, grid, seeds=2, cost=True):
    """A sweep directory over `grid` ([(key, [values])]) with `seeds` seeds per point, a hermes
    run (which the grid changes) and a bsp run (which it does not). Time 500 + 200 x + 10 seed,
    API calls 1e6 + 1e5 x + seed, where x = sum of value * (its key's position + 1). Without
    `cost`, summary.csv has no cost_usd column (a sweep from before costs)."""
    os.makedirs(os.path.join(path, "points"))
    with open(os.path.join(path, "sweep.json"), "w") as f:
        json.dump({"grid": {k: v for k, v in grid}, "seeds": seeds}, f)
    keys = [k for k, _ in grid]
    points = [[]]
    for _, values in grid:
        points = [p + [v] for p in points for v in values]
    rows, n = [], 0
    for p in points:
        for seed in range(1, seeds + 1):
            os.makedirs(os.path.join(path, "points", "%04d" % n))
            x = sum(float(v) * (i + 1) for i, v in enumerate(p))
            for name, protocol in (("bsp", "bsp"), ("hermes", "hermes")):
                run = Run(name, protocol, HERMES if protocol == "hermes" else {},
                          sim_time=6000.0 if name == "bsp" else 500 + 200 * x + 10 * seed,
                          accuracy="%.6f" % (0.97 - 0.01 * x / (1 + abs(x))),
                          api_calls=int(1e6 + 1e5 * x + seed))
                rows.append(["%04d" % n] + p + summary_row(run, seed)[:None if cost else -1])
            n += 1
    write_csv(os.path.join(path, "summary.csv"),
              ["point"] + keys + SUMMARY[:None if cost else -1], rows)


def write_demo_dir(path, iterations=5, timeline=True):
    """The outputs of a demo run "demo" on three workers (w0 a B1ms losing credits): each
    iteration receives a chunk, computes, sends its update and receives the model."""
    os.makedirs(path)
    nodes = [("w0", "B1ms", 9.0), ("w1", "DS2_v2", 7.0), ("w2", "F4s_v2", 6.0)]
    spans, totals = [], []
    for node, profile, compute in nodes:
        t = compute_s = transfer_s = 0.0
        for i in range(1, iterations + 1):
            for activity, duration in (("recv_chunk", 0.1), ("compute", compute * (1 + i / 10)),
                                       ("send_update", 0.05), ("recv_model", 0.05)):
                credits = ""
                if activity == "compute":
                    compute_s += duration
                    credits = "%.4f" % max(0.0, 3 - i) if profile == "B1ms" else ""
                else:
                    transfer_s += duration
                spans.append(["demo", node, profile, activity, i, "%.9f" % t,
                              "%.9f" % (t + duration), "%.9f" % duration, 1000, credits])
                t += duration
            t += 0.5  # waiting for the next chunk
        totals.append(["demo", node, profile, iterations, "%.6f" % t, "%.6f" % compute_s,
                       "%.6f" % transfer_s, 1000 * iterations, ""])
    write_csv(os.path.join(path, "demo_workers.csv"),
              ["run", "node", "profile", "iterations", "finished_s", "compute_s", "transfer_s",
               "bytes", "credits_left"], totals)
    if timeline:
        spans.sort(key=lambda s: (float(s[5]), float(s[6]), s[1]))
        write_csv(os.path.join(path, "timeline.csv"),
                  ["run", "node", "profile", "activity", "iteration", "start_s", "end_s",
                   "duration_s", "bytes", "credits_left"], spans)


def paper_rows():
    """The paper's table (results/reference/paper-mnist.csv) as dicts of the document's "paper"
    objects, in its order."""
    with open(PAPER_TABLE, newline="") as f:
        return [{"framework": r["framework"], "protocol": r["protocol"],
                 **{k: float(r[k]) for k in ("iterations", "training_time_min", "wi_avg",
                                             "accuracy_pct", "api_calls_m", "speedup_vs_bsp")}}
                for r in csv.DictReader(f)]


def stat(mean, spread=0.0):
    return {"mean": mean, "min": mean - spread, "max": mean + spread}


def configuration(label, protocol, runs, time_min=50.0, accuracy=97.0, speedup=2.0,
                  withheld=None, paper=None):
    """A configuration of the document; `runs` are (run, status, stop_reason) per seed, with the
    run's "ending" (what hermes-sim says of a run not ok or not stopped by its patience) as a
    fourth element when it has one."""
    return {
        "label": label, "protocol": protocol, "params": {},
        "runs": [{"run": r[0], "seed": i + 1, "status": r[1], "stop_reason": r[2],
                  "ending": r[3] if len(r) > 3 else None, "iterations": 100,
                  "training_time_min": time_min, "wi_avg": 1.0, "accuracy_pct": accuracy,
                  "final_loss": 0.1, "api_calls_m": 10.0,
                  "speedup_vs_bsp": None if withheld else speedup}
                 for i, r in enumerate(runs)],
        "sim": {"iterations": stat(100), "training_time_min": stat(time_min),
                "wi_avg": stat(1.0), "accuracy_pct": stat(accuracy), "api_calls_m": stat(10.0),
                "speedup_vs_bsp": None if withheld else stat(speedup)},
        "speedup_withheld": withheld,
        "paper": paper,
    }


def document(configurations, differences=(), warnings=(), reference=PAPER_TABLE,
             dataset="mnist"):
    return {"summary": "summary.csv", "reference": reference, "dataset": dataset,
            "setup": {"paper_scenario": "scenarios/paper/mnist.json",
                      "differences": list(differences)},
            "warnings": list(warnings), "configurations": list(configurations),
            "headlines": [{"name": "Hermes' best speedup vs BSP", "sim": "2.39x",
                           "paper": "13.22x", "withheld": None}]}


def paper_document():
    """A configuration per row of the paper's table, matched to it; run names from summary.csv
    of write_run_dir where there is one."""
    return document([configuration(p["framework"], p["protocol"],
                                   [(p["framework"].lower(), "ok", "patience")],
                                   time_min=p["training_time_min"] / 10,
                                   accuracy=p["accuracy_pct"], speedup=p["speedup_vs_bsp"],
                                   paper=p) for p in paper_rows()])


def fake_hermes_sim(directory, doc=None, status=0, stderr="", stdout=None):
    """An executable that records its arguments (one a line) in directory/args and prints `doc`
    as JSON (or `stdout`), `stderr`, and exits with `status`. Returns its path."""
    os.makedirs(directory, exist_ok=True)
    out = os.path.join(directory, "stdout")
    with open(out, "w") as f:
        f.write(stdout if stdout is not None else json.dumps(doc))
    path = os.path.join(directory, "hermes-sim")
    with open(path, "w") as f:
        f.write("#!/bin/sh\nprintf '%%s\\n' \"$@\" > '%s'\ncat '%s'\nprintf '%%s' '%s' >&2\n"
                "exit %d\n" % (os.path.join(directory, "args"), out, stderr, status))
    os.chmod(path, 0o755)
    return path


def plot(*args, env=None, timeout=300):
    """tools/plot with `args`; without a hermes-sim on PATH or in $HERMES_SIM unless `env` says."""
    full_env = {k: v for k, v in os.environ.items() if k != "HERMES_SIM"}
    full_env.update(env or {})
    return subprocess.run([PLOT] + list(args), capture_output=True, text=True, timeout=timeout,
                          env=full_env)
