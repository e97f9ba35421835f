#!/usr/bin/env python3
"""ctest install_tree: `cmake --install` of the build into a scratch prefix (under the build
directory, removed afterwards) gives a hermes-sim that runs from any directory without HERMES_HOME:
it finds its share directory beside bin/, validates and lists the installed scenarios and
profiles, writes a default run directory under ./hermes-results (never into the share
directory), and hermes-plot answers --help. The install also holds hermes-sim-mpi (when the build
has MPI), LICENSE, the copyright file, changelog.Debian.gz, the manual pages and results/README.md
with the docs, every relative link of the installed Markdown resolving; no binary holds the path
of the source or build directory, and the installed hermes-sim looks for no dataset there.
Usage: install_test.py CMAKE BUILD_DIR"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

CMAKE, BUILD = sys.argv[1], os.path.abspath(sys.argv[2])
del sys.argv[1:3]  # the rest is unittest's
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPI = os.path.exists(os.path.join(BUILD, "hermes-sim-mpi"))


def sanitized():
    with open(os.path.join(BUILD, "CMakeCache.txt"), encoding="utf-8") as f:
        return re.search(r"^HERMES_SANITIZE:BOOL=(ON|TRUE|1|YES)$", f.read(), re.M | re.I)


def env_without_home(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("HERMES_HOME", "HERMES_DATA_DIR", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                        "PMIX_RANK")}
    env.update(extra)
    return env


class InstalledTree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="install-test-", dir=BUILD)
        cls.prefix = os.path.join(cls.scratch, "prefix")
        r = subprocess.run([CMAKE, "--install", BUILD, "--prefix", cls.prefix],
                           capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            shutil.rmtree(cls.scratch)
            raise AssertionError("cmake --install failed:\n" + r.stdout + r.stderr)
        cls.share = os.path.join(cls.prefix, "share", "hermes-sim")
        cls.binary = os.path.join(cls.prefix, "bin", "hermes-sim")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def setUp(self):
        self.cwd = tempfile.mkdtemp(prefix="cwd-", dir=self.scratch)  # not the source tree

    def sim(self, *args, env=None):
        return subprocess.run([self.binary, *args], cwd=self.cwd, env=env or env_without_home(),
                              capture_output=True, text=True, timeout=120)

    def test_installs_binary_data_plot_tool_and_docs(self):
        for rel in ["bin/hermes-sim", "bin/hermes-plot",
                    "share/hermes-sim/scenarios/profiles/azure.json",
                    "share/hermes-sim/scenarios/paper/mnist.json",
                    "share/hermes-sim/scenarios/README.md",
                    "share/hermes-sim/results/reference/paper-mnist.csv",
                    "share/hermes-sim/tools/plot", "share/hermes-sim/tools/hermes_plot/cli.py",
                    "share/doc/hermes-sim/README.md", "share/doc/hermes-sim/docs/architecture.md",
                    "share/doc/hermes-sim/results/README.md", "share/doc/hermes-sim/LICENSE",
                    "share/doc/hermes-sim/copyright", "share/doc/hermes-sim/changelog.Debian.gz",
                    "share/man/man1/hermes-sim.1.gz", "share/man/man1/hermes-plot.1.gz"]:
            self.assertTrue(os.path.isfile(os.path.join(self.prefix, rel)), rel)
        for exe in ["bin/hermes-sim", "bin/hermes-plot", "share/hermes-sim/tools/plot"]:
            self.assertTrue(os.access(os.path.join(self.prefix, exe), os.X_OK), exe)
        with open(os.path.join(self.prefix, "share/doc/hermes-sim/LICENSE"), "rb") as a, \
                open(os.path.join(SOURCE, "LICENSE"), "rb") as b:
            self.assertEqual(a.read(), b.read())
        # Nothing of the build directory's own: no source-tree marker beside the binaries.
        self.assertFalse(os.path.exists(os.path.join(self.prefix, "bin/hermes-source-tree.txt")))

    @unittest.skipUnless(MPI, "the build has no MPI: no hermes-sim-mpi")
    def test_installs_hermes_sim_mpi_beside_hermes_sim(self):
        for rel in ["bin/hermes-sim-mpi", "share/doc/hermes-sim-mpi/copyright",
                    "share/doc/hermes-sim-mpi/changelog.Debian.gz",
                    "share/man/man1/hermes-sim-mpi.1.gz"]:
            self.assertTrue(os.path.isfile(os.path.join(self.prefix, rel)), rel)
        r = self.sim("--version")
        self.assertIn("\nmpi: none; under mpirun (more than one rank) it runs %s-mpi\n"
                      % self.binary, r.stdout)
        r = self.sim("--version", env=env_without_home(OMPI_COMM_WORLD_SIZE="2"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(" (this is hermes-sim-mpi)\n", r.stdout)
        self.assertIn("\nhome: %s (installed:" % self.share, r.stdout)

    def test_every_relative_link_of_the_installed_docs_resolves(self):
        doc = os.path.join(self.prefix, "share/doc/hermes-sim")
        pages = [os.path.join(doc, "README.md"), os.path.join(doc, "results/README.md")]
        pages += glob.glob(os.path.join(doc, "docs", "*.md"))
        checked = 0
        for page in pages:
            with open(page, encoding="utf-8") as f:
                links = re.findall(r"\]\(([^)#\s]+)", f.read())
            for link in links:
                if re.match(r"[a-z]+:", link):
                    continue
                # Lexically, as a Markdown viewer resolves it (the doc links lead into share/).
                target = os.path.normpath(os.path.join(os.path.dirname(page), link))
                self.assertTrue(os.path.exists(target), "%s: %s" % (page, link))
                checked += 1
        self.assertGreater(checked, 20)

    def test_no_source_or_build_path_in_the_installed_binaries(self):
        if sanitized():
            self.skipTest("a sanitizer build: ASan's metadata names each source file as the "
                          "compiler was given it; no release is built so")
        for name in ["hermes-sim"] + (["hermes-sim-mpi"] if MPI else []):
            with open(os.path.join(self.prefix, "bin", name), "rb") as f:
                data = f.read()
            for path in (SOURCE, BUILD):
                self.assertNotIn(path.encode(), data, "bin/%s holds %s" % (name, path))

    def test_the_installed_binary_looks_for_no_dataset_in_the_build_machines_tree(self):
        r = self.sim("validate", os.path.join(self.share, "scenarios/paper/mnist.json"))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        out = r.stdout + r.stderr
        self.assertIn("an installed hermes-sim has no default place for it", out)
        self.assertNotIn("<repo>", out)
        self.assertNotIn(os.path.join(SOURCE, "data"), out)
        self.assertNotIn("shared/data", out)

    def test_version_names_the_installed_home(self):
        r = self.sim("--version")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("\nhome: %s (installed: ../share/hermes-sim beside %s/bin)\n"
                      % (self.share, self.prefix), r.stdout)

    def test_profiles_and_validate_read_the_share_directory(self):
        r = self.sim("profiles")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("DS2_v2", r.stdout)
        r = self.sim("validate", os.path.join(self.share, "scenarios/examples/demo.json"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_run_without_out_writes_under_the_current_directory(self):
        r = self.sim("run", os.path.join(self.share, "scenarios/examples/demo.json"),
                     "--threads", "1")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        runs = os.listdir(os.path.join(self.cwd, "hermes-results"))
        self.assertEqual(len(runs), 1, runs)
        self.assertTrue(runs[0].startswith("demo-"), runs)
        self.assertTrue(os.path.isfile(os.path.join(self.cwd, "hermes-results", runs[0],
                                                    "demo_workers.csv")))
        self.assertFalse(os.path.exists(os.path.join(self.share, "results", runs[0])))

    def test_the_share_directory_is_never_a_run_directory(self):
        r = self.sim("run", os.path.join(self.share, "scenarios/examples/demo.json"),
                     "--out", self.share)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("hermes-sim never writes a run directory there", r.stderr)

    def test_hermes_home_wins_and_a_wrong_one_is_an_error(self):
        other = os.path.join(self.scratch, "other-home")
        shutil.copytree(self.share, other, dirs_exist_ok=True)
        r = self.sim("--version", env=env_without_home(HERMES_HOME=other))
        self.assertIn("\nhome: %s ($HERMES_HOME)\n" % other, r.stdout)
        r = self.sim("profiles", env=env_without_home(HERMES_HOME=other + "/missing"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("HERMES_HOME '%s/missing' does not exist" % other, r.stderr)

    def test_the_installed_python_module_reads_the_share_directory(self):
        package = os.path.join(self.prefix, "lib", "python3", "dist-packages")
        if not os.path.isdir(os.path.join(package, "hermes_sim")):
            self.skipTest("the Python module is not built here (no pybind11, or a sanitizer build)")
        have = subprocess.run(["/usr/bin/python3", "-c", "import pandas"], capture_output=True)
        if have.returncode != 0:
            self.skipTest("no python3-pandas")
        # A scenario whose profiles come from the installed catalog, validated from a directory
        # outside both trees, without HERMES_HOME: the module found <prefix>/share/hermes-sim.
        script = ("import hermes_sim; print(hermes_sim.validate(%r)['workers'])"
                  % os.path.join(self.share, "scenarios/examples/demo.json"))
        r = subprocess.run(["/usr/bin/python3", "-c", script], cwd=self.cwd,
                           env=env_without_home(PYTHONPATH=package), capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"^[0-9]+\n$")
        for path in (SOURCE, BUILD):
            with open(os.path.join(package, "hermes_sim", "__init__.py"), encoding="utf-8") as f:
                self.assertNotIn(path, f.read())

    def test_hermes_plot_answers_help(self):
        plot = os.path.join(self.prefix, "bin", "hermes-plot")
        env = env_without_home()
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # the launcher itself must prevent it
        r = subprocess.run([plot, "--help"], cwd=self.cwd, env=env, capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(glob.glob(os.path.join(self.share, "**", "__pycache__"),
                                   recursive=True), [])
        have = subprocess.run(["/usr/bin/python3", "-c", "import matplotlib, numpy"],
                              capture_output=True).returncode == 0
        if have:
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("RUN_OR_SWEEP_DIR", r.stdout)
            self.assertIn("--reference", r.stdout)
        else:  # tools/plot's own check, reached through the launcher
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("python3-matplotlib", r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
