"""comparison.png: the document of `hermes-sim compare --format json` (compare_json.py) drawn as
dot plots, this simulation beside the paper. Which runs form a configuration, which paper row it
matches and whether its speedup may be shown are decided there, not here; this module only draws.

The layout reads at a column's width (3.5 in) and at the page's (7.16 in):

- a configuration is a row, its label written once at the left of each row of panels, horizontal
  and wrapped at word boundaries; a metric is a panel (three side by side from 6 in up, two from
  3.2 in, else one);
- in each row this simulation's mean is a dot (a horizontal bar through it: the min-max over its
  seeds) and the paper's value a hollow diamond just below it. Dots, not bars: half the metrics
  span orders of magnitude and are drawn on log axes, where a bar's length means nothing, and
  accuracies differ by tenths of a point, which bars from zero hide and bars from 80% misstate;
- a configuration with a run that is not ok, or was stopped by something other than its patience
  (a cap, no events), has a red cross instead of a dot, and its label says what happened in red;
  a paper row no run matched says "not simulated" in grey;
- a withheld speedup has no dot: "withheld [n]" stands in its place and note [n] below the panels
  gives the reason in full; a panel with nothing to draw (every speedup withheld, no paper) is
  left out and the notes say so;
- a scenario that is not the paper's setup gets a red warning above the panels; the paper's
  headline ratios, both sides, are written below them. Every text is wrapped to the width.

The figure is laid out by hand, in points, from the measured sizes of its texts: the row labels
set the width of the label column, every configuration's row is as high as its label needs, and
the figure as high as its rows. More configurations than fit a page (a compare of many runs) make
a taller figure, never smaller text.
"""

import math

from matplotlib import ticker
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.transforms import blended_transform_factory

from . import compare_json, style
from .style import plt

# (title, unit, key in the document's "sim" and "paper", counts)
METRICS = (
    ("Iterations", "updates", "iterations", True),
    ("Training time", "minutes", "training_time_min", False),
    ("Wi_avg", "local iter. per update", "wi_avg", False),
    ("Accuracy", "% (global test)", "accuracy_pct", False),
    ("API calls", "millions", "api_calls_m", False),
    ("Speedup vs BSP", "BSP time / time", "speedup_vs_bsp", False),
)
SPEEDUP = "speedup_vs_bsp"
SIM_COLOUR = "#1f77b4"
PAPER_COLOUR, PAPER_EDGE = "white", "#555555"
ALERT_COLOUR = "#b2182b"
MUTED_COLOUR = "0.4"
NOTE_COLOUR = "0.2"
SHADE_COLOUR = "0.94"

PT = 1 / 72.0  # inches per point
# Vertical room (points) of a line of text at 7 pt and 8 pt: the font size times matplotlib's
# line spacing (1.2), with a little over for descenders.
SMALL_LINE, BODY_LINE = 8.6, 9.8
# A row: its label's lines plus this, at least ROW_MIN (two markers 7 pt apart, a "withheld" text
# on one of them that must not reach the other); without paper values ROW_MIN_ALONE.
ROW_PAD, ROW_MIN, ROW_MIN_ALONE = 4.0, 16.0, 11.0
SUBROW = 3.7  # the simulation's marker this far above the row's centre, the paper's below
# Margins (inches): the figure's edges, between panels (room for the tick labels at the edges of
# two neighbours), and the label column's cap (a share of the width).
EDGE, RIGHT_EDGE, PANEL_GAP = 0.04, 0.14, 0.26
LABEL_SHARE, LABEL_MAX = 0.34, 2.2
Y_LABEL_PAD = 3.0  # points between a row label and its panel
# Below a panel: tick length and pad, then the tick labels (log ticks are 10^k in mathtext,
# taller), then the axis label.
TICKS_BELOW, LOG_TICKS_BELOW = 7.0 + SMALL_LINE, 7.0 + 10.5
TITLE_PAD, XLABEL_PAD, ROW_GAP, BLOCK_GAP = 3.0, 2.0, 9.0, 5.0

_MEASURE = RendererAgg(1, 1, 72)  # at 72 dpi a pixel is a point


def text_inches(text, size):
    """Width (inches) of the widest line of `text` at `size` points, as Agg renders it."""
    prop = FontProperties(size=size)
    return max(_MEASURE.get_text_width_height_descent(line or " ", prop, ismath=False)[0]
               for line in text.split("\n")) * PT


_BREAK_AFTER = ",;=:/_"


