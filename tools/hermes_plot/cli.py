"""tools/plot RUN_OR_SWEEP_DIR [--out DIR] [--reference CSV] [--runs a,b]"""

import argparse
import os
import sys

from .data import PlotError, check_run_dir, is_sweep_dir
from .run_data import RunDir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_REFERENCE = os.path.join(ROOT, "results", "reference", "paper-mnist.csv")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 1 like every other error of tools/plot
        self.print_usage(sys.stderr)
        self.exit(1, "tools/plot: error: %s\n" % message)


def parse_args(argv):
    p = _Parser(
        prog="tools/plot",
        description="PNG figures (150 dpi) of a run directory of `hermes-sim run` or a sweep "
                    "directory of `hermes-sim sweep`. A run gives accuracy_loss.png, "
                    "iteration_times.png, chunk_sizes.png, credits.png (B-series nodes) and "
                    "comparison.png (beside the paper's table); a sweep (DIR/sweep.json and "
                    "DIR/points/) gives sweep_<run>.png per run: heatmaps over two varying grid "
                    "keys, line plots over one.")
    p.add_argument("dir", metavar="RUN_OR_SWEEP_DIR")
    p.add_argument("--out", metavar="DIR", help="where to write the figures (default: DIR/plots)")
    p.add_argument("--reference", metavar="CSV",
                   help="reference table for comparison.png, in the columns of "
                        "results/reference/paper-mnist.csv (default: that file, for MNIST runs)")
    p.add_argument("--runs", metavar="NAMES",
                   help="comma-separated names of the runs to draw (default: all)")
    return p.parse_args(argv)


def plot_run(path, out_dir, args, notes):
    rd = RunDir(path)
    runs = rd.select(args.runs)
    # Imported only now, so that `--help` and input errors do not wait for matplotlib.
    from . import comparison, run_figures
    reference = args.reference
    dataset = rd.scenario.get("dataset", {}).get("name", "mnist")
    if reference is None and dataset != "mnist":
        notes.append("comparison.png: skipped, the paper's table is for MNIST and this run "
                     "trains on %s (pass --reference CSV)" % dataset)
        reference_rows = None
    else:
        reference = reference or DEFAULT_REFERENCE
        reference_rows = comparison.read_reference(reference)  # before drawing: fail early
    written = [run_figures.accuracy_loss(rd, runs, out_dir),
               run_figures.iteration_times(rd, runs, out_dir),
               run_figures.chunk_sizes(rd, runs, out_dir)]
    credits = run_figures.burst_credits(rd, runs, out_dir)
    if credits:
        written.append(credits)
    else:
        notes.append("credits.png: no B-series node in the drawn runs")
    if reference_rows is not None:
        figure = comparison.comparison(rd.summary, reference_rows, reference, out_dir)
        if figure:
            written.append(figure)
        else:
            notes.append("comparison.png: no run finished with status ok")
    return written


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    path = args.dir.rstrip("/") or "/"
    out_dir = args.out or os.path.join(path, "plots")
    notes = []
    try:
        if args.reference is not None and not os.path.isfile(args.reference):
            raise PlotError("--reference %s: no such file" % args.reference)
        if is_sweep_dir(path):
            from .sweep_figures import sweep_figures
            written = sweep_figures(path, out_dir, notes, args.runs)
        else:
            check_run_dir(path)
            written = plot_run(path, out_dir, args, notes)
    except PlotError as e:
        print("tools/plot: error: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("tools/plot: error: %s" % e, file=sys.stderr)
        return 1
    for note in notes:
        print("tools/plot: note: %s" % note, file=sys.stderr)
    for f in written:
        print("wrote %s" % f)
    return 0
