#!/usr/bin/python3
"""ctest plot_shipped: tools/plot on what the real hermes-sim writes, not on synthetic files
(plot_test.py's). Every shipped scenario (scenarios/*/*.json, found by globbing, so that a new one
is covered without editing this file) is run shortened, and every shape of sweep is swept (a grid
over a named run, an unnamed run by its default name and by index, a key outside the runs, seeds
only, three keys, diverged and capped points, points that timed out); then tools/plot must exit 0
on each directory, print no error, write every figure docs/figures.md promises for that kind of
directory and say in the figure what is missing (issue 26).

    /usr/bin/python3 tests/tools/plot_shipped_test.py BUILD/hermes-sim [NAME...]

(NAME: only the cases whose name contains one of them, e.g. `sweep` or `paper/`.)

Shortened: the runs train on a tiny synthetic MNIST / CIFAR-10 (written here, passed with
--data-dir: no dataset needed) with the `--set` keys of SHORTEN; each scenario keeps its runs,
protocols, cluster and outages, whose times are scaled down with the runs (scaled_outages).
Exits 77 (skipped) without matplotlib and numpy, 1 on any failure; prints each case's wall time
(and keeps its directories with PLOT_SHIPPED_KEEP=1)."""

import concurrent.futures
import csv
import glob
import hashlib
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

from plot_fixtures import PLOT, ROOT  # exits 77 (skip) without matplotlib and numpy
SCENARIOS = os.path.join(ROOT, "scenarios")

# scenarios/*/*.json that are not run, and why. Anything else that fails to run is a failure.
EXCLUDED = {
    # Deliberately broken: `hermes-sim validate` must report its five mistakes (tests/cli).
    "examples/invalid-five-mistakes.json",
}
# Not scenarios: the node profile catalog and its price list.
NOT_SCENARIOS = ("profiles",)

# The shortening every run and sweep gets: one epoch over 100-sample chunks, a cap of 36 updates
# (three BSP rounds of 12 workers, three evaluations of the asynchronous baselines that evaluate
# every 12 updates) and of 60 simulated seconds. CIFAR-10's CNN (68 MFLOP a sample trained, 23
# evaluated) gets 20-sample chunks and 12 updates.
SHORTEN = ["training.local_epochs=1", "training.stop.max_iterations=36",
           "training.stop.max_sim_time_s=60"]
CHUNK = {"cifar10": 20}
MAX_ITERATIONS = {"cifar10": 12}
DEFAULT_CHUNK = 100
DEMO_ITERATIONS = 12  # a demo run's chunks per worker (examples/demo.json: 400)
# Scheduled outages, slowdowns and link faults (events, trace rows, detection and checkpoint
# intervals) happen this many times sooner: the shortened runs last 0.5-5 simulated seconds
# instead of 10-60, and the events stay inside them. Outage models (Spot evictions at a rate per
# hour over runs of 5-15 minutes) are compressed more, so that a shortened run meets about as
# many as a full one.
EVENT_SCALE = 20.0
MODEL_SCALE = 500.0

RUN_FIGURES = ("accuracy_loss", "iteration_times", "chunk_sizes", "comparison")
DEMO_FIGURES = ("demo_workers", "demo_timeline", "demo_compute")
PNG = b"\x89PNG\r\n\x1a\n"
ERROR = re.compile(r"\berror\b|Traceback", re.IGNORECASE)


# Inputs ------------------------------------------------------------------------------------------

