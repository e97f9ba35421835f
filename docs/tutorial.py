"""hermes_sim in ten lines: run a scenario, sweep a value, plot accuracy against time.

    PYTHONPATH=build/python /usr/bin/python3 docs/tutorial.py --out tutorial-out

(docs/python.md). Runs README.md's six-worker cluster, BSP against Hermes, then Hermes at three
values of alpha, and draws every run's test accuracy against simulated time into
OUT/accuracy.png; prints the summary table. About 80 s on 2 cores on MNIST (77 s measured);
--quick shortens every run to 12 updates (the test suite runs it so, on a synthetic dataset).
"""

import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

import hermes_sim  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--out", default="tutorial-out", help="directory for accuracy.png")
parser.add_argument("--data-dir", default=None, help="as hermes-sim's --data-dir")
parser.add_argument("--quick", action="store_true", help="12 updates per run")
args = parser.parse_args()

# 1. A scenario is a dict (or a JSON file's path): README.md's my.json.
scenario = {
    "name": "my-first",
    "cluster": {"ps": {"profile": "DS3_v2"},
                "workers": [{"profile": "B1ms", "count": 2}, {"profile": "F4s_v2", "count": 4}]},
    "runs": [{"protocol": "bsp"}, {"protocol": "hermes", "alpha": -1.3}],
}
quick = {"training.chunk_size": 60, "training.local_epochs": 1,
         "training.stop.max_iterations": 12, "training.stop.patience": 4} if args.quick else {}
print(hermes_sim.validate(scenario))

# 2. Run it: every table is a DataFrame.
first = hermes_sim.run(scenario, overrides=quick, data_dir=args.data_dir)
print(first.summary[["run", "iterations", "accuracy", "sim_time_s", "speedup_vs_bsp"]])

# 3. Sweep one value: Hermes' alpha, one run per value (the scenario is a dict: change it), the
# curves tagged with it.
curves = []
for alpha in (-0.9, -1.3, -1.6):
    hermes_only = dict(scenario, runs=[{"protocol": "hermes", "alpha": alpha}])
    r = hermes_sim.run(hermes_only, overrides=quick, data_dir=args.data_dir)
    curves.append(r.global_.assign(alpha=alpha))
sweep = pd.concat(curves, ignore_index=True)

# 4. Plot accuracy against simulated time: BSP, and Hermes at each alpha.
fig, ax = plt.subplots(figsize=(6, 4))
bsp = first.global_[first.global_["run"] == "bsp"]
ax.plot(bsp["time_s"] / 60, 100 * bsp["accuracy"], label="BSP", color="black")
for alpha, g in sweep.groupby("alpha"):
    ax.plot(g["time_s"] / 60, 100 * g["accuracy"], label=f"Hermes, alpha {alpha}")
ax.set_xlabel("simulated time (min)")
ax.set_ylabel("test accuracy (%)")
ax.legend()
os.makedirs(args.out, exist_ok=True)
fig.savefig(os.path.join(args.out, "accuracy.png"), dpi=120, bbox_inches="tight")
print(f"wrote {os.path.join(args.out, 'accuracy.png')}")
