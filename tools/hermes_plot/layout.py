"""Layout of the figures of run and demo directories (accuracy_loss, run_figures, demo_figures) at
their print width, style.width(): panels in as many columns as fit, a figure never taller than a
page leaves room for (MAX_HEIGHT), titles and legend labels wrapped to the width they are given
(measured in the font they are drawn in, never broken inside a word), a legend strip below the
panels as high as its rows, and lines that lie on each other found and told apart."""

import math

from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

from . import style

# A page of an IEEE or ACM two-column paper has about 9 in of text height; a figure taller than
# 8 in leaves no room for its caption. Panels shrink (down to MIN_ROW) to keep within it.
MAX_HEIGHT = 8.0
MIN_ROW = 1.0  # inches per row of panels: title, half an inch of plot, tick labels
MIN_NARROW_PANEL = 1.1  # inches: the narrowest panel a column is added for (to keep in MAX_HEIGHT)
ROW_OVERHEAD = 0.55  # inches of a row of panels that are not plot: title, tick labels, x label
MIN_PANEL = 1.6  # inches of width per panel when panels share their y axis (labels on the left)
MAX_COLUMNS = 4
LINE = 1.25  # text line height, in font sizes
SUPTITLE_PAD = 0.12  # inches around a figure title

_measure = TextToPath()


def text_inches(text, size):
    """Width (inches) of the widest line of `text` at `size` points in the figures' font."""
    prop = FontProperties(size=size)
    return max(_measure.get_text_width_height_descent(line, prop, ismath=False)[0]
               for line in text.split("\n")) / 72.0


def wrap(text, inches, size):
    """`text` broken at spaces into lines no wider than `inches` at `size` points (a word wider
    than that stays whole on a line of its own), as even as that many lines can be: no lone word
    on the last line."""
    out = []
    for paragraph in text.split("\n"):
        lines = _greedy(paragraph, inches, size)
        if len(lines) > 1:  # the narrowest width that still takes no more lines
            lo, hi = 0.0, inches
            for _ in range(12):
                mid = (lo + hi) / 2
                if len(_greedy(paragraph, mid, size)) <= len(lines):
                    hi = mid
                else:
                    lo = mid
            lines = _greedy(paragraph, hi, size)
        out += lines
    return "\n".join(out)


def _greedy(paragraph, inches, size):
    lines, line = [], ""
    for word in paragraph.split(" "):
        candidate = word if not line else line + " " + word
        if line and text_inches(candidate, size) > inches:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + [line]


def lines_of(text):
    return text.count("\n") + 1


def title_height(text, size):
    """Inches a title of `text` (already wrapped) takes, with its padding."""
    return lines_of(text) * LINE * size / 72.0 + SUPTITLE_PAD


def wrapped_suptitle(text):
    """A figure title wrapped to the print width, and the inches it takes."""
    size = style.BODY_PT + 0.5
    wrapped = wrap(text, style.width() - 0.15, size)
    return wrapped, title_height(wrapped, size)


# A legend entry: its handle (2 em), the pad after it (0.8 em) and the space to the next column
# (2 em), at the legend's font size, besides its text.
_ENTRY_EM = 4.8


def legend_layout(labels, inches, size=style.SMALL_PT):
    """(labels, ncol, height in inches) of a legend of `labels` in a strip `inches` wide: the most
    columns that fit (matplotlib fills them top to bottom, each as wide as its widest label),
    with the widest column's labels, or else every column's, wrapped onto two lines when that
    makes one more column fit; in one column every label wrapped to the strip."""
    if not labels:
        return [], 1, 0.0
    entry = _ENTRY_EM * size / 72.0
    spacing = 2.0 * size / 72.0  # no column spacing after the last column
    for ncol in range(len(labels), 0, -1):
        chunks = _columns(labels, ncol)
        widths = [max(text_inches(l, size) for l in chunk) for chunk in chunks]
        if sum(widths) + ncol * entry - spacing <= inches:
            return labels, ncol, _legend_height(chunks, size)
        if ncol == 1:
            break
        widest = widths.index(max(widths))
        room = inches - (sum(widths) - widths[widest]) - ncol * entry + spacing
        wrapped = [wrap(l, room, size) for l in chunks[widest]]
        if room > 0.5 and all(lines_of(l) <= 2 and text_inches(l, size) <= room
                              for l in wrapped):
            chunks[widest] = wrapped
            return [l for c in chunks for l in c], ncol, _legend_height(chunks, size)
        # Else every column an equal share, its labels wrapped onto at most two lines.
        share = (inches - ncol * entry + spacing) / ncol
        wrapped = [[wrap(l, share, size) for l in chunk] for chunk in chunks]
        if share > 0.5 and all(lines_of(l) <= 2 and text_inches(l, size) <= share
                               for chunk in wrapped for l in chunk):
            return [l for c in wrapped for l in c], ncol, _legend_height(wrapped, size)
    labels = [wrap(l, inches - entry, size) for l in labels]
    return labels, 1, _legend_height([labels], size)