def _split_word(word, inches, size):
    """A word wider than `inches` in pieces that fit: broken after a comma, '=', '_' ... where it
    can be, between characters only where it cannot."""
    pieces, rest = [], word
    while text_inches(rest, size) > inches:
        cut = None
        for i in range(len(rest) - 1, 0, -1):
            if rest[i - 1] in _BREAK_AFTER and text_inches(rest[:i], size) <= inches:
                cut = i
                break
        if cut is None:
            cut = 1
            while cut < len(rest) and text_inches(rest[:cut + 1], size) <= inches:
                cut += 1
        pieces.append(rest[:cut])
        rest = rest[cut:]
    return pieces + [rest]


def wrap(text, inches, size=style.SMALL_PT, indent=""):
    """`text` in lines no wider than `inches` at `size` points, broken between words (a word is
    broken only when it alone is wider than a line); a paragraph's later lines start with
    `indent`."""
    out = []
    room = inches - text_inches(indent, size) if indent else inches
    for paragraph in text.split("\n"):
        lines, line = [], ""
        for word in paragraph.split():
            for piece in _split_word(word, room, size):
                if not line:
                    line = (indent if lines else "") + piece
                elif text_inches(line + " " + piece, size) <= inches:
                    line += " " + piece
                else:
                    lines.append(line)
                    line = indent + piece
        out += lines + [line]
    return "\n".join(out)


def status_tag(runs):
    """What the row of a configuration must say about its runs: "" when every run is ok and
    stopped by its patience, else e.g. "diverged", "1/3 diverged", "capped (iterations)". Each
    run's words come from the document ("ending", docs/compare-json.md), not a copy here."""
    tags = [run["ending"] for run in runs if run["ending"] is not None]
    parts = []
    for tag in sorted(set(tags), key=tags.index):
        n = tags.count(tag)
        parts.append(tag if n == len(runs) else "%d/%d %s" % (n, len(runs), tag))
    return ", ".join(parts)


def _sim_value(config, key):
    """(mean, minus, plus) of a metric, NaN when it is missing or withheld."""
    nan = float("nan")
    if config["sim"] is None:  # a paper row no run matched
        return nan, 0.0, 0.0
    stat = config["sim"].get(key)
    if stat is None or (key == SPEEDUP and config["speedup_withheld"] is not None):
        return nan, 0.0, 0.0
    return stat["mean"], max(stat["mean"] - stat["min"], 0.0), max(stat["max"] - stat["mean"], 0.0)


def _paper_value(config, key):
    return config["paper"][key] if config["paper"] is not None else float("nan")


class _Row:
    """A configuration: its label (wrapped, with what happened to its runs) and its colour."""

    def __init__(self, config, inches):
        self.config = config
        self.tag = status_tag(config["runs"])
        label = wrap(config["label"], inches)
        if config["sim"] is None:
            label += "\n" + wrap("not simulated", inches)
            self.colour = MUTED_COLOUR
        elif self.tag:
            label += "\n" + wrap(self.tag, inches)
            self.colour = ALERT_COLOUR
        else:
            self.colour = "black"
        self.label = label
        self.lines = label.count("\n") + 1


def _withheld_notes(configs):
    """{configuration index: note number} for the withheld speedups, and the notes' texts (one
    per distinct reason, numbered in row order)."""
    reasons, numbers = [], {}
    for i, c in enumerate(configs):
        if c["sim"] is not None and c["speedup_withheld"] is not None:
            if c["speedup_withheld"] not in reasons:
                reasons.append(c["speedup_withheld"])
            numbers[i] = reasons.index(c["speedup_withheld"]) + 1
    return numbers, reasons


def _limits(values, lows, highs, key):
    """(scale, low, high) of a panel's value axis. Log when positive values span more than 30x
    (API calls without polling: thousands beside the paper's millions); accuracy spans its values
    (a dot's place, unlike a bar's length, needs no zero); the others start at zero."""
    finite = [(v, lo, hi) for v, lo, hi in zip(values, lows, highs) if v == v]
    low = min(v - lo for v, lo, _ in finite)
    high = max(v + hi for v, _, hi in finite)
    if low > 0 and high / low > 30 and key != "accuracy_pct":
        return "log", low / 2.5, high * 2.5
    if key == "accuracy_pct":  # past 100 if need be: a dot at the edge would be cut in half
        margin = max(0.8, 0.1 * (high - low))
        return "linear", max(0.0, low - margin), high + margin
    if high <= 0:  # nothing but zeros (no API calls at all, say): still an axis from zero
        return "linear", low * 1.12, 0.0 if low < 0 else 1.0
    return "linear", min(0.0, low * 1.12), high * 1.12


