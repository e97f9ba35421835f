#!/usr/bin/env python3
"""The derived figures results/README.md cites, computed from a run directory's CSVs.

Usage: tools/run_facts.py RUN_DIR [--runs a,b]

For every run of RUN_DIR (summary.csv, global.csv, workers.csv, api.csv as `hermes-sim run`
writes them) it prints: the stop, the global evaluations and where the best loss was, the global
loss's range; per node profile the iteration times (median; first quarter and second half of the
run) and the chunk sizes at the end; the share of worker time spent waiting (api.csv's polls);
for Hermes the major updates decided on a window of two losses (z = -1 or +1 exactly), the
thresholds at the end and WI in each half of the run. Standard library only (any python3).
"""
import argparse
import csv
import os
import statistics
import sys


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def by_run(rows):
    out = {}
    for r in rows:
        out.setdefault(r["run"], []).append(r)
    return out


def fmt(x, d=2):
    return f"{x:.{d}f}"


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def facts(run, summary, global_rows, worker_rows, api_rows):
    s = summary
    sim_time = float(s["sim_time_s"])
    # The parameter columns sit between protocol and seed; empty cells: not the protocol's.
    keys = list(s)
    params = ";".join(f"{k}={s[k]}" for k in keys[keys.index("protocol") + 1:keys.index("seed")]
                      if s[k])
    lines = [f"== {run} ({s['protocol']} {params}) seed {s['seed']}: {s['status']}, "
             f"stop {s['stop_reason']}, {s['iterations']} updates, {s['local_iterations']} "
             f"local iterations, {fmt(sim_time / 60)} min"]
    losses = [float(g["loss"]) for g in global_rows]
    if losses:
        finite = [x for x in losses if x == x]
        best = min(range(len(losses)), key=lambda i: losses[i] if losses[i] == losses[i] else 1e300)
        lines.append(f"  global evaluations {len(losses)}; best loss {fmt(losses[best], 4)} at "
                     f"evaluation {best + 1} (update {global_rows[best]['iteration']}, "
                     f"{fmt(float(global_rows[best]['time_s']) / 60)} min), then "
                     f"{len(losses) - best - 1} more; loss range {fmt(min(finite), 4)}-"
                     f"{fmt(max(finite), 4)}, first {fmt(losses[0], 4)}, last {fmt(losses[-1], 4)}")
    workers = sorted({w["worker"] for w in worker_rows}, key=lambda w: int(w[1:]))
    n_workers = len(workers)
    profiles = {}
    for w in worker_rows:
        profiles.setdefault(w["profile"], []).append(w)
    for prof, rows in sorted(profiles.items()):
        d = [float(r["duration_s"]) for r in rows]
        early = [float(r["duration_s"]) for r in rows if float(r["start_s"]) < sim_time / 4]
        late = [float(r["duration_s"]) for r in rows if float(r["start_s"]) >= sim_time / 2]
        last_chunk = {}
        for r in rows:
            last_chunk[r["worker"]] = int(r["chunk_size"])
        credits = [float(r["credits_left"]) for r in rows if r["credits_left"]]
        line = (f"  {prof}: {len(rows)} iterations, median {fmt(median(d))} s (min {fmt(min(d))}, "
                f"max {fmt(max(d))}); first quarter {fmt(median(early))} s, second half "
                f"{fmt(median(late))} s; chunk at the end {min(last_chunk.values())}-"
                f"{max(last_chunk.values())}")
        if credits:
            line += f"; credits left {fmt(min(credits), 1)}-{fmt(max(credits), 1)}"
        lines.append(line)
    initial = {}
    resized = 0
    for r in worker_rows:
        c = int(r["chunk_size"])
        initial.setdefault(r["worker"], c)
        resized += c != initial[r["worker"]]
    lines.append(f"  iterations with a resized chunk: {resized} of {len(worker_rows)}")
    wait = [float(a["wait_s"]) for a in api_rows if a["kind"] == "polls" and a["wait_s"]]
    if wait and n_workers:
        lines.append(f"  waiting: {fmt(wait[0], 1)} worker-seconds = "
                     f"{fmt(100 * wait[0] / (n_workers * sim_time), 1)}% of worker time")
    majors = [r for r in worker_rows if r["update"] == "major"]
    if s["protocol"] == "hermes" and majors:
        two = sum(1 for r in majors if r["z_score"] and abs(abs(float(r["z_score"])) - 1) < 1e-9)
        lines.append(f"  major updates {len(majors)}, on a window of two losses (|z| = 1): {two}")
        last_thr = {}
        for r in worker_rows:
            if r["threshold"]:
                last_thr[r["worker"]] = float(r["threshold"])
        if last_thr:
            lines.append(f"  thresholds at the end {fmt(min(last_thr.values()))} to "
                         f"{fmt(max(last_thr.values()))}")
        for name, lo, hi in (("first half", 0, sim_time / 2), ("second half", sim_time / 2, 1e300)):
            part = [r for r in worker_rows if lo <= float(r["end_s"]) < hi]
            m = sum(1 for r in part if r["update"] == "major")
            if m:
                lines.append(f"  WI {name}: {len(part)} local iterations / {m} major = "
                             f"{fmt(len(part) / m)}")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir")
    ap.add_argument("--runs", help="comma-separated run names (default: all)")
    a = ap.parse_args()
    d = a.run_dir
    try:
        summary = read(os.path.join(d, "summary.csv"))
        glob = by_run(read(os.path.join(d, "global.csv")))
        work = by_run(read(os.path.join(d, "workers.csv")))
        api = by_run(read(os.path.join(d, "api.csv")))
    except OSError as e:
        sys.exit(f"run_facts: {e}")
    wanted = set(a.runs.split(",")) if a.runs else None
    for s in summary:
        if wanted and s["run"] not in wanted:
            continue
        r = s["run"]
        print("\n".join(facts(r, s, glob.get(r, []), work.get(r, []), api.get(r, []))))


if __name__ == "__main__":
    main()
