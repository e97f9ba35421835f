"""The Python module hermes_sim (docs/python.md) against the command line, under Debian's python3.

    /usr/bin/python3 tests/python/hermes_sim_test.py HERMES_BINARY PACKAGE_PARENT

README.md's my.json (taken from its step 4) runs from a dict on a tiny synthetic MNIST, shortened
by overrides: its DataFrames hold the command line's CSVs byte for byte, written back too; a run
with `out` writes the command line's files; errors raise InputError with the command line's
message; Ctrl-C stops a run with nothing left behind; the GIL is free while a run computes; a
sweep loads as tidy tables. Exit 77 (skipped) without pandas.
"""

import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest

BINARY = sys.argv[1] if len(sys.argv) > 1 else ""
sys.path.insert(0, sys.argv[2] if len(sys.argv) > 2 else "")
try:
    import numpy as np
    import pandas as pd  # noqa: F401  (hermes_sim needs it)
except ImportError as e:
    print(f"skipped: {e} (Debian: python3-pandas)")
    sys.exit(77)
import hermes_sim  # noqa: E402

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Short runs: a few updates of 60-sample chunks.
SHORT = {"training.chunk_size": 60, "training.local_epochs": 1,
         "training.stop.max_iterations": 12, "training.stop.patience": 4}


