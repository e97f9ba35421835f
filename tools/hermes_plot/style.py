"""One look for every figure: drawn at the width it is printed at (--width: a column of a
two-column paper, 3.5 in, the page, 7.16 in, or any width), so that a font size here is its size on
paper and none is below MIN_FONT_PT; 150 dpi PNG (or SVG, PDF); colours that stay apart in print,
and a stable colour per node profile and per run across figures."""

import contextlib
import os
import re
import shutil
import tempfile

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

DPI = 150

# Print widths (inches) of IEEE and ACM two-column layouts: a column (3.5 in) and the text width
# (7.16 in). A figure is drawn at its print width, never scaled down afterwards, so the font sizes
# below are the sizes on paper: 7 pt, the smallest that IEEE's and ACM's author guides accept.
WIDTHS = {"single": 3.5, "double": 7.16}
DEFAULT_WIDTH = "double"
MIN_WIDTH, MAX_WIDTH = 2.5, 20.0
MIN_FONT_PT = 7.0
SMALL_PT = 7.0  # bar labels, annotations, legends, ticks
BODY_PT = 8.0  # axis labels, titles

plt.rcParams.update({
    "font.size": BODY_PT,
    "axes.titlesize": BODY_PT,
    "axes.labelsize": BODY_PT,
    "figure.titlesize": BODY_PT + 0.5,
    "figure.labelsize": BODY_PT,
    "legend.fontsize": SMALL_PT,
    "legend.title_fontsize": SMALL_PT,
    "xtick.labelsize": SMALL_PT,
    "ytick.labelsize": SMALL_PT,
    "lines.linewidth": 1.2,
    "lines.markersize": 4,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "figure.constrained_layout.use": True,
    "savefig.dpi": DPI,
    # SVG element ids are hashes salted with a random value unless fixed: the same data must give
    # the same bytes.
    "svg.hashsalt": "hermes-sim",
    # Paper-ready files: TrueType (Type 42) fonts in PDF and PostScript, which ACM TAPS and IEEE
    # PDF eXpress accept (Type 3, matplotlib's default, they reject or flag), and SVG text kept as
    # text (selectable, editable, searchable) instead of paths.
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "svg.fonttype": "none",
})

# Metadata a format would stamp with the date or the matplotlib version, left out (None) for
# deterministic files.
_NO_STAMPS = {"png": {"Software": None},
              "svg": {"Date": None, "Creator": None},
              "pdf": {"CreationDate": None, "Creator": None, "Producer": None}}

RUN_COLOURS = plt.get_cmap("tab10").colors

# Node profiles in the order of the catalog's speed classes, so that a profile keeps its colour
# whichever profiles a cluster has; unknown profiles take the remaining colours in name order.
_PROFILE_ORDER = ("B1s", "B1ms", "B2s", "B2ms", "DS1_v2", "DS2_v2", "DS3_v2", "D2s_v3",
                  "D4s_v3", "F2s_v2", "F4s_v2", "F8s_v2")
_PROFILE_COLOURS = ("#8c564b", "#d62728", "#ff7f0e", "#e377c2", "#7f7f7f", "#1f77b4", "#17becf",
                    "#9467bd", "#bcbd22", "#98df8a", "#2ca02c", "#006400")


def profile_colours(profiles):
    """A colour for each profile name in `profiles`."""
    out, spare = {}, list(plt.get_cmap("Dark2").colors)
    for name in sorted(set(profiles)):
        if name in _PROFILE_ORDER:
            out[name] = _PROFILE_COLOURS[_PROFILE_ORDER.index(name)]
    for name in sorted(set(profiles)):
        if name not in out:
            out[name] = spare[len(out) % len(spare)]
    return out


def profile_sort_key(name):
    return (_PROFILE_ORDER.index(name) if name in _PROFILE_ORDER else len(_PROFILE_ORDER), name)


def time_axis(max_seconds):
    """(divisor, label) for a simulated-time axis: minutes beyond 10 minutes, else seconds."""
    if max_seconds >= 600:
        return 60.0, "simulated time (min)"
    return 1.0, "simulated time (s)"


_width = WIDTHS[DEFAULT_WIDTH]


def parse_width(text):
    """Inches of a --width value: single, double or a number of inches in [MIN_WIDTH, MAX_WIDTH];
    ValueError naming the accepted values otherwise."""
    if text in WIDTHS:
        return WIDTHS[text]
    try:
        inches = float(text)
    except ValueError:
        inches = float("nan")
    if not MIN_WIDTH <= inches <= MAX_WIDTH:  # also NaN
        raise ValueError("'%s' is not a width (accepted: single (%g in), double (%g in), or "
                         "inches from %g to %g)" % (text, WIDTHS["single"], WIDTHS["double"],
                                                    MIN_WIDTH, MAX_WIDTH))
    return inches


