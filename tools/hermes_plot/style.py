"""One look for every figure: sizes and fonts readable in a two-column paper, 150 dpi PNG (or SVG,
PDF), colours that stay apart in print, and a stable colour per node profile and per run across
figures."""

import os

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

DPI = 150

plt.rcParams.update({
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
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


def panel_grid(n, width=6.4, height=3.2, max_cols=2):
    """A figure with n panels in rows of at most max_cols and a strip below them for a shared
    legend (legend_below); returns (fig, flat list of the n panel axes)."""
    cols = min(max_cols, n)
    rows = (n + cols - 1) // cols
    fig = plt.figure(figsize=(width * cols * 0.75 + 1.0, height * rows + 0.6))
    spec = fig.add_gridspec(rows + 1, cols, height_ratios=[1.0] * rows + [0.12])
    axes = [fig.add_subplot(spec[i // cols, i % cols]) for i in range(n)]
    fig.legend_strip = fig.add_subplot(spec[rows, :])
    fig.legend_strip.axis("off")
    return fig, axes


def legend_below(fig, handles, labels):
    """The figure's shared legend, in one row in the strip of panel_grid."""
    fig.legend_strip.legend(handles, labels, loc="center", ncol=min(len(labels), 6),
                            frameon=False)


def integer_ticks(axis):
    """Ticks at whole numbers only, for iteration and count axes (never 1.25 iterations)."""
    axis.set_major_locator(ticker.MaxNLocator(integer=True))


def save(fig, out_dir, name, fmt):
    """Writes the figure as out_dir/name.fmt (fmt one of data.FORMATS; PNG at 150 dpi) and
    returns the path."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "%s.%s" % (name, fmt))
    tmp = "%s.tmp.%s" % (path, fmt)
    try:
        fig.savefig(tmp, dpi=DPI, format=fmt, metadata=_NO_STAMPS[fmt])
        os.replace(tmp, path)  # a figure is complete or absent
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.remove(tmp)
    return path
