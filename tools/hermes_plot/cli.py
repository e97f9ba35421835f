"""tools/plot RUN_OR_SWEEP_DIR [--out DIR] [--format png|svg|pdf] [--width single|double|INCHES]
[--reference CSV] [--runs a,b] [--hermes-sim PATH]"""

import argparse
import os
import sys

from .data import FORMATS, NoRows, PlotError, check_run_dir, is_demo_dir, is_sweep_dir

# The name messages use: the installed launcher (cmake/hermes-plot.in) says hermes-plot.
PROG = os.environ.get("HERMES_PLOT_NAME", "tools/plot")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 1 like every other error of tools/plot
        self.print_usage(sys.stderr)
        self.exit(1, "%s: error: %s\n" % (PROG, message))


def _format(text):
    if text not in FORMATS:
        raise argparse.ArgumentTypeError("'%s' is not one of: %s" % (text, ", ".join(FORMATS)))
    return text


def _width(text):
    from .style import parse_width  # imports matplotlib: only once a width is given
    try:
        return parse_width(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def parse_args(argv):
    p = _Parser(
        prog=PROG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Figures of a run directory of `hermes-sim run` or a sweep directory of\n"
                    "`hermes-sim sweep`, into DIR/plots/ (--out elsewhere).\n\n"
                    "run:   accuracy_loss, iteration_times, chunk_sizes, credits (B-series\n"
                    "       nodes) and comparison (beside the paper's table, from\n"
                    "       `hermes-sim compare --format json`: each run's status and stop\n"
                    "       reason, no speedup where it is withheld, a warning when the\n"
                    "       scenario is not the paper's setup)\n"
                    "demo:  demo_workers, demo_timeline and demo_compute (a directory with\n"
                    "       demo_workers.csv, and timeline.csv with outputs.timeline)\n"
                    "sweep: sweep_<run> per run the grid changes (DIR/sweep.json, DIR/points/):\n"
                    "       heatmaps over two varying grid keys, line plots over one or, with\n"
                    "       no grid keys, over the seeds; runs that diverged, were capped or\n"
                    "       are missing are named in the figure; cost_accuracy with costs\n\n"
                    "hermes-sim (for comparison) is --hermes-sim PATH, else $HERMES_SIM, else\n"
                    "the one installed beside hermes-plot, else hermes-sim on PATH, else\n"
                    "<repo>/build/hermes-sim; with none found, comparison is left out (noted).")
    p.add_argument("dir", metavar="RUN_OR_SWEEP_DIR")
    p.add_argument("--out", metavar="DIR", help="where to write the figures (default: DIR/plots)")
    p.add_argument("--format", type=_format, default="png", metavar="|".join(FORMATS),
                   help="file format of the figures (default: png, 150 dpi)")
    p.add_argument("--width", type=_width, default=None, metavar="single|double|INCHES",
                   help="print width the figures are drawn at, so that their fonts keep their "
                        "size on paper (at least 7 pt): single (one column, 3.5 in), double "
                        "(the page, 7.16 in; the default) or inches from 2.5 to 20")
    p.add_argument("--reference", metavar="CSV",
                   help="reference table for comparison, passed to `hermes-sim compare "
                        "--reference` (default: its own choice, the paper's table for MNIST)")
    p.add_argument("--runs", metavar="NAMES",
                   help="comma-separated names of the runs to draw (default: all; comparison "
                        "always compares every run of summary.csv)")
    p.add_argument("--hermes-sim", metavar="PATH", dest="hermes_sim",
                   help="the hermes-sim binary that compares runs with the paper (and, for a "
                        "sweep, says how each run ended)")
    return p.parse_args(argv)


def warn(message):
    print("%s: warning: %s" % (PROG, message), file=sys.stderr)


def plot_run(path, out_dir, args, notes):
    """The figures of a run directory; with demo runs beside the protocol runs (demo_workers.csv
    and global.csv: a scenario mixing them), the demo figures of those too. --runs may name
    either."""
    from .run_data import RunDir
    rd = RunDir(path)
    dd = None
    if os.path.isfile(os.path.join(path, "demo_workers.csv")):
        from .demo_data import DemoDir
        dd = DemoDir(path)
    wanted = [n.strip() for n in (args.runs or "").split(",") if n.strip()]
    unknown = [n for n in wanted if dd is not None and n not in rd.runs + dd.runs]
    if unknown:
        raise PlotError("--runs: %s has no run named %s (its runs: %s)"
                        % (path, ", ".join(unknown), ", ".join(rd.runs + dd.runs)))
    demo = [n for n in wanted if dd is not None and n in dd.runs]
    protocol = [n for n in wanted if n not in demo]
    written = []
    if protocol or not wanted:
        written += _protocol_figures(path, rd, rd.select(",".join(protocol) or None), out_dir,
                                     args, notes)
    if dd is not None and (demo or not wanted):
        from .demo_figures import demo_figures
        written += demo_figures(dd, dd.select(",".join(demo) or None), out_dir, args.format,
                                notes)
    return written


def _protocol_figures(path, rd, runs, out_dir, args, notes):
    from .compare_json import NotFound, find_hermes_sim, run_compare, setup_warning
    # Compared before anything is drawn: a named binary that is missing, or a comparison that
    # fails, leaves no figure behind. None found by looking skips only the comparison.
    try:
        binary = find_hermes_sim(args.hermes_sim)
    except NotFound as e:
        binary = None
        notes.append("comparison: not drawn: %s" % e)
    doc = None if binary is None else run_compare(binary, os.path.join(path, "summary.csv"),
                                                  args.reference)
    # Imported only now, so that `--help` and input errors do not wait for matplotlib.
    from . import accuracy_loss, comparison, run_figures
    from .notice import notice
    fmt = args.format
    written = []
    for draw, name, title in (
            (accuracy_loss.accuracy_loss, "accuracy_loss", "Global model on the test set"),
            (run_figures.iteration_times, "iteration_times", "Iteration time per worker"),
            (run_figures.chunk_sizes, "chunk_sizes", "Chunk size per worker over time")):
        try:
            written.append(draw(rd, runs, out_dir, fmt))
        except NoRows as e:  # a valid directory: the figure says what is missing
            notes.append("%s: nothing to draw: %s" % (name, e))
            written.append(notice(out_dir, name, fmt, title, "nothing to draw: %s" % e))
    for table, name in ((rd.evals, "accuracy_loss"), (rd.iterations, "iteration_times")):
        left_out = rd.left_out_text(runs, table)
        if left_out and any(r in table for r in runs):
            notes.append("%s: not drawn: %s" % (name, left_out))
    credits = run_figures.burst_credits(rd, runs, out_dir, fmt)
    burst = sorted({w.get("profile") for w in (rd.scenario.get("cluster") or {}).get("workers", [])
                    if str(w.get("profile", "")).startswith("B") and w.get("count", 1) != 0})
    if credits:
        written.append(credits)
    elif burst:  # B-series nodes that finished no iteration: the figure says so
        why = "the B-series nodes (%s) finished no iteration in the drawn runs" % ", ".join(burst)
        notes.append("credits: nothing to draw: " + why)
        written.append(notice(out_dir, "credits", fmt, "Burst credits of B-series nodes",
                              "nothing to draw: " + why))
    else:
        notes.append("credits: no B-series node in the drawn runs")
    if doc is None:
        return written
    setup = setup_warning(doc)
    if setup:
        warn("comparison: " + setup)
    for message in doc["warnings"]:
        warn("hermes-sim compare: " + message)
    figure = comparison.comparison(doc, out_dir, fmt)
    if figure:
        written.append(figure)
    else:
        notes.append("comparison: hermes-sim compare found no configuration to compare")
    return written


def plot_demo(path, out_dir, args, notes):
    from .demo_data import DemoDir
    dd = DemoDir(path)
    runs = dd.select(args.runs)
    from .demo_figures import demo_figures
    return demo_figures(dd, runs, out_dir, args.format, notes)


PLOTS_MARKER = ".hermes-plots"
PLOTS_HEADER = "hermes-sim figures"


def record_figures(out_dir, written):
    """Lists the figures written into a run's own plots/ in plots/.hermes-plots (header line, then
    one name per line, with those of earlier calls): `hermes-sim run --force` replaces a run
    directory only if it holds nothing but its files, and these figures (owned_dirs.h)."""
    marker = os.path.join(out_dir, PLOTS_MARKER)
    names = set()
    if os.path.isfile(marker) and not os.path.islink(marker):
        with open(marker, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        if lines and lines[0] == PLOTS_HEADER:
            names.update(line for line in lines[1:] if line)
    here = os.path.abspath(out_dir)
    names.update(os.path.basename(f) for f in written
                 if os.path.dirname(os.path.abspath(f)) == here)
    tmp = "%s.tmp-%d" % (marker, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(PLOTS_HEADER + "\n" + "".join(n + "\n" for n in sorted(names)))
    os.replace(tmp, marker)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    path = args.dir.rstrip("/") or "/"
    out_dir = args.out or os.path.join(path, "plots")
    notes = []
    from . import style
    style.set_width(args.width or style.WIDTHS[style.DEFAULT_WIDTH])
    try:
        if args.reference is not None and not os.path.isfile(args.reference):
            raise PlotError("--reference %s: no such file" % args.reference)
        sweep = is_sweep_dir(path)
        if not sweep and not is_demo_dir(path):
            check_run_dir(path)
        # Every figure is drawn before any is put in place: a failure leaves none (style.staged).
        with style.staged(out_dir):
            if sweep:
                from .sweep_figures import sweep_figures
                written = sweep_figures(path, out_dir, notes, args.runs, args.format,
                                        args.hermes_sim)
            elif is_demo_dir(path):
                written = plot_demo(path, out_dir, args, notes)
            else:
                written = plot_run(path, out_dir, args, notes)
        # Into a run directory's own plots/ (the default): listed, so that replacing the run
        # with --force may remove them with it.
        if args.out is None and os.path.isfile(os.path.join(path, ".hermes-run")):
            record_figures(out_dir, written)
    except (PlotError, OSError) as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr)
        return 1
    for note in notes:
        print("%s: note: %s" % (PROG, note), file=sys.stderr)
    for f in written:
        print("wrote %s" % f)
    return 0