def blocks(n, seed, channels, side):
    """n images whose class is a bright 8x5 block at one of 10 places, over noise (as
    tests/support/synthetic_blocks.h): learnable in a few updates. (labels, pixel bytes)."""
    rng = random.Random(seed)
    labels, pixels = bytearray(), bytearray()
    for _ in range(n):
        label = rng.randrange(10)
        labels.append(label)
        image = bytearray(int(76 * rng.random()) for _ in range(channels * side * side))
        r0, c0 = (label // 5) * (side // 2), (label % 5) * (side // 5)
        for ch in range(channels):
            for r in range(r0, r0 + 8):
                for c in range(c0, c0 + 5):
                    image[(ch * side + r) * side + c] += 178
        pixels += image
    return labels, pixels


def write_data(root):
    """A data directory with mnist/ (1500 training, 300 test images, IDX), fashion-mnist-3/ (their
    samples of labels 0, 1 and 2) and cifar-10/ (five training batches of 100 records, a test
    batch of 20)."""
    os.makedirs(os.path.join(root, "mnist"))
    for prefix, n, seed in (("train", 1500, 1), ("t10k", 300, 2)):
        labels, pixels = blocks(n, seed, 1, 28)
        with open(os.path.join(root, "mnist", prefix + "-images-idx3-ubyte"), "wb") as f:
            f.write(struct.pack(">IIII", 2051, n, 28, 28) + pixels)
        with open(os.path.join(root, "mnist", prefix + "-labels-idx1-ubyte"), "wb") as f:
            f.write(struct.pack(">II", 2049, n) + labels)
    # examples/own-data.json's own dataset (docs/data.md): three classes, MNIST's layout.
    os.makedirs(os.path.join(root, "fashion-mnist-3"))
    for prefix, n, seed in (("train", 1500, 1), ("t10k", 300, 2)):
        labels, pixels = blocks(n, seed, 1, 28)
        keep = [i for i in range(n) if labels[i] < 3]
        with open(os.path.join(root, "fashion-mnist-3", prefix + "-images-idx3-ubyte"), "wb") as f:
            f.write(struct.pack(">IIII", 2051, len(keep), 28, 28) +
                    b"".join(pixels[i * 784:(i + 1) * 784] for i in keep))
        with open(os.path.join(root, "fashion-mnist-3", prefix + "-labels-idx1-ubyte"), "wb") as f:
            f.write(struct.pack(">II", 2049, len(keep)) + bytes(labels[i] for i in keep))
    os.makedirs(os.path.join(root, "cifar-10"))
    names = ["data_batch_%d.bin" % i for i in range(1, 6)] + ["test_batch.bin"]
    for k, name in enumerate(names):
        n = 20 if name == "test_batch.bin" else 100
        labels, pixels = blocks(n, 10 + k, 3, 32)
        with open(os.path.join(root, "cifar-10", name), "wb") as f:
            for i in range(n):
                f.write(bytes([labels[i]]) + pixels[i * 3072:(i + 1) * 3072])


def readme_scenario():
    """README step 4's my.json, from the README's own here-document."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    m = re.search(r"cat > my\.json <<'JSON'\n(.*?)\nJSON\n", readme, re.S)
    if not m:
        raise SystemExit("README.md has no `cat > my.json <<'JSON'` here-document (step 4)")
    return m.group(1)


def _scaled(value, scale):
    return "%.6g" % (float(value) / scale)


def scaled_trace(src, dst):
    """The trace `src` with its times divided by EVENT_SCALE (an eviction's default 30 s notice
    too), written to `dst`."""
    with open(src, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out, header = [], None
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            out.append(line)
            continue
        cells = [c.strip() for c in line.split(",")]
        if header is None:
            header = cells
            if "event" in header and "notice_s" not in header:
                header.append("notice_s")
            out.append(",".join(header))
            continue
        row = dict(zip(header, cells + [""] * (len(header) - len(cells))))
        for key in ("start_s", "end_s", "notice_s"):
            if row.get(key):
                row[key] = _scaled(row[key], EVENT_SCALE)
        if row.get("event") == "eviction" and not row.get("notice_s"):
            row["notice_s"] = _scaled(30, EVENT_SCALE)
        out.append(",".join(row[k] for k in header))
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    with open(dst, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def scaled_outages(doc, scenario, tmp):
    """--set values that scale the scenario's events, trace, detection and checkpoint intervals
    down by EVENT_SCALE and its outage models by MODEL_SCALE; and the outages that must happen
    [(node, at_s)] (crashes and evictions of events and trace rows)."""
    sets, expected = [], []
    for i, e in enumerate(doc.get("events") or []):
        for key in ("at_s", "duration_s", "notice_s"):
            if key in e:
                sets.append("events.%d.%s=%s" % (i, key, _scaled(e[key], EVENT_SCALE)))
        if e.get("kind") in ("crash", "eviction"):
            expected.append((e["node"], float(e["at_s"]) / EVENT_SCALE))
    trace = doc.get("trace")
    if trace:
        src = os.path.join(os.path.dirname(scenario), trace["file"])
        if not os.path.isfile(src):
            src = os.path.join(ROOT, trace["file"])
        dst = os.path.join(tmp, "trace-" + os.path.basename(scenario) + ".csv")
        sets += ["trace.file=" + dst, "trace.sha256=" + scaled_trace(src, dst)]
        with open(dst, encoding="utf-8") as f:
            for row in csv.DictReader(line for line in f if not line.startswith("#")):
                if (row.get("event") or "").strip() in ("crash", "eviction"):
                    expected.append((row["node"].strip(), float(row["start_s"])))
    availability = doc.get("availability") or {}
    for key in ("detection_s", "checkpoint_interval_s"):
        if key in availability:
            sets.append("availability.%s=%s" % (key, _scaled(availability[key], EVENT_SCALE)))
    for i, model in enumerate(availability.get("models") or []):
        model = json.loads(json.dumps(model))
        if "probability_per_h" in model:  # rate -ln(1 - p) per hour
            model["mtbf_h"] = 1.0 / -math.log(1.0 - model.pop("probability_per_h"))
        model["mtbf_h"] = float(model["mtbf_h"]) / MODEL_SCALE
        model.setdefault("outage", {})
        model["outage"]["mean_s"] = float(model["outage"].get("mean_s", 600)) / MODEL_SCALE
        if model.get("kind") == "eviction":
            model["notice_s"] = float(model.get("notice_s", 30)) / MODEL_SCALE
        sets.append("availability.models.%d=%s" % (i, json.dumps(model)))
    return sets, expected


def shortening(doc, scenario, tmp):
    """The --set values that shorten the scenario `doc` (file `scenario`), and the outages its
    runs must meet."""
    sets = list(SHORTEN)
    dataset = (doc.get("dataset") or {}).get("name", "mnist")
    sets.append("training.chunk_size=%d" % CHUNK.get(dataset, DEFAULT_CHUNK))
    if dataset in MAX_ITERATIONS:
        sets.append("training.stop.max_iterations=%d" % MAX_ITERATIONS[dataset])
    for i, run in enumerate(doc.get("runs") or []):
        if run.get("protocol") == "demo":
            sets.append("runs.%d.iterations=%d" % (i, DEMO_ITERATIONS))
    outages, expected = scaled_outages(doc, scenario, tmp)
    return sets + outages, expected


# Checks ------------------------------------------------------------------------------------------

class Case:
    """One directory made and plotted: its failures, commands and wall time."""

    def __init__(self, name):
        self.name, self.failures, self.log, self.started = name, [], [], time.monotonic()
        self.seconds = 0.0
        self.spent = {"hermes-sim": 0.0, "tools/plot": 0.0}  # wall time of each tool

    def check(self, ok, message):
        if not ok:
            self.failures.append(message)
        return ok

    def run(self, command, expect=0, timeout=600):
        self.log.append(" ".join(command))
        t = time.monotonic()
        r = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                           env={k: v for k, v in os.environ.items() if k != "HERMES_SIM"})
        self.spent["tools/plot" if command[0] == PLOT else "hermes-sim"] += time.monotonic() - t
        status_ok = r.returncode in (expect if isinstance(expect, tuple) else (expect,))
        self.check(status_ok, "`%s` exited %d (expected %s)\n--- stdout\n%s--- stderr\n%s"
                   % (" ".join(command), r.returncode, expect, r.stdout[-3000:],
                      r.stderr[-3000:]))
        return r


def plot(case, directory, *args, figures=(), fmt="png", out=None, hermes_sim=None):
    """tools/plot on `directory`: exit 0, no error on stderr, and exactly the files it says it
    wrote, among them `figures`. Returns the CompletedProcess."""
    command = [PLOT, directory] + list(args)
    if fmt != "png":
        command += ["--format", fmt]
    if hermes_sim:
        command += ["--hermes-sim", hermes_sim]
    if out:
        command += ["--out", out]
    r = case.run(command)
    case.check(not ERROR.search(r.stderr), "`%s` printed an error:\n%s"
               % (" ".join(command), r.stderr))
    out_dir = out or os.path.join(directory, "plots")
    wrote = [line[len("wrote "):] for line in r.stdout.splitlines() if line.startswith("wrote ")]
    # .hermes-plots lists them in a run directory's own plots/ (tools/hermes_plot/cli.py).
    on_disk = sorted(n for n in os.listdir(out_dir) if n != ".hermes-plots") \
        if os.path.isdir(out_dir) else []
    case.check(sorted(os.path.basename(w) for w in wrote) == on_disk,
               "%s: tools/plot said it wrote %s, the directory holds %s"
               % (out_dir, [os.path.basename(w) for w in wrote], on_disk))
    for name in figures:
        path = os.path.join(out_dir, name + "." + fmt)
        if not case.check(path in wrote, "%s: no figure %s.%s (it wrote %s)"
                          % (directory, name, fmt, ", ".join(wrote) or "nothing")):
            continue
        with open(path, "rb") as f:
            head = f.read(8)
        size = os.path.getsize(path)
        # (a figure that only says it has nothing to draw is a small SVG)
        case.check(size > (5000 if fmt == "png" else 1000), "%s: %d bytes only" % (path, size))
        if fmt == "png":
            case.check(head == PNG, "%s: not a PNG file" % path)
    return r


def svg_text(path):
    """The text of an SVG figure (kept as text: svg.fonttype none), whitespace collapsed."""
    with open(path, encoding="utf-8") as f:
        svg = f.read()
    return " ".join(" ".join(re.findall(r">([^<>]*)</text>", svg)).split())


def run_figures(run_dir):
    """The figures docs/figures.md promises for a run directory: the protocol run figures,
    credits with B-series workers; the demo figures for demo runs; both when it has both."""
    demo = list(DEMO_FIGURES) if os.path.isfile(os.path.join(run_dir, "demo_workers.csv")) else []
    if not os.path.isfile(os.path.join(run_dir, "global.csv")):
        return demo
    with open(os.path.join(run_dir, "scenario.json"), encoding="utf-8") as f:
        workers = json.load(f)["cluster"]["workers"]
    burst = any(w["profile"].startswith("B") and w.get("count", 1) > 0 for w in workers)
    return list(RUN_FIGURES) + (["credits"] if burst else []) + demo


def outages(run_dir):
    """{(run, node): outages} of nodes.csv."""
    path = os.path.join(run_dir, "nodes.csv")
    if not os.path.isfile(path):
        return {}
    with open(path, newline="") as f:
        return {(r["run"], r["node"]): int(r["outages"]) for r in csv.DictReader(f)}


def summary(directory):
    with open(os.path.join(directory, "summary.csv"), newline="") as f:
        return list(csv.DictReader(f))


# Cases -------------------------------------------------------------------------------------------

def scenario_case(env, scenario):
    """A shipped scenario, run shortened and plotted; with a sweep section also swept."""
    rel = os.path.relpath(scenario, SCENARIOS)
    case = Case(rel)
    with open(scenario, encoding="utf-8") as f:
        doc = json.load(f)
    sets, expected = shortening(doc, scenario, env["tmp"])
    out = os.path.join(env["tmp"], "runs", rel.replace("/", "_")[:-5])
    command = [env["bin"], "run", scenario, "--out", out, "--data-dir", env["data"],
               "--threads", "1", "--quiet"]
    for s in sets:
        command += ["--set", s]
    r = case.run(command)
    if not case.check(r.returncode == 0 and "wrote %s/{" % out in r.stdout,
                      "%s: run wrote no run directory" % rel):
        return case
    rows = summary(out) if os.path.isfile(os.path.join(out, "summary.csv")) else []
    # The outages of the file happen in the shortened runs too.
    met = outages(out)
    for row in rows:
        for node, at in expected:
            if at < float(row["sim_time_s"]):
                case.check(met.get((row["run"], node), 0) > 0,
                           "%s: run %s lasted %s s but node %s has no outage (due at %.3g s)"
                           % (rel, row["run"], row["sim_time_s"], node, at))
    case.outages = sum(met.values())
    plot(case, out, figures=run_figures(out), hermes_sim=env["bin"])
    if "sweep" in doc:
        sweep_dir = out + "-sweep"
        command = [env["bin"], "sweep", scenario, "--out", sweep_dir, "--data-dir", env["data"],
                   "--jobs", "2", "--quiet"]
        for s in sets:
            command += ["--set", s]
        r = case.run(command)
        with open(os.path.join(sweep_dir, "sweep.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        names = [run["name"] for run in manifest["scenario"]["runs"]]
        varied = set()
        for key in manifest["grid"]:
            parts = key.split(".")
            named = [n for n in names if key.startswith("runs.%s." % n)]
            if parts[0] != "runs":
                varied |= set(names)
            elif named:
                varied.add(max(named, key=len))
            else:
                varied.add(names[int(parts[1])])
        plot(case, sweep_dir, figures=["sweep_" + n for n in sorted(varied)] + ["cost_accuracy"])
    return case


def sweep_case(env, name, args, figures, sets=(), expect=0, fmt="png", svg_says=(),
               stderr_says=(), runs=None, point=False):
    """README step 4's my.json (BSP and Hermes alpha -1.3, 2 B1ms + 4 F4s_v2) swept with `args`,
    shortened, then plotted: `figures` written, and in SVG the texts `svg_says` ({figure:
    [texts]}) drawn. `runs`: (--runs of tools/plot, the figures it must give) plotted too;
    `point`: the first point's directory plotted as the run directory it is."""
    case = Case("sweep " + name)
    out = os.path.join(env["tmp"], "sweeps", name)
    command = [env["bin"], "sweep", env["my"], "--out", out, "--data-dir", env["data"],
               "--jobs", "2", "--quiet"] + list(args)
    for s in SHORTEN + ["training.chunk_size=%d" % DEFAULT_CHUNK] + list(sets):
        command += ["--set", s]
    case.run(command, expect=expect)
    r = plot(case, out, figures=figures, fmt=fmt)
    for figure, texts in dict(svg_says).items():
        path = os.path.join(out, "plots", figure + ".svg")
        if os.path.isfile(path):
            text = svg_text(path)
            for t in texts:
                case.check(t in text, "%s: the figure does not say %r; its text: %s"
                           % (path, t, text[:2000]))
    for t in stderr_says:
        case.check(t in r.stderr, "tools/plot %s: stderr does not say %r:\n%s"
                   % (out, t, r.stderr))
    if runs:
        plot(case, out, "--runs", runs[0], figures=runs[1], out=os.path.join(out, "plots-runs"))
    if point:
        first = os.path.join(out, "points", "0000")
        plot(case, first, figures=run_figures(first), hermes_sim=env["bin"])
    return case


def run_dir_cases(env):
    """README step 4's run directory (a partial paper set: BSP and Hermes), a directory of a
    single configuration, --runs choosing one run to draw, and a demo run beside them."""
    case = Case("run my.json (partial paper set), --runs, single configuration")
    out = os.path.join(env["tmp"], "runs", "my-first")
    base = [env["bin"], "run", env["my"], "--data-dir", env["data"], "--threads", "1", "--quiet"]
    for s in SHORTEN + ["training.chunk_size=%d" % DEFAULT_CHUNK]:
        base += ["--set", s]
    case.run(base + ["--out", out])
    figures = run_figures(out)
    r = plot(case, out, figures=figures, hermes_sim=env["bin"], fmt="svg")
    # The paper rows no run matched are drawn as "not simulated" and named above the panels.
    case.check("not simulated" in svg_text(os.path.join(out, "plots", "comparison.svg")),
               "%s: comparison does not say which paper rows were not simulated" % out)
    case.check("not the paper's setup" in r.stderr, "no setup warning:\n" + r.stderr)
    plot(case, out, "--runs", "hermes-1.3", figures=figures, hermes_sim=env["bin"],
         out=os.path.join(env["tmp"], "runs", "my-first-hermes-plots"))
    single = os.path.join(env["tmp"], "runs", "my-first-single")
    case.run(base + ["--out", single, "--runs", "hermes-1.3"])
    case.check([row["run"] for row in summary(single)] == ["hermes-1.3"],
               "%s: not a single configuration" % single)
    plot(case, single, figures=run_figures(single), hermes_sim=env["bin"])
    # A demo run beside the protocol runs: both kinds of figures, and --runs of either kind.
    mixed = os.path.join(env["tmp"], "runs", "my-first-demo")
    case.run(base + ["--out", mixed, "--set", 'runs.-={"protocol": "demo", "iterations": 3}'])
    case.check(os.path.isfile(os.path.join(mixed, "demo_workers.csv")), mixed + ": no demo run")
    plot(case, mixed, figures=run_figures(mixed), hermes_sim=env["bin"])
    plot(case, mixed, "--runs", "demo", figures=DEMO_FIGURES, hermes_sim=env["bin"],
         out=os.path.join(env["tmp"], "runs", "my-first-demo-only"))
    return case


def diverged_run_case(env):
    """README step 4's my.json at learning rate 1000: both runs diverge at their first update,
    before any evaluation and before most workers finish an iteration. A valid run directory
    with an empty global.csv: every figure is still written and says what is missing."""
    case = Case("run my.json diverging at once")
    out = os.path.join(env["tmp"], "runs", "my-first-diverged")
    command = [env["bin"], "run", env["my"], "--out", out, "--data-dir", env["data"],
               "--threads", "1", "--quiet"]
    for s in SHORTEN + ["training.chunk_size=%d" % DEFAULT_CHUNK, "training.learning_rate=1000"]:
        command += ["--set", s]
    case.run(command)
    if not case.check(os.path.isfile(os.path.join(out, "summary.csv")), out + ": no summary.csv"):
        return case
    statuses = {row["run"]: row["status"] for row in summary(out)}
    case.check(set(statuses.values()) == {"diverged"}, "%s: not every run diverged: %s"
               % (out, statuses))
    r = plot(case, out, figures=run_figures(out), hermes_sim=env["bin"], fmt="svg")
    # (whether a worker finished its first iteration before the divergence depends on the data:
    # either the other workers are named, or the figure says no worker did)
    says = {"accuracy_loss": ["nothing to draw", "no evaluation in global.csv", "diverged"],
            "iteration_times": ["no iteration"], "credits": ["B1ms"],
            "comparison": ["diverged"]}
    for figure, texts in says.items():
        path = os.path.join(out, "plots", figure + ".svg")
        text = svg_text(path) if os.path.isfile(path) else ""
        for t in texts:
            case.check(t in text, "%s: the figure does not say %r" % (path, t))
    case.check("accuracy_loss: nothing to draw" in r.stderr, "no note on stderr:\n" + r.stderr)
    return case


def sweep_cases():
    """(name, kwargs of sweep_case) of every sweep shape."""
    named = ["runs.1.name=hermes"]
    a2 = ["runs.hermes-1.3.alpha=-1.6,-1.0", "runs.hermes-1.3.beta=0.05,0.15"]

    def grid(*keys):
        return [a for k in keys for a in ("--grid", k)]

    return [
        ("named-1d", dict(args=grid("runs.hermes.alpha=-1.6,-1.3,-1.0"), sets=named,
                          figures=["sweep_hermes", "cost_accuracy"],
                          stderr_says=["run bsp: the grid"])),
        ("named-2d", dict(args=grid("runs.hermes.alpha=-1.6,-1.0", "runs.hermes.beta=0.05,0.15"),
                          sets=named, figures=["sweep_hermes", "cost_accuracy"])),
        # An unnamed run by its default name: its name at each point follows its values.
        ("unnamed-2d", dict(args=grid(*a2), figures=["sweep_hermes-1.3", "cost_accuracy"],
                            point=True, fmt="svg", svg_says={"sweep_hermes-1.3": [
                                "alpha: runs.hermes-1.3.alpha, beta: runs.hermes-1.3.beta"],
                                "cost_accuracy": ["hermes-1.3", "alpha=-1.6, beta=0.05"]})),
        # The same by index, only the Hermes run (sweep --runs), 2 seeds.
        ("index-2d", dict(args=grid("runs.1.alpha=-1.6,-1.0", "runs.1.beta=0.05,0.15") +
                          ["--runs", "hermes-1.3", "--seeds", "2"],
                          figures=["sweep_hermes-1.3", "cost_accuracy"], fmt="svg",
                          svg_says={"sweep_hermes-1.3": ["mean of 2 seeds per grid point"]})),
        # Keys outside the runs change every run.
        ("learning-rate", dict(args=grid("training.learning_rate=0.05,0.2"),
                               figures=["sweep_bsp", "sweep_hermes-1.3", "cost_accuracy"],
                               runs=("hermes-1.3", ["sweep_hermes-1.3", "cost_accuracy"]))),
        ("worker-count", dict(args=grid("cluster.workers.0.count=1,3"),
                              figures=["sweep_bsp", "sweep_hermes-1.3", "cost_accuracy"])),
        # Seeds only: no grid column; each run over its seeds.
        ("seeds-only", dict(args=["--seeds", "2"], fmt="svg",
                            figures=["sweep_bsp", "sweep_hermes-1.3", "cost_accuracy"],
                            svg_says={"sweep_bsp": ["over seed", "one run per seed"]})),
        # Three keys: a row of heatmaps per lambda.
        ("three-keys", dict(args=grid("runs.1.alpha=-1.6,-1.0", "runs.1.beta=0.05,0.15",
                                      "runs.1.lambda=3,5"), fmt="svg",
                            figures=["sweep_hermes-1.3", "cost_accuracy"],
                            svg_says={"sweep_hermes-1.3": ["lambda=3", "lambda=5"]})),
        # Points that diverge (learning rate 1000) beside points a cap stopped, and --runs.
        ("diverged-capped", dict(args=grid("runs.hermes-1.3.alpha=-1.3,-1.0",
                                           "training.learning_rate=0.1,1000"), fmt="svg",
                                 figures=["sweep_bsp", "sweep_hermes-1.3", "cost_accuracy"],
                                 svg_says={"sweep_hermes-1.3": ["diverged", "no value",
                                                                "stopped by a cap"],
                                           "sweep_bsp": ["diverged", "learning_rate=1000"],
                                           "cost_accuracy": ["diverged"]})),
        # A point that finishes at once beside one --point-timeout abandons (exit 1). 20 s: the
        # quick point must finish in time even in the sanitizer build on a loaded machine (2 s
        # did not); 10^5 updates take far longer than that.
        ("timed-out", dict(args=grid("training.stop.max_iterations=1,100000") +
                           ["--point-timeout", "20", "--runs", "hermes-1.3"],
                           sets=["training.stop.max_sim_time_s=100000",
                                 "training.stop.patience=100000"], expect=1, fmt="svg",
                           figures=["sweep_hermes-1.3", "cost_accuracy"],
                           svg_says={"sweep_hermes-1.3": ["timed out",
                                                           "max_iterations=100000"]},
                           stderr_says=["timed out after 20 s"])),
        # Every point abandoned: a valid sweep with nothing done yet.
        ("nothing-done", dict(args=grid("runs.1.alpha=-1.6,-1.0") + ["--point-timeout", "0.001"],
                              expect=1, figures=[], stderr_says=["no point is done yet"])),
    ]


def main():
    if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
        sys.exit("usage: %s PATH/TO/hermes-sim [NAME...]" % sys.argv[0])
    only = sys.argv[2:]
    started = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="plot_shipped-")
    try:
        env = {"bin": os.path.abspath(sys.argv[1]), "tmp": tmp, "data": os.path.join(tmp, "data"),
               "my": os.path.join(tmp, "my.json")}
        write_data(env["data"])
        with open(env["my"], "w", encoding="utf-8") as f:
            f.write(readme_scenario())
        scenarios = sorted(glob.glob(os.path.join(SCENARIOS, "*", "*.json")))
        rels = [os.path.relpath(s, SCENARIOS) for s in scenarios]
        stale = sorted(EXCLUDED - set(rels))
        if stale:
            sys.exit("EXCLUDED names files that do not exist: %s" % ", ".join(stale))
        scenarios = [s for s, rel in zip(scenarios, rels)
                     if rel not in EXCLUDED and rel.split("/")[0] not in NOT_SCENARIOS]
        print("plot_shipped: %d scenarios, %d sweep shapes; shortened with --set %s, "
              "training.chunk_size=%d (CIFAR-10: %d), demo runs.N.iterations=%d, outage times / %g "
              "(models / %g); synthetic data in %s"
              % (len(scenarios), len(sweep_cases()), " --set ".join(SHORTEN), DEFAULT_CHUNK,
                 CHUNK["cifar10"], DEMO_ITERATIONS, EVENT_SCALE, MODEL_SCALE, env["data"]),
              flush=True)
        jobs = [(scenario_case, (env, s), {}, os.path.relpath(s, SCENARIOS)) for s in scenarios]
        jobs.append((run_dir_cases, (env,), {}, "run my.json"))
        jobs.append((diverged_run_case, (env,), {}, "run my.json diverging"))
        jobs += [(sweep_case, (env, name), kw, "sweep " + name) for name, kw in sweep_cases()]
        jobs = [j for j in jobs if not only or any(o in j[3] for o in only)]

        def call(job):
            function, args, kwargs, name = job
            try:
                case = function(*args, **kwargs)
            except Exception as e:  # a crash of the test itself is a failure, with its case
                case = Case(name)
                case.failures.append("%s: %s" % (type(e).__name__, e))
            case.seconds = time.monotonic() - case.started
            return case

        failed = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for case in pool.map(call, jobs):
                extra = " (hermes-sim %.1f s, tools/plot %.1f s)" % (
                    case.spent["hermes-sim"], case.spent["tools/plot"])
                if getattr(case, "outages", 0):
                    extra += ", %d outages met" % case.outages
                print("%-4s %-60s %6.1f s%s" % ("ok" if not case.failures else "FAIL", case.name,
                                                case.seconds, extra), flush=True)
                for f in case.failures:
                    failed += 1
                    print("     " + f.replace("\n", "\n     "), flush=True)
        wall = time.monotonic() - started
        cpu = os.times()
        print("plot_shipped: %d cases, %d failures, wall %.1f s (CPU of the commands: %.1f s "
              "user, %.1f s system)" % (len(jobs), failed, wall, cpu.children_user,
                                         cpu.children_system))
        return 1 if failed else 0
    finally:
        if os.environ.get("PLOT_SHIPPED_KEEP"):
            print("plot_shipped: kept %s (PLOT_SHIPPED_KEEP)" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