def readme_scenario():
    """The scenario of README.md's step 4 here-document, as a dict."""
    with open(os.path.join(SOURCE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    m = re.search(r"cat > my.json <<'JSON'\n(.*?)\nJSON\n", readme, re.S)
    assert m, "README.md has no my.json here-document"
    return json.loads(m.group(1))


def write_mnist(root):
    """A learnable MNIST-layout dataset: class c is a bright 6x6 block at a place of its own,
    over noise; 1200 training and 200 test images as raw IDX files in root/mnist/."""
    rng = np.random.RandomState(5)
    os.makedirs(os.path.join(root, "mnist"))
    for prefix, n in (("train", 1200), ("t10k", 200)):
        labels = (np.arange(n) * 7) % 10
        images = rng.randint(0, 60, size=(n, 28, 28)).astype(np.uint8)
        for i, c in enumerate(labels):
            r, col = 2 + (c // 5) * 12, 2 + (c % 5) * 5
            images[i, r:r + 6, col:col + 6] = 230
        with open(os.path.join(root, "mnist", f"{prefix}-images-idx3-ubyte"), "wb") as f:
            f.write(struct.pack(">IIII", 0x803, n, 28, 28) + images.tobytes())
        with open(os.path.join(root, "mnist", f"{prefix}-labels-idx1-ubyte"), "wb") as f:
            f.write(struct.pack(">II", 0x801, n) + labels.astype(np.uint8).tobytes())


def cli(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, check=False)


class HermesSimModule(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hermes-py-test-")
        cls.data = os.path.join(cls.tmp, "data")
        write_mnist(cls.data)
        cls.scenario = readme_scenario()
        cls.file = os.path.join(cls.tmp, "my.json")
        with open(cls.file, "w", encoding="utf-8") as f:
            json.dump(cls.scenario, f)
        sets = [a for k, v in SHORT.items() for a in ("--set", f"{k}={json.dumps(v)}")]
        cls.cli_out = os.path.join(cls.tmp, "cli")
        r = cli("run", cls.file, "--out", cls.cli_out, "--data-dir", cls.data, "--threads", "2",
                "--quiet", *sets)
        assert r.returncode == 0, r.stderr
        cls.sets = sets

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def cli_file(self, name):
        with open(os.path.join(self.cli_out, name), "rb") as f:
            return f.read()

    def test_validate_a_dict_and_a_path(self):
        d = hermes_sim.validate(self.scenario)
        self.assertEqual(d["name"], "my-first")
        self.assertEqual(d["workers"], 6)
        self.assertEqual(d["runs"], ["bsp", "hermes-1.3"])
        self.assertEqual(hermes_sim.validate(self.file)["runs"], ["bsp", "hermes-1.3"])

    def test_run_from_a_dict_gives_the_command_lines_csvs(self):
        events = []
        r = hermes_sim.run(self.scenario, overrides=SHORT, threads=2, data_dir=self.data,
                           progress=events.append)
        self.assertIsNone(r.out)
        for name in ("summary.csv", "global.csv", "workers.csv", "api.csv", "nodes.csv"):
            self.assertEqual(r.files[name], self.cli_file(name), name)
        self.assertEqual(list(r.summary["run"]), ["bsp", "hermes-1.3"])
        self.assertEqual(r.summary["iterations"].dtype, np.int64)
        self.assertEqual(r.global_["accuracy"].dtype, np.float64)
        self.assertEqual(r.global_["time_s"].dtype, np.float64)
        # Written back, each DataFrame is its CSV again, byte for byte.
        for attribute, name in hermes_sim.TABLES.items():
            self.assertEqual(hermes_sim.to_csv(getattr(r, attribute)).encode(),
                             self.cli_file(name), name)
        kinds = [e["event"] for e in events]
        self.assertEqual(kinds[0], "scenario_start")
        self.assertIn("run_start", kinds)
        self.assertIn("run_end", kinds)
        self.assertEqual(kinds[-1], "scenario_end")

    def test_run_with_out_writes_the_command_lines_files(self):
        out = os.path.join(self.tmp, "py-out")
        r = hermes_sim.run(self.file, overrides=SHORT, threads=1, out=out, data_dir=self.data)
        self.assertEqual(r.out, out)
        for name in ("summary.csv", "global.csv", "workers.csv", "api.csv", "nodes.csv",
                     "scenario.json"):
            with open(os.path.join(out, name), "rb") as f:
                self.assertEqual(f.read(), self.cli_file(name), name)
        loaded = hermes_sim.load(out)
        self.assertTrue(loaded.summary.equals(r.summary))
        self.assertTrue(loaded.global_.equals(r.global_))
        # A second run into it is refused as the command line refuses it, unless force.
        with self.assertRaises(hermes_sim.InputError) as e:
            hermes_sim.run(self.file, overrides=SHORT, out=out, data_dir=self.data)
        self.assertIn("out", str(e.exception))
        hermes_sim.run(self.file, overrides=SHORT, out=out, force=True, data_dir=self.data,
                       runs=["bsp"])
        self.assertEqual(list(hermes_sim.load(out).summary["run"]), ["bsp"])

    def test_errors_carry_the_command_lines_message(self):
        bad = json.loads(json.dumps(self.scenario))
        bad["training"] = {"lr": 0.1}
        with self.assertRaises(hermes_sim.InputError) as e:
            hermes_sim.run(bad, data_dir=self.data)
        message = str(e.exception)
        self.assertIn("<scenario dict>", message)
        self.assertIn("/training/lr", message)
        self.assertIsInstance(e.exception, ValueError)
        with self.assertRaises(hermes_sim.InputError) as e:
            hermes_sim.validate(self.file, overrides={"runs.hermes-1.3.alpha": "steep"})
        self.assertIn("/runs/1/alpha", str(e.exception))
        r = cli("validate", self.file, "--set", "runs.hermes-1.3.alpha=steep")
        self.assertNotEqual(r.returncode, 0)
        for line in str(e.exception).splitlines()[1:]:
            self.assertIn(line.strip(), r.stderr)
        with self.assertRaises(hermes_sim.InputError) as e:
            hermes_sim.run(self.scenario, runs="nope", data_dir=self.data)
        self.assertIn("nope", str(e.exception))
        with self.assertRaises(TypeError):
            hermes_sim.run(42)
        with self.assertRaises(hermes_sim.InputError):
            hermes_sim.load(os.path.join(self.tmp, "no-such-dir"))

    def long_run_overrides(self):
        return dict(SHORT, **{"training.stop.max_iterations": 1000000,
                              "training.stop.patience": 1000000})

    def test_ctrl_c_stops_a_run_and_leaves_nothing(self):
        out = os.path.join(self.tmp, "interrupted")
        timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        started = time.monotonic()
        with self.assertRaises(KeyboardInterrupt):
            hermes_sim.run(self.scenario, overrides=self.long_run_overrides(), threads=2,
                           out=out, data_dir=self.data)
        self.assertLess(time.monotonic() - started, 30)
        self.assertFalse(os.path.exists(out))
        leftovers = [n for n in os.listdir(self.tmp) if n.startswith("interrupted")]
        self.assertEqual(leftovers, [])

    def test_the_gil_is_free_while_a_run_computes(self):
        done = threading.Event()
        error = []

        def work():
            try:
                hermes_sim.run(self.scenario, overrides=dict(
                    SHORT, **{"training.stop.max_iterations": 400}), threads=1,
                    data_dir=self.data)
            except Exception as e:  # noqa: BLE001  (reported below)
                error.append(e)
            done.set()

        t = threading.Thread(target=work)
        t.start()
        ticks = 0
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)
        t.join()
        self.assertEqual(error, [])
        # The main thread kept running beside the run (with the GIL held by it: 0 or 1 tick).
        self.assertGreater(ticks, 20)

    def test_a_sweep_loads_as_tidy_tables(self):
        sweep = os.path.join(self.tmp, "sweep")
        r = cli("sweep", self.file, "--out", sweep, "--data-dir", self.data, "--threads", "2",
                "--quiet", *self.sets, "--grid", "runs.hermes-1.3.alpha=-0.5,-1.3")
        self.assertEqual(r.returncode, 0, r.stderr)
        s = hermes_sim.load(sweep)
        self.assertIsInstance(s, hermes_sim.Sweep)
        self.assertEqual(s.grid_columns, ["runs.hermes-1.3.alpha"])
        self.assertEqual(sorted(s.summary["point"].unique()), ["0000", "0001"])
        curves = s.global_
        self.assertEqual(list(curves.columns[:2]), ["point", "runs.hermes-1.3.alpha"])
        self.assertEqual(sorted(curves["runs.hermes-1.3.alpha"].unique()), [-1.3, -0.5])
        for point in ("0000", "0001"):
            with open(os.path.join(sweep, "points", point, "global.csv"), "rb") as f:
                own = hermes_sim.load(os.path.join(sweep, "points", point)).global_
                self.assertEqual(len(curves[curves["point"] == point]), len(own))
                self.assertGreater(len(f.read()), 0)

    def test_a_sweep_or_demo_directory_without_summary_is_an_input_error(self):
        sweep = os.path.join(self.tmp, "unfinished-sweep")
        os.makedirs(sweep)
        with open(os.path.join(sweep, "sweep.json"), "w", encoding="utf-8") as f:
            f.write("{}")
        with self.assertRaisesRegex(hermes_sim.InputError, "no point has finished"):
            hermes_sim.load(sweep)
        demo = os.path.join(self.tmp, "demo-run")
        os.makedirs(demo)
        open(os.path.join(demo, "demo_workers.csv"), "w", encoding="utf-8").close()
        with self.assertRaisesRegex(hermes_sim.InputError, "demo runs only"):
            hermes_sim.load(demo)

    def test_your_own_npz_dataset_and_layer_list(self):
        # The MNIST blocks' first three classes as one np.savez_compressed archive, channels last.
        root = os.path.join(self.tmp, "own-root")
        os.makedirs(os.path.join(root, "three"))
        arrays = {}
        for part, prefix in (("train", "train"), ("test", "t10k")):
            with open(os.path.join(self.data, "mnist", f"{prefix}-images-idx3-ubyte"), "rb") as f:
                images = np.frombuffer(f.read()[16:], np.uint8).reshape(-1, 28, 28)
            with open(os.path.join(self.data, "mnist", f"{prefix}-labels-idx1-ubyte"), "rb") as f:
                labels = np.frombuffer(f.read()[8:], np.uint8)
            keep = labels < 3
            arrays[f"x_{part}"] = images[keep][..., None]
            arrays[f"y_{part}"] = labels[keep].astype(np.int64)
        np.savez_compressed(os.path.join(root, "three", "three.npz"), **arrays)
        scenario = dict(self.scenario)
        scenario["dataset"] = {"name": "three", "format": "npz", "shape": [1, 28, 28],
                               "classes": 3}
        scenario["model"] = {"name": "conv", "layers": [
            {"type": "conv2d", "filters": 4, "kernel": 5}, {"type": "relu"},
            {"type": "maxpool"}, {"type": "dense", "units": "classes"}]}
        d = hermes_sim.validate(scenario)
        self.assertEqual(d["layers"], ["conv2d 4 5x5", "relu", "maxpool 2x2", "dense 3"])
        self.assertEqual(d["params"], 4 * 26 + 12 * 12 * 4 * 3 + 3)
        r = hermes_sim.run(scenario, overrides=SHORT, threads=2, data_dir=root)
        self.assertEqual(list(r.summary["run"]), ["bsp", "hermes-1.3"])
        self.assertTrue((r.summary["accuracy"] > 1 / 3).all(), r.summary)
        # The archive's labels are counted before anything loads: the scenario's chunk of 2500 is
        # more than the 360 training samples.
        with self.assertRaisesRegex(hermes_sim.InputError,
                                    r"/training/chunk_size: .* the 360 training samples of three"):
            hermes_sim.run(scenario, data_dir=root)
        # A label beyond the classes: the file, the array and the sample.
        scenario["dataset"]["classes"] = 2
        scenario["model"] = {"name": "mlp"}
        with self.assertRaisesRegex(hermes_sim.InputError, r"three\.npz: y_train\.npy: label 2"):
            hermes_sim.run(scenario, overrides=SHORT, data_dir=root)

    def test_compare_is_the_command_lines_json(self):
        r = cli("compare", self.cli_out, "--format", "json")
        self.assertEqual(r.returncode, 0, r.stderr)
        c = hermes_sim.compare(self.cli_out)
        self.assertEqual(c.document, json.loads(r.stdout))
        # A Result without a directory is compared the same way, from a temporary copy.
        fresh = hermes_sim.run(self.scenario, overrides=SHORT, threads=2, data_dir=self.data)
        again = hermes_sim.compare(fresh)
        self.assertEqual(again.document["configurations"], c.document["configurations"])
        self.assertEqual(len(c.table), len(c.document["configurations"]))
        for column in ("label", "protocol", "status", "sim_iterations", "paper_iterations"):
            self.assertIn(column, c.table.columns)
        bsp = c.table[c.table["protocol"] == "bsp"].iloc[0]
        self.assertEqual(bsp["sim_iterations"], 12)  # the shortened runs' stop
        self.assertTrue(c.warnings)  # not the paper's setup: said, as the command line says it
        with self.assertRaises(hermes_sim.InputError):
            hermes_sim.compare(os.path.join(self.tmp, "nowhere"))

    def test_plot_draws_a_results_tables_as_they_are_now(self):
        r = hermes_sim.run(self.scenario, overrides=SHORT, threads=2, data_dir=self.data)
        out = os.path.join(self.tmp, "figures")
        written = hermes_sim.plot(r, out)
        self.assertIn(os.path.join(out, "accuracy_loss.png"), written)
        for path in written:
            self.assertGreater(os.path.getsize(path), 5000, path)
        # A table changed in Python is what is drawn: BSP alone.
        r.summary = r.summary[r.summary["run"] == "bsp"]
        r.global_ = r.global_[r.global_["run"] == "bsp"]
        r.workers = r.workers[r.workers["run"] == "bsp"]
        only = hermes_sim.plot(r, os.path.join(self.tmp, "figures-bsp"), format="svg",
                               width="single")
        with open(os.path.join(self.tmp, "figures-bsp", "accuracy_loss.svg"),
                  encoding="utf-8") as f:
            svg = f.read()
        self.assertIn("bsp", svg)
        self.assertNotIn("hermes-1.3", svg)
        self.assertTrue(all(p.endswith(".svg") for p in only))
        with self.assertRaises(hermes_sim.InputError) as e:
            hermes_sim.plot(os.path.join(self.tmp, "nowhere"), out)
        self.assertIn("no such directory", str(e.exception))

    def test_the_tutorial_runs(self):
        out = os.path.join(self.tmp, "tutorial")
        env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(hermes_sim.__file__)))
        r = subprocess.run([sys.executable, os.path.join(SOURCE, "docs", "tutorial.py"), "--quick",
                            "--data-dir", self.data, "--out", out],
                           capture_output=True, text=True, env=env, check=False)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("wrote", r.stdout)
        self.assertGreater(os.path.getsize(os.path.join(out, "accuracy.png")), 10000)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