def set_width(inches):
    """The print width every figure drawn from now on takes."""
    global _width
    _width = float(inches)


def width():
    """The print width (inches) of the figures being drawn."""
    return _width


def columns(max_cols, min_panel=3.0):
    """How many panels side by side fit the print width, each at least min_panel inches wide."""
    return max(1, min(max_cols, int(_width // min_panel)))


def figure(height):
    """A figure at the print width, `height` inches high."""
    return plt.figure(figsize=(_width, height))


def panel_grid(n, height=2.4, max_cols=2, min_panel=3.0):
    """A figure at the print width with n panels, `height` inches each, in rows of as many as fit
    (at most max_cols, each at least min_panel inches wide), and a strip below them for a shared
    legend (legend_below); returns (fig, flat list of the n panel axes)."""
    cols = min(columns(max_cols, min_panel), n)
    rows = (n + cols - 1) // cols
    fig = figure(height * rows + 0.7)
    spec = fig.add_gridspec(rows + 1, cols, height_ratios=[height] * rows + [0.35])
    axes = [fig.add_subplot(spec[i // cols, i % cols]) for i in range(n)]
    fig.legend_strip = fig.add_subplot(spec[rows, :])
    fig.legend_strip.axis("off")
    return fig, axes


def legend_below(fig, handles, labels):
    """The figure's shared legend, in one row in the strip of panel_grid."""
    per_row = max(1, int(_width // 1.6))  # about 1.6 in per entry at 7 pt
    fig.legend_strip.legend(handles, labels, loc="center", ncol=min(len(labels), per_row),
                            frameon=False)


def integer_ticks(axis):
    """Ticks at whole numbers only, for iteration and count axes (never 1.25 iterations)."""
    axis.set_major_locator(ticker.MaxNLocator(integer=True))


# While staged() is active: the directory figures for `out` are drawn into instead.
_stage = {"out": None, "dir": None}
STAGE_PREFIX = ".drawing-"  # then the drawing process's id and "-"


def _process_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def remove_dead_stages(out_dir):
    """Removes the stages of tools/plot calls that died without cleaning up (kill -9): the
    hidden .drawing-PID-* directories in out_dir whose process is gone. Returns their names."""
    removed = []
    try:
        names = os.listdir(out_dir)
    except OSError:
        return removed
    for name in sorted(names):
        m = re.match(re.escape(STAGE_PREFIX) + r"([0-9]+)-", name)
        path = os.path.join(out_dir, name)
        if (m and os.path.isdir(path) and not os.path.islink(path)
                and not _process_alive(int(m.group(1)))):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(name)
    return removed


@contextlib.contextmanager
def staged(out_dir):
    """Figures saved for `out_dir` inside the block are drawn into a hidden directory in it and
    moved into place only when the block ends without an error: a call of tools/plot that fails
    half-way (a bad cell found by its third figure) leaves no figure behind, and the figures of an
    earlier call stay as they were. A directory the block created is removed if left empty. The
    stages a killed call left behind are removed first."""
    created = not os.path.isdir(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    remove_dead_stages(out_dir)
    stage = tempfile.mkdtemp(prefix="%s%d-" % (STAGE_PREFIX, os.getpid()), dir=out_dir)
    _stage.update(out=os.path.abspath(out_dir), dir=stage)
    try:
        yield
        for name in sorted(os.listdir(stage)):
            os.replace(os.path.join(stage, name), os.path.join(out_dir, name))
    finally:
        _stage.update(out=None, dir=None)
        shutil.rmtree(stage, ignore_errors=True)
        if created and not os.listdir(out_dir):
            os.rmdir(out_dir)


def save(fig, out_dir, name, fmt):
    """Writes the figure as out_dir/name.fmt (fmt one of data.FORMATS; PNG at 150 dpi) and
    returns that path; inside staged() it is drawn into the stage, moved there when the block
    ends."""
    os.makedirs(out_dir, exist_ok=True)
    file_name = "%s.%s" % (name, fmt)
    staged_here = _stage["dir"] is not None and os.path.abspath(out_dir) == _stage["out"]
    path = os.path.join(_stage["dir"] if staged_here else out_dir, file_name)
    tmp = "%s.tmp.%s" % (path, fmt)
    try:
        fig.savefig(tmp, dpi=DPI, format=fmt, metadata=_NO_STAMPS[fmt])
        os.replace(tmp, path)  # a figure is complete or absent
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.remove(tmp)
    return os.path.join(out_dir, file_name)
