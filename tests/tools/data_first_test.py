#!/usr/bin/env python3
"""ctest tools_data_first: without MNIST, tools/run says what to do before installing or building
anything, naming each place it looked at and what it lacks; tools/fetch-data that cannot download
leaves no directory it created and says how to install the files by hand. Standard library only;
never starts a build or a run (every case here lacks data)."""

import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MNIST = ["train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
         "t10k-labels-idx1-ubyte"]


def run(args, env=None):
    full_env = dict(os.environ)
    full_env.pop("HERMES_DATA_DIR", None)
    full_env.update(env or {})
    return subprocess.run(["bash"] + args, cwd=ROOT, env=full_env, capture_output=True,
                          text=True, timeout=120)


class ToolsRunChecksDataFirst(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hermes-data-first-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_a_data_dir_without_mnist_stops_before_the_build(self):
        r = run([os.path.join(ROOT, "tools/run"), "--data-dir", self.tmp])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("MNIST not found (checked before building; nothing was installed or built)",
                      r.stderr)
        self.assertIn("--data-dir: %s/mnist: no such directory" % self.tmp, r.stderr)
        self.assertIn("tools/fetch-data mnist", r.stderr)
        self.assertIn("by hand, without internet", r.stderr)
        # Stopped before tools/deps and tools/build, which print as they go.
        self.assertEqual(r.stdout, "")

    def test_the_environment_variable_names_the_missing_files(self):
        os.makedirs(os.path.join(self.tmp, "mnist"))
        for name in MNIST[:2]:
            open(os.path.join(self.tmp, "mnist", name + ".gz"), "wb").close()
        open(os.path.join(self.tmp, "mnist", MNIST[2]), "wb").close()
        r = run([os.path.join(ROOT, "tools/run")], env={"HERMES_DATA_DIR": self.tmp})
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("$HERMES_DATA_DIR: %s/mnist lacks t10k-labels-idx1-ubyte[.gz]\n" % self.tmp,
                      r.stderr)

    def test_the_flag_wins_over_the_environment_variable(self):
        r = run([os.path.join(ROOT, "tools/run"), "--data-dir=" + self.tmp],
                env={"HERMES_DATA_DIR": "/nonexistent"})
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("--data-dir: %s/mnist: no such directory" % self.tmp, r.stderr)
        self.assertNotIn("/nonexistent", r.stderr)


@unittest.skipUnless(shutil.which("curl") or shutil.which("wget"), "needs curl or wget")
class FetchDataCleansUp(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hermes-fetch-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def fetch(self, dest):
        # Port 9 (discard) on the loopback: the connection is refused at once.
        return run([os.path.join(ROOT, "tools/fetch-data"), "--dest", dest, "mnist"],
                   env={"HERMES_MNIST_URLS": "http://127.0.0.1:9"})

    def test_a_failed_download_leaves_no_directory_it_created(self):
        dest = os.path.join(self.tmp, "new", "data")
        r = self.fetch(dest)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("could not get a verified train-images-idx3-ubyte.gz", r.stderr)
        self.assertIn("Without internet access: copy the four files", r.stderr)
        self.assertIn(dest + "/mnist/", r.stderr)
        self.assertEqual(os.listdir(self.tmp), [])

    def test_directories_that_existed_are_kept(self):
        dest = os.path.join(self.tmp, "data")
        os.makedirs(os.path.join(dest, "mnist"))
        open(os.path.join(dest, "keep"), "w").close()
        r = self.fetch(dest)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(sorted(os.listdir(dest)), ["keep", "mnist"])
        self.assertEqual(os.listdir(os.path.join(dest, "mnist")), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
