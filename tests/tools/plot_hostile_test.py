#!/usr/bin/python3
"""ctest plot_hostile (issue 31, item 7): tools/plot on a generated corpus of hostile run and sweep
directories: each CSV and scenario.json of a run directory, and a sweep's summary.csv and
sweep.json, cut, with bytes flipped, deleted or duplicated, with hostile cells, or replaced by a
special file. Each case must draw its figures or fail with status 1 and a message naming the
file, never an exception (a traceback) and never a figure written for a refused input. Seeded:
the same cases on every run."""

import contextlib
import io
import os
import random
import unittest

import plot_fixtures as fx  # exits 77 (skip) without matplotlib and numpy

from hermes_plot import cli  # noqa: E402

HOSTILE_BYTES = [b"\xff", b"\x00", b'"', b",", b"\n", b"\r", b"\xc3", b"{", b"["]
HOSTILE_CELLS = ["", "x", "nan", "-inf", "inf", "-1", "1e400", "1e-320", "18446744073709551616",
                 "\xff\xfe", '"', "1,2", "9" * 5000, "ok", "diverged", "w99"]


def mutations(name, data, rng, rounds=5):
    """(label, bytes) cuts, byte flips, deletions and duplications of `data`."""
    out = [("%s cut at %d/5" % (name, k), data[:len(data) * k // 5]) for k in range(1, 5)]
    for i in range(rounds):
        at = rng.randrange(len(data))
        out.append(("%s byte flip %d" % (name, i),
                    data[:at] + rng.choice(HOSTILE_BYTES) + data[at + 1:]))
        at = rng.randrange(len(data))
        out.append(("%s deletion %d" % (name, i), data[:at] + data[at + rng.randrange(1, 40):]))
        at, frm = rng.randrange(len(data)), rng.randrange(len(data))
        out.append(("%s duplication %d" % (name, i),
                    data[:at] + data[frm:frm + rng.randrange(1, 60)] + data[at:]))
    return out


def cell_mutations(name, data, rng, count=6):
    """(label, bytes) with one cell of a data line replaced by a hostile one."""
    lines = data.decode("utf-8").split("\n")
    out = []
    for i in range(count):
        row = rng.randrange(1, max(2, len(lines) - 1))
        fields = lines[row].split(",")
        fields[rng.randrange(len(fields))] = rng.choice(HOSTILE_CELLS)
        text = "\n".join(lines[:row] + [",".join(fields)] + lines[row + 1:])
        out.append(("%s cell %d" % (name, i), text.encode("utf-8", "surrogateescape")))
    return out


def plot(directory, out, binary):
    """tools/plot in this process: (status, stderr); an exception escaping is a failure."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = cli.main([directory, "--out", out, "--hermes-sim", binary])
        except SystemExit as e:  # argparse's errors
            status = e.code
    return status, err.getvalue()


class PlotHostile(fx.TempDirTest):
    def setUp(self):
        super().setUp()
        self.binary = fx.fake_hermes_sim(os.path.join(self.dir, "bin"), fx.paper_document())
        self.run_dir = os.path.join(self.dir, "run-original")
        fx.write_run_dir(self.run_dir, evaluations=8, iterations=6)
        self.sweep_dir = os.path.join(self.dir, "sweep-original")
        fx.write_sweep_dir(self.sweep_dir, [("runs.hermes.alpha", ["-1.6", "-0.9"]),
                                            ("runs.hermes.beta", ["0.1", "0.2"])])

    def cases(self):
        rng = random.Random(31)
        out = []
        for original, names in ((self.run_dir, ["summary.csv", "global.csv", "workers.csv",
                                                  "scenario.json"]),
                                (self.sweep_dir, ["summary.csv", "sweep.json"])):
            for name in names:
                with open(os.path.join(original, name), "rb") as f:
                    data = f.read()
                kind = os.path.basename(original)
                found = mutations(kind + "/" + name, data, rng)
                if name.endswith(".csv"):
                    found += cell_mutations(kind + "/" + name, data, rng)
                for special in ("fifo", "directory", "empty"):
                    found.append(("%s/%s %s" % (kind, name, special), special))
                out += [(original, name, label, content) for label, content in found]
        return out

    def test_every_hostile_directory_gives_figures_or_a_clear_error(self):
        import shutil
        cases = self.cases()
        self.assertGreaterEqual(len(cases), 150)
        refused = 0
        for i, (original, name, label, content) in enumerate(cases):
            with self.subTest(case=i, label=label):
                work = os.path.join(self.dir, "case%d" % i)
                shutil.copytree(original, work)
                path = os.path.join(work, name)
                os.remove(path)
                if content == "fifo":
                    os.mkfifo(path)
                elif content == "directory":
                    os.mkdir(path)
                else:
                    with open(path, "wb") as f:
                        f.write(b"" if content == "empty" else content)
                out = os.path.join(self.dir, "plots%d" % i)
                status, err = plot(work, out, self.binary)
                self.assertIn(status, (0, 1), err)
                if status == 1:
                    refused += 1
                    self.assertIn(name, err)
                    self.assertRegex(err, r"^tools/plot: error: ")
                    self.assertFalse(os.path.exists(out), "figures written for a refused input")
                shutil.rmtree(work)
                shutil.rmtree(out, ignore_errors=True)
        # The corpus is hostile: most of it must be refused.
        self.assertGreater(refused, len(cases) // 2, "%d of %d refused" % (refused, len(cases)))

    def test_a_killed_calls_stage_is_removed_by_the_next_call_and_a_live_ones_kept(self):
        import subprocess
        out = os.path.join(self.dir, "plots-stages")
        os.makedirs(out)
        # A process that has exited: its id is free (not reused within this test).
        dead = subprocess.Popen(["true"])
        dead.wait()
        dead_stage = os.path.join(out, ".drawing-%d-abc" % dead.pid)
        live_stage = os.path.join(out, ".drawing-%d-def" % os.getppid())
        for stage in (dead_stage, live_stage):
            os.makedirs(stage)
            with open(os.path.join(stage, "accuracy.png"), "wb") as f:
                f.write(b"half a figure")
        status, err = plot(self.run_dir, out, self.binary)
        self.assertEqual(status, 0, err)
        self.assertFalse(os.path.exists(dead_stage))
        self.assertTrue(os.path.isdir(live_stage))
        left = [n for n in os.listdir(out) if n.startswith(".drawing-")]
        self.assertEqual(left, [os.path.basename(live_stage)])


if __name__ == "__main__":
    unittest.main()