class _Panel:
    def __init__(self, metric, configs):
        self.title, self.unit, self.key, self.counts = metric
        self.sim, self.minus, self.plus = [], [], []
        for c in configs:
            mean, minus, plus = _sim_value(c, self.key)
            self.sim.append(mean)
            self.minus.append(minus)
            self.plus.append(plus)
        self.paper = [_paper_value(c, self.key) for c in configs]
        zeros = [0.0] * len(configs)
        values = self.sim + self.paper
        self.empty = all(v != v for v in values)
        if not self.empty:
            self.scale, self.low, self.high = _limits(values, self.minus + zeros,
                                                      self.plus + zeros, self.key)

    def xlabel(self):
        return self.unit + (" (log)" if self.scale == "log" else "")


def _seed_text(configs):
    seeds = sorted({len(c["runs"]) for c in configs if c["runs"]})
    if seeds in ([], [1]):
        return "one run each"
    return "mean of %s runs (seeds), bar: min-max" % "/".join(str(s) for s in seeds)


def _legend_entries(configs, has_paper):
    entries = [(Line2D([], [], ls="none", marker="o", color=SIM_COLOUR),
                "this simulation: " + _seed_text(configs))]
    if has_paper:
        entries.append((Line2D([], [], ls="none", marker="D", mfc=PAPER_COLOUR, mec=PAPER_EDGE),
                        "paper"))
    if any(status_tag(c["runs"]) for c in configs):
        entries.append((Line2D([], [], ls="none", marker="X", color=ALERT_COLOUR),
                        "run not ok or capped (see its label)"))
    return entries


def _legend_columns(labels, inches):
    """How many legend entries fit side by side in `inches`, read row by row (a handle and its
    gaps: about 3.7 em each at 7 pt)."""
    widths = [text_inches(label, style.SMALL_PT) + 3.7 * style.SMALL_PT * PT for label in labels]
    for ncol in range(len(labels), 1, -1):
        if sum(max(widths[k::ncol]) for k in range(ncol)) <= inches:
            return ncol
    return 1


