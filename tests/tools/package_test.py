#!/usr/bin/env python3
"""ctest install_deb: `cpack -G DEB` of the build (into a scratch directory under the build
directory, removed afterwards) makes hermes-sim_<version>_<arch>.deb holding the binary, its
share directory and docs under /usr, with Depends naming the runtime libraries and Recommends the
plot tool's Python packages; the binary unpacked from it (never installed system-wide) finds its
share directory. Exits 77 (ctest SKIP_RETURN_CODE) without dpkg-deb or dpkg-shlibdeps.
Usage: package_test.py CPACK BUILD_DIR VERSION"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CPACK, BUILD, VERSION = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
del sys.argv[1:4]  # the rest is unittest's

for tool, package in (("dpkg-deb", "dpkg"), ("dpkg-shlibdeps", "dpkg-dev")):
    if shutil.which(tool) is None:
        print("SKIP: %s not found (Debian package %s): the .deb is neither built nor inspected"
              % (tool, package))
        sys.exit(77)


def run(args, **kw):
    r = subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)
    if r.returncode != 0:
        raise AssertionError("%s failed (%d):\n%s%s" % (" ".join(args), r.returncode, r.stdout,
                                                        r.stderr))
    return r.stdout


class DebianPackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="package-test-", dir=BUILD)
        try:
            run([CPACK, "-G", "DEB", "--config", os.path.join(BUILD, "CPackConfig.cmake"),
                 "-B", cls.scratch])
        except AssertionError:
            shutil.rmtree(cls.scratch)
            raise
        arch = run(["dpkg", "--print-architecture"]).strip()
        cls.deb = os.path.join(cls.scratch, "hermes-sim_%s_%s.deb" % (VERSION, arch))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_file_list_holds_binary_share_directory_and_docs(self):
        self.assertTrue(os.path.isfile(self.deb), os.listdir(self.scratch))
        listing = run(["dpkg-deb", "-c", self.deb])
        for path in ["./usr/bin/hermes-sim", "./usr/bin/hermes-plot",
                     "./usr/share/hermes-sim/scenarios/profiles/azure.json",
                     "./usr/share/hermes-sim/scenarios/paper/mnist.json",
                     "./usr/share/hermes-sim/results/reference/paper-mnist.csv",
                     "./usr/share/hermes-sim/tools/hermes_plot/cli.py",
                     "./usr/share/doc/hermes-sim/README.md"]:
            self.assertIn(" " + path + "\n", listing)

    def test_control_names_version_depends_and_recommends(self):
        info = run(["dpkg-deb", "-I", self.deb])
        fields = {}
        for line in info.splitlines():
            key, sep, value = line.strip().partition(": ")
            if sep:
                fields[key] = value
        self.assertEqual(fields.get("Package"), "hermes-sim", info)
        self.assertEqual(fields.get("Version"), VERSION, info)
        depends = fields.get("Depends", "")
        # The libraries the binary links, as dpkg-shlibdeps names their packages.
        linked = run(["ldd", os.path.join(BUILD, "hermes-sim")])
        expected = ["libc6", "libstdc++6", "libboost-program-options", "zlib1g", "libssl"]
        if "libmpi" in linked:
            expected.append("libopenmpi")
        for package in expected:
            self.assertIn(package, depends, info)
        for package in ["python3-matplotlib", "python3-numpy"]:
            self.assertIn(package, fields.get("Recommends", ""), info)

    def test_the_unpacked_binary_finds_its_share_directory(self):
        root = os.path.join(self.scratch, "root")
        run(["dpkg-deb", "-x", self.deb, root])
        env = {k: v for k, v in os.environ.items() if k != "HERMES_HOME"}
        out = run([os.path.join(root, "usr/bin/hermes-sim"), "--version"], cwd=self.scratch,
                  env=env)
        self.assertIn("\nhome: %s/usr/share/hermes-sim (installed:" % root, out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