def _columns(labels, ncol):
    """The labels of each column of a legend of ncol columns, as matplotlib fills them: in order,
    the first len % ncol columns one entry longer."""
    rows, long_cols = divmod(len(labels), ncol)
    out, i = [], 0
    for c in range(ncol):
        n = rows + (1 if c < long_cols else 0)
        out.append(labels[i:i + n])
        i += n
    return out


def _legend_height(columns, size):
    """Inches of a legend whose columns hold these labels: text lines, and half a line between
    entries."""
    tallest = max(sum(lines_of(l) for l in column) * LINE + 0.5 * len(column)
                  for column in columns)
    return tallest * size / 72.0 + 0.1


def integer_ticks(axis):
    """Ticks at whole numbers only (never 1.25 iterations), as many as the axis has room for at
    its print size (style.integer_ticks asks for up to 10, too many for a narrow panel)."""
    from matplotlib import ticker
    axis.set_major_locator(ticker.MaxNLocator(integer=True, nbins="auto", min_n_ticks=1,
                                              steps=[1, 2, 2.5, 5, 10]))


def legend_in(ax, handles, labels, ncol):
    """A legend centred in `ax` (a strip turned off), for labels from legend_layout."""
    ax.axis("off")
    ax.legend(handles, labels, loc="center", ncol=ncol, frameon=False, fontsize=style.SMALL_PT,
              borderaxespad=0)


