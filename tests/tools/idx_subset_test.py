#!/usr/bin/python3
"""ctest tools_idx_subset: tools/idx-subset keeps the samples of the given classes of an IDX
dataset in their order, relabels them in the order the classes are given, reads gzipped and raw
files, honours the limits, and refuses (leaving nothing behind) an OUT that is not new or empty, a
class list it cannot use and a source that is not IDX. Synthetic IDX files, written here."""

import gzip
import os
import struct
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "idx-subset")


def write_idx(directory, prefix, labels, gz):
    n = len(labels)
    # Image i is 2x3 pixels all equal to i, so the kept order shows in the pixels.
    images = struct.pack(">HBBIII", 0, 8, 3, n, 2, 3) + bytes(i for i in range(n) for _ in range(6))
    marks = struct.pack(">HBBI", 0, 8, 1, n) + bytes(labels)
    for name, data in ((prefix + "-images-idx3-ubyte", images), (prefix + "-labels-idx1-ubyte", marks)):
        path = os.path.join(directory, name + (".gz" if gz else ""))
        with open(path, "wb") as f:
            f.write(gzip.compress(data) if gz else data)


def read_idx(path):
    with open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = struct.unpack(">" + "I" * dims, data[4:4 + 4 * dims])
    return shape, data[4 + 4 * dims:]


class IdxSubset(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = os.path.join(self.tmp.name, "src")
        os.makedirs(self.src)
        write_idx(self.src, "train", [5, 0, 7, 5, 1, 7, 9, 0], gz=True)
        write_idx(self.src, "t10k", [7, 5, 3], gz=False)

    def tearDown(self):
        self.tmp.cleanup()

    def run_tool(self, *args):
        return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True,
                              check=False)

    def test_keeps_the_classes_in_order_and_relabels_them_as_given(self):
        out = os.path.join(self.tmp.name, "out")
        r = self.run_tool(self.src, out, "--classes", "7,5")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("4 training and 2 test samples of classes 7,5 (labels 0..1)", r.stdout)
        shape, labels = read_idx(os.path.join(out, "train-labels-idx1-ubyte"))
        self.assertEqual((shape, list(labels)), ((4,), [1, 0, 1, 0]))
        shape, pixels = read_idx(os.path.join(out, "train-images-idx3-ubyte"))
        self.assertEqual(shape, (4, 2, 3))
        self.assertEqual(list(pixels[::6]), [0, 2, 3, 5])  # source images 0, 2, 3 and 5
        shape, labels = read_idx(os.path.join(out, "t10k-labels-idx1-ubyte"))
        self.assertEqual(list(labels), [0, 1])
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["out", "src"])

    def test_limits_keep_the_first_samples(self):
        out = os.path.join(self.tmp.name, "out")
        r = self.run_tool(self.src, out, "--classes", "0,7", "--limit-train", "3",
                          "--limit-test", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        _, labels = read_idx(os.path.join(out, "train-labels-idx1-ubyte"))
        self.assertEqual(list(labels), [0, 1, 1])

    def test_refusals_leave_nothing_behind(self):
        out = os.path.join(self.tmp.name, "out")
        os.makedirs(out)
        with open(os.path.join(out, "mine"), "w") as f:
            f.write("keep")
        r = self.run_tool(self.src, out, "--classes", "0,1")
        self.assertEqual(r.returncode, 1)
        self.assertIn("exists and is not an empty directory", r.stderr)
        self.assertEqual(os.listdir(out), ["mine"])
        fresh = os.path.join(self.tmp.name, "fresh")
        for classes, message in (("3", "two or more distinct labels"),
                                 ("1,1", "two or more distinct labels"),
                                 ("a,b", "no comma-separated list")):
            r = self.run_tool(self.src, fresh, "--classes", classes)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(message, r.stderr)
        r = self.run_tool(self.src, fresh, "--classes", "2,4")  # no training sample of either
        self.assertEqual(r.returncode, 1)
        self.assertIn("no train sample has a label in 2,4", r.stderr)
        with open(os.path.join(self.src, "t10k-labels-idx1-ubyte"), "wb") as f:
            f.write(b"not idx")
        r = self.run_tool(self.src, fresh, "--classes", "0,5")
        self.assertEqual(r.returncode, 1)
        self.assertIn("t10k-labels-idx1-ubyte: not an unsigned-byte IDX file", r.stderr)
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["out", "src"])


if __name__ == "__main__":
    unittest.main()