def _row_major(items, ncol):
    """`items` in the order a legend of `ncol` columns takes them (column after column) for them
    to read row after row."""
    rows = math.ceil(len(items) / ncol)
    order = sorted(range(len(items)), key=lambda j: (j % ncol) * rows + j // ncol)
    return [items[j] for j in order]


def _footer(doc):
    """The paper's headline ratios from both sides, one line each."""
    lines = []
    for h in doc["headlines"]:
        sim = h["sim"] if h["sim"] is not None else "withheld" if h["withheld"] else "n/a"
        line = "%s: this simulation %s" % (h["name"], sim)
        if h["paper"] is not None:
            line += ", paper %s" % h["paper"]
        if h["withheld"]:
            line += " (%s)" % h["withheld"]
        lines.append(line)
    return lines


def _value_axis(ax, panel, inches):
    ax.set_xscale(panel.scale)
    ax.set_xlim(panel.low, panel.high)
    if panel.scale == "log":
        # At most a tick every 0.3 in: decades are skipped rather than their labels crowded.
        ax.xaxis.set_major_locator(ticker.LogLocator(base=10, numticks=max(2, int(inches / 0.3))))
        ax.xaxis.set_minor_locator(ticker.LogLocator(base=10, subs="auto", numticks=12))
        ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    else:
        ax.xaxis.set_major_locator(ticker.MaxNLocator(nbins=max(3, int(inches / 0.3)),
                                                      integer=panel.counts))


def _draw_panel(ax, panel, rows, centres, bounds, has_paper, notes, inches):
    offset = SUBROW if has_paper else 0.0
    sim_y = [y - offset for y in centres]
    paper_y = [y + offset for y in centres]
    for i, (top, bottom) in enumerate(bounds):
        if i % 2:  # every other row shaded, so that a row's two markers read as one
            ax.axhspan(top, bottom, color=SHADE_COLOUR, lw=0, zorder=0)
    tagged = [bool(r.tag) for r in rows]
    ok = [v if not t else float("nan") for v, t in zip(panel.sim, tagged)]
    alert = [v if t else float("nan") for v, t in zip(panel.sim, tagged)]
    for alerting, colour in ((False, SIM_COLOUR), (True, ALERT_COLOUR)):
        spread = [i for i, v in enumerate(panel.sim)
                  if v == v and tagged[i] == alerting and (panel.minus[i] or panel.plus[i])]
        if spread:
            ax.errorbar([panel.sim[i] for i in spread], [sim_y[i] for i in spread],
                        xerr=[[panel.minus[i] for i in spread], [panel.plus[i] for i in spread]],
                        fmt="none", ecolor=colour, elinewidth=0.9, capsize=2.0, capthick=0.9,
                        zorder=3, gid="sim-range")
    ax.plot(ok, sim_y, ls="none", marker="o", color=SIM_COLOUR, zorder=4, gid="sim")
    ax.plot(alert, sim_y, ls="none", marker="X", markersize=5, color=ALERT_COLOUR, zorder=4,
            gid="sim-tagged")
    if has_paper:
        ax.plot(panel.paper, paper_y, ls="none", marker="D", markersize=3.6, mfc=PAPER_COLOUR,
                mec=PAPER_EDGE, mew=0.9, zorder=4, gid="paper")
    if panel.key == SPEEDUP:
        if panel.low < 1 < panel.high:
            ax.axvline(1.0, color="0.45", lw=0.7, ls=":", zorder=1)
        here = blended_transform_factory(ax.transAxes, ax.transData)
        for i, number in notes.items():
            # On the row's own background, so that the line at 1x does not strike it through.
            ax.text(0.03, sim_y[i], "withheld [%d]" % number, transform=here, ha="left",
                    va="center", fontsize=style.SMALL_PT, color=ALERT_COLOUR, zorder=5,
                    gid="withheld", bbox={"fc": SHADE_COLOUR if i % 2 else "white", "ec": "none",
                                          "pad": 0.4})
    _value_axis(ax, panel, inches)
    ax.set_ylim(bounds[-1][1], 0)  # the first configuration on top
    ax.grid(axis="y", visible=False)
    ax.tick_params(axis="y", length=0, pad=Y_LABEL_PAD)


def draw(doc):
    """The comparison figure of a checked document (compare_json.check_document); None when it
    has no configuration."""
    configs = doc["configurations"]
    if not configs:
        return None
    has_paper = any(c["paper"] is not None for c in configs)
    width = style.width()
    text_width = width - 2 * EDGE

    # The rows, as high as their labels; data units of the row axis are points.
    label_cap = min(LABEL_MAX, LABEL_SHARE * width)
    rows = [_Row(c, label_cap) for c in configs]
    label_width = max(text_inches(r.label, style.SMALL_PT) for r in rows) + Y_LABEL_PAD * PT
    row_min = ROW_MIN if has_paper else ROW_MIN_ALONE
    bounds, top = [], 0.0
    for r in rows:
        height = max(row_min, r.lines * SMALL_LINE + ROW_PAD)
        bounds.append((top, top + height))
        top += height
    centres = [(a + b) / 2 for a, b in bounds]
    rows_pt = top

    numbers, reasons = _withheld_notes(configs)
    panels = [_Panel(m, configs) for m in METRICS]
    dropped = [p for p in panels if p.empty]
    panels = [p for p in panels if not p.empty]
    cols = 3 if width >= 6.0 else 2 if width >= 3.2 else 1
    cols = min(cols, len(panels))
    panel_w = (width - EDGE - label_width - RIGHT_EDGE - (cols - 1) * PANEL_GAP) / cols

    # The texts above and below the panels, wrapped to the width.
    if doc["reference"] is None:
        heading = "This simulation (no paper table for dataset %s)" % (doc["dataset"] or "?")
    else:
        heading = "This simulation beside the paper (time: paper wall-clock, ours simulated)"
    heading = wrap(heading, text_width, style.BODY_PT)
    warning = compare_json.setup_warning(doc)
    warning = wrap("WARNING: " + warning, text_width) if warning else ""
    entries = _legend_entries(configs, has_paper)
    ncol = _legend_columns([label for _, label in entries], text_width)
    legend_rows = math.ceil(len(entries) / ncol)
    notes = [wrap("%s: not drawn, no configuration has one" % p.title, text_width)
             for p in dropped if p.key != SPEEDUP or not reasons]
    if reasons:
        # Every speedup withheld and no paper value: no panel, only the reasons.
        notes.append("Speedup vs BSP withheld%s:" % (
            " for every configuration, not drawn" if any(p.key == SPEEDUP for p in dropped)
            else ""))
        notes += [wrap("[%d] %s" % (n + 1, why), text_width, indent="    ")
                  for n, why in enumerate(reasons)]
    headlines = [wrap(line, text_width, indent="    ") for line in _footer(doc)]
    notes_text = "\n".join(notes)
    headline_text = "\n".join(headlines)

    # The panels' titles and axis labels, wrapped to a panel's width; a row of panels takes the
    # most lines of its panels.
    titles = [wrap(p.title, panel_w, style.BODY_PT) for p in panels]
    xlabels = [wrap(p.xlabel(), panel_w, style.BODY_PT) for p in panels]
    grid = [list(range(i, min(i + cols, len(panels)))) for i in range(0, len(panels), cols)]

    def lines(text):
        return text.count("\n") + 1 if text else 0

    # Heights, in points, from the top.
    y = EDGE / PT
    places = {"heading": y}
    y += lines(heading) * BODY_LINE + BLOCK_GAP
    if warning:
        places["warning"] = y
        y += lines(warning) * SMALL_LINE + BLOCK_GAP
    places["legend"] = y
    y += legend_rows * SMALL_LINE * 1.3 + BLOCK_GAP
    panel_tops = []
    for members in grid:
        title_h = max(lines(titles[i]) for i in members) * BODY_LINE + TITLE_PAD
        below = max(LOG_TICKS_BELOW if panels[i].scale == "log" else TICKS_BELOW
                    for i in members)
        xlabel_h = max(lines(xlabels[i]) for i in members) * BODY_LINE + XLABEL_PAD
        panel_tops.append(y + title_h)
        y += title_h + rows_pt + below + xlabel_h + ROW_GAP
    y += BLOCK_GAP - ROW_GAP
    if notes_text:
        places["notes"] = y
        y += lines(notes_text) * SMALL_LINE + BLOCK_GAP
    if headline_text:
        places["headlines"] = y
        y += lines(headline_text) * SMALL_LINE
    height = y * PT + EDGE

    fig = plt.figure(figsize=(width, height))
    fig.set_layout_engine("none")  # placed by hand above; the layout engine would move it

    def fy(points):  # a height from the top in points, as a figure fraction from the bottom
        return 1.0 - points * PT / height

    def fx(inches):
        return inches / width

    fig.suptitle(heading, x=fx(EDGE), y=fy(places["heading"]), ha="left", va="top",
                 fontsize=style.BODY_PT, multialignment="left")
    if warning:
        fig.text(fx(EDGE), fy(places["warning"]), warning, ha="left", va="top",
                 fontsize=style.SMALL_PT, color=ALERT_COLOUR, gid="warning")
    entries = _row_major(entries, ncol)
    fig.legend([h for h, _ in entries], [label for _, label in entries], loc="upper left",
               bbox_to_anchor=(fx(EDGE), fy(places["legend"])), ncol=ncol, frameon=False,
               borderaxespad=0, borderpad=0, handlelength=1.2, handletextpad=0.5,
               columnspacing=1.5, fontsize=style.SMALL_PT)
    for members, ptop in zip(grid, panel_tops):
        first = None
        for k, i in enumerate(members):
            left = EDGE + label_width + k * (panel_w + PANEL_GAP)
            ax = fig.add_axes([fx(left), fy(ptop + rows_pt), fx(panel_w), rows_pt * PT / height],
                              sharey=first)
            first = first or ax
            _draw_panel(ax, panels[i], rows, centres, bounds, has_paper,
                        numbers if panels[i].key == SPEEDUP else {}, panel_w)
            ax.set_title(titles[i], fontsize=style.BODY_PT, pad=TITLE_PAD)
            ax.set_xlabel(xlabels[i], fontsize=style.BODY_PT, labelpad=XLABEL_PAD)
            ax.set_yticks(centres)
            if k == 0:
                ax.set_yticklabels([r.label for r in rows], fontsize=style.SMALL_PT,
                                   linespacing=1.2)
                for text, r in zip(ax.get_yticklabels(), rows):
                    text.set_color(r.colour)
            else:
                ax.tick_params(axis="y", labelleft=False)
    if notes_text:
        fig.text(fx(EDGE), fy(places["notes"]), notes_text, ha="left", va="top",
                 fontsize=style.SMALL_PT, color=ALERT_COLOUR if reasons else NOTE_COLOUR,
                 gid="notes")
    if headline_text:
        fig.text(fx(EDGE), fy(places["headlines"]), headline_text, ha="left", va="top",
                 fontsize=style.SMALL_PT, color=NOTE_COLOUR, gid="headlines")
    return fig


def comparison(doc, out_dir, fmt):
    fig = draw(doc)
    return None if fig is None else style.save(fig, out_dir, "comparison", fmt)