def panel_grid(n, title, legend_labels, ylabel=None, sharey=True, min_panel=MIN_PANEL,
               aspect=0.5, max_row=2.6, max_columns=MAX_COLUMNS, plot_height=None):
    """A figure at the print width with n panels in rows of as many as fit (each at least
    min_panel wide, at most max_columns), a title wrapped to the width, and a strip below them
    for a legend of `legend_labels`. A row is ROW_OVERHEAD (title, tick labels, x label) plus a
    plot `aspect` x the panel width high, or `plot_height` inches for plots whose height follows
    their content (a bar per node); within MIN_ROW and max_row, and less when the figure would
    be taller than MAX_HEIGHT. With `sharey` the panels share their y axis (the same limits, so
    that they compare), tick labels only on the left column, and `ylabel` once for all of them.

    Returns (fig, axes, legend) where legend(handles) draws the legend in the strip;
    fig.panel_columns is the number of columns."""
    width = style.width()
    cols = max(1, min(n, max_columns, int(width // min_panel)))
    wrapped_title, top = wrapped_suptitle(title)
    labels, ncol, strip = legend_layout(legend_labels, width - 0.1)
    # Rows even at their lowest taller than a page: one more column while panels stay readable
    # (beyond that the figure is as tall as it must be: draw fewer runs with --runs).
    while math.ceil(n / cols) * MIN_ROW + top + strip > MAX_HEIGHT and cols < n and \
            width / (cols + 1) >= MIN_NARROW_PANEL:
        cols += 1
    rows = math.ceil(n / cols)
    plot = aspect * width / cols if plot_height is None else plot_height
    row = min(max(ROW_OVERHEAD + plot, MIN_ROW), max_row if plot_height is None else MAX_HEIGHT)
    if rows * row + top + strip > MAX_HEIGHT:
        row = max(MIN_ROW, (MAX_HEIGHT - top - strip) / rows)
    fig = style.figure(rows * row + top + strip)
    spec = fig.add_gridspec(rows + 1, cols, height_ratios=[row] * rows + [strip])
    axes = []
    for i in range(n):
        share = axes[0] if sharey and axes else None
        ax = fig.add_subplot(spec[i // cols, i % cols], sharey=share)
        if sharey and i % cols:
            ax.tick_params(labelleft=False)
        axes.append(ax)
    strip_ax = fig.add_subplot(spec[rows, :])
    strip_ax.axis("off")
    fig.suptitle(wrapped_title)
    if ylabel:
        if sharey:
            fig.supylabel(ylabel, fontsize=style.BODY_PT)
        else:
            for ax in axes:
                ax.set_ylabel(ylabel)
    fig.panel_columns = cols

    def legend(handles):
        legend_in(strip_ax, handles, labels, ncol)
    return fig, axes, legend


def bottom_of_column(i, n, cols):
    """Whether panel i of n (in rows of cols) has no panel below it: it carries the x label."""
    return i + cols >= n


def panel_title(ax, text, fig, size=style.BODY_PT):
    """A panel title wrapped to the panel's width (the figure's width over its columns, less its
    tick labels); fit_titles narrows it to the width the layout gives the panel."""
    cols = getattr(fig, "panel_columns", 1)
    ax.set_title(wrap(text, style.width() / cols - 0.35, size), fontsize=size)
    ax.unwrapped_title = (text, size)


def fit_titles(fig):
    """Rewraps the panel titles of panel_title to the widths the layout has given their panels
    (tick labels and y labels take their share), so that none reaches past its panel."""
    place(fig)
    changed = False
    for ax in fig.axes:
        if getattr(ax, "unwrapped_title", None):
            text, size = ax.unwrapped_title
            inches = ax.get_position().width * fig.get_size_inches()[0] - 0.05
            wrapped = wrap(text, inches, size)
            if wrapped != ax.get_title():
                ax.set_title(wrapped, fontsize=size)
                changed = True
    if changed:
        place(fig)


def same_lines(series, y_span, tolerance=0.01):
    """Groups (lists of indices, in order) of the `series` ((xs, ys) each, xs increasing) that hide
    each other on an axis spanning y_span: where both have points, over at least half of each
    one's x range, they differ by at most `tolerance` of y_span (one may end before the other: it
    is hidden all the same). A series joins the group of the first series it is alike; series
    alone in their group are left out."""
    firsts, groups = [], {}
    for j, b in enumerate(series):
        for i in firsts:
            if _alike(series[i], b, tolerance * y_span):
                groups[i].append(j)
                break
        else:
            firsts.append(j)
            groups[j] = [j]
    return [groups[i] for i in firsts if len(groups[i]) > 1]


def _alike(a, b, y_tol):
    (xa, ya), (xb, yb) = a, b
    if not xa or not xb:
        return False
    lo, hi = max(xa[0], xb[0]), min(xa[-1], xb[-1])
    if hi < lo:
        return False
    for xs in (xa, xb):
        if xs[-1] > xs[0] and hi - lo < 0.5 * (xs[-1] - xs[0]):
            return False
    return all(abs(y - _at(xb, yb, x)) <= y_tol for x, y in zip(xa, ya) if lo <= x <= hi) and \
        all(abs(y - _at(xa, ya, x)) <= y_tol for x, y in zip(xb, yb) if lo <= x <= hi)


def _at(xs, ys, x):
    """ys linearly interpolated at x (held at the ends)."""
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    lo, hi = 0, len(xs) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if xs[mid] <= x:
            lo = mid
        else:
            hi = mid
    if xs[hi] == xs[lo]:
        return ys[hi]
    f = (x - xs[lo]) / (xs[hi] - xs[lo])
    return ys[lo] + f * (ys[hi] - ys[lo])


def name_list(names):
    """'w0, w1', or 'w0\u2013w3' for three or more consecutive workers."""
    indices = [n[1:] for n in names]
    if len(names) > 2 and all(n.startswith("w") and i.isdigit() for n, i in zip(names, indices)):
        nums = [int(i) for i in indices]
        if nums == list(range(nums[0], nums[0] + len(nums))):
            return "%s\u2013%s" % (names[0], names[-1])
    return ", ".join(names)


def interleaved(k, i, segment=4.0):
    """The dash pattern of line i of k lines that lie on each other: each draws one segment in
    k, shifted by i segments, so that all k colours show along the line."""
    return (i * segment, (segment, (k - 1) * segment))


_CORNERS = (("right", "bottom", 0.98, 0.03), ("left", "bottom", 0.02, 0.03),
            ("right", "top", 0.98, 0.97), ("left", "top", 0.02, 0.97))


def corner_text(ax, text, points, size=style.SMALL_PT):
    """`text` in the corner of `ax` that the fewest of `points` ((x, y) in data units, the axes'
    limits already set) fall in, so that it covers as little of the data as it can; lower right
    first when corners tie."""
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    frac = [((x - x0) / ((x1 - x0) or 1.0), (y - y0) / ((y1 - y0) or 1.0)) for x, y in points]
    width, height = axes_inches(ax)
    w_frac = min(1.0, (text_inches(text, size) + 0.1) / max(width, 0.1))
    h_frac = min(0.5, (lines_of(text) * LINE * size / 72.0 + 0.08) / max(height, 0.1))

    def covered(corner):
        ha, va, _, _ = corner
        xs = (1 - w_frac, 1.0) if ha == "right" else (0.0, w_frac)
        ys = (0.0, h_frac) if va == "bottom" else (1 - h_frac, 1.0)
        return sum(1 for fx, fy in frac if xs[0] <= fx <= xs[1] and ys[0] <= fy <= ys[1])
    ha, va, x, y = min(_CORNERS, key=covered)
    return ax.text(x, y, text, transform=ax.transAxes, ha=ha, va=va, fontsize=size,
                   bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "0.8", "alpha": 0.9})


def place(fig):
    """Runs the layout now, so that the axes have the size they will be drawn at (corner_text
    and axes_inches measure them)."""
    fig.get_layout_engine().execute(fig)


def axes_inches(ax):
    """(width, height) of ax in inches, as the layout has placed it so far (see place)."""
    pos = ax.get_position()
    w, h = ax.figure.get_size_inches()
    return pos.width * w, pos.height * h


def save(fig, out_dir, name, fmt):
    """style.save, after fitting the panel titles to their panels."""
    fit_titles(fig)
    return style.save(fig, out_dir, name, fmt)
