"""comparison.png: the document of `hermes-sim compare --format json` (compare_json.py) as grouped
bars, this simulation beside the paper. Which runs form a configuration, which paper row it
matches and whether its speedup may be shown are decided there, not here; this module only draws:

- a bar per configuration and metric (its seeds' mean, their min-max as an error bar), the paper's
  value beside it when the configuration matched a paper row;
- a configuration with a run that is not ok, or was stopped by something other than its patience
  (a cap, no events), gets a hatched bar tagged with what happened;
- a withheld speedup gets no bar: the reason is written in its place;
- a scenario that is not the paper's setup gets a warning above the panels.
"""

import textwrap

from . import compare_json, style
from .style import plt

# (title, axis label, key in the document's "sim" and "paper", label format, counts)
METRICS = (
    ("Iterations", "iterations (updates)", "iterations", "%.0f", True),
    ("Training time", "time (min)", "training_time_min", "%.1f", False),
    ("Wi_avg", "average local iterations per update", "wi_avg", "%.2f", False),
    ("Accuracy", "global test accuracy (%)", "accuracy_pct", "%.1f", False),
    ("API calls", "API calls (millions)", "api_calls_m", "%.3g", False),
    ("Speedup", "speedup vs BSP (x)", "speedup_vs_bsp", "%.2f", False),
)
LABEL_CHARS = 13  # x labels wrap at this width, a word longer than it at LONG_WORD
LONG_WORD = 20
LABEL_FONT = 7
NORMAL_STOP = "patience"
# Bar tags of the other stop reasons, short enough for a bar's width.
STOP_TAGS = {"max_iterations": "capped:\niterations", "max_sim_time": "capped:\nsim time",
             "no_events": "no events", "diverged": "diverged"}
SIM_COLOUR = "#1f77b4"
PAPER_COLOUR, PAPER_EDGE = "#bbbbbb", "#555555"
ALERT_COLOUR = "#b2182b"


def wrap_label(label):
    lines = []
    for line in textwrap.wrap(label, LABEL_CHARS, break_long_words=False):
        lines += [line[i:i + LONG_WORD] for i in range(0, len(line), LONG_WORD)]
    return "\n".join(lines)


def slot_inches(labels):
    """The width each configuration gets: room for its widest label line (0.62 em: the mean
    character width of DejaVu Sans), so that wrapped labels never overlap."""
    chars = max([LABEL_CHARS] + [len(line) for label in labels for line in label.split("\n")])
    return chars * 0.62 * LABEL_FONT / 72 + 0.2


def status_tag(runs):
    """What the bar of a configuration must say about its runs: "" when every run is ok and
    stopped by its patience, else e.g. "diverged", "1/3 diverged", "capped:\niterations"."""
    tags = []
    for run in runs:
        if run["status"] != "ok":
            tags.append(run["status"])
        elif run["stop_reason"] != NORMAL_STOP:
            tags.append(STOP_TAGS.get(run["stop_reason"], "stop:\n" + run["stop_reason"]))
    parts = []
    for tag in sorted(set(tags), key=tags.index):
        n = tags.count(tag)
        parts.append(tag if n == len(runs) else "%d/%d %s" % (n, len(runs), tag))
    return "\n".join(parts)


def _sim_value(config, key):
    """(mean, minus, plus) of a metric, NaN when it is missing or withheld."""
    if config["sim"] is None:  # a paper row no run matched
        return float("nan"), 0.0, 0.0
    stat = config["sim"].get(key)
    if stat is None or (key == "speedup_vs_bsp" and config["speedup_withheld"] is not None):
        return float("nan"), 0.0, 0.0
    return stat["mean"], max(stat["mean"] - stat["min"], 0.0), max(stat["max"] - stat["mean"], 0.0)


def _scale(ax, title, ylabel, values):
    finite = [v for v in values if v == v]
    if not finite:
        return
    if title == "Accuracy":
        # Accuracies differ by tenths of a point: start the axis a little below the lowest bar.
        ax.set_ylim(max(0.0, 5 * ((min(finite) - 2) // 5)), 100)
    elif min(finite) > 0 and max(finite) / min(finite) > 30:
        # E.g. API calls without polling: thousands beside the paper's millions.
        ax.set_yscale("log")
        ax.set_ylim(min(finite) / 2, max(finite) * 4)
        ax.set_ylabel(ylabel + ", log scale")
    else:
        ax.set_ylim(0, 1.18 * max(finite))


def _withheld_text(ax, x, reason):
    """The reason a speedup is withheld, upright along the empty bar's place."""
    ax.text(x, 0.03, textwrap.fill(reason, 30), transform=ax.get_xaxis_transform(),
            rotation=90, ha="center", va="bottom", fontsize=style.SMALL_PT, color=ALERT_COLOUR,
            linespacing=1.1)


def _panel(ax, configs, metric, width, has_paper):
    title, ylabel, key, fmt, counts = metric
    xs = range(len(configs))
    sim, lo, hi, paper = [], [], [], []
    for c in configs:
        mean, minus, plus = _sim_value(c, key)
        sim.append(mean)
        lo.append(minus)
        hi.append(plus)
        paper.append(c["paper"][key] if c["paper"] is not None else float("nan"))
    # A configuration without a paper value gets one centred bar.
    at = [x - width / 2 if p == p else x for x, p in zip(xs, paper)]
    tags = [status_tag(c["runs"]) for c in configs]
    errors = (lo, hi) if any(lo) or any(hi) else None
    bars = ax.bar(at, sim, width, color=SIM_COLOUR, yerr=errors, capsize=3,
                  error_kw={"lw": 0.8})
    for bar, tag in zip(bars, tags):
        if tag:
            bar.set_hatch("xx")
            bar.set_edgecolor(ALERT_COLOUR)
    texts = ax.bar_label(bars, labels=["" if v != v else fmt % v + ("\n" + t if t else "")
                                       for v, t in zip(sim, tags)], fontsize=style.SMALL_PT, padding=2)
    for text, tag in zip(texts, tags):
        if tag:
            text.set_color(ALERT_COLOUR)
    if has_paper:
        ref = ax.bar([x + width / 2 for x in xs], paper, width, color=PAPER_COLOUR,
                     edgecolor=PAPER_EDGE, hatch="//", lw=0.5)
        ax.bar_label(ref, labels=["" if v != v else fmt % v for v in paper], fontsize=style.SMALL_PT,
                     padding=2)
    for x, c in zip(at, configs):
        if c["sim"] is None:
            ax.text(x, 0.03, "not simulated", transform=ax.get_xaxis_transform(),
                    rotation=90, ha="center", va="bottom", fontsize=style.SMALL_PT, color="0.35")
    if key == "speedup_vs_bsp":
        for x, c in zip(at, configs):
            if c["speedup_withheld"] is not None:
                _withheld_text(ax, x, "no speedup: " + c["speedup_withheld"])
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.grid(axis="x", visible=False)
    _scale(ax, title, ylabel, sim + paper)
    if counts and ax.get_yscale() == "linear":
        style.integer_ticks(ax.yaxis)


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
    return "\n".join(lines)


def _legend(ax, configs, has_paper):
    """Handles of its own: a bar container's legend entry looks like its first bar, which may be
    a tagged one."""
    handles = [plt.Rectangle((0, 0), 1, 1, fc=SIM_COLOUR)]
    labels = ["this simulation"]
    if has_paper:
        handles.append(plt.Rectangle((0, 0), 1, 1, fc=PAPER_COLOUR, ec=PAPER_EDGE, hatch="//"))
        labels.append("paper")
    if any(status_tag(c["runs"]) for c in configs):
        handles.append(plt.Rectangle((0, 0), 1, 1, fc=SIM_COLOUR, ec=ALERT_COLOUR, hatch="xx"))
        labels.append("a run not ok, or stopped\nby other than its patience")
    ax.legend(handles, labels, loc="upper left", fontsize=style.SMALL_PT)


def _seed_text(configs):
    seeds = sorted({len(c["runs"]) for c in configs if c["runs"]})
    if seeds == [1]:
        return "one run each"
    return "mean of %s runs (seeds), bar: min-max" % "/".join(str(s) for s in seeds)


def draw(doc):
    """The comparison figure of a checked document (compare_json.check_document); None when it
    has no configuration."""
    configs = doc["configurations"]
    if not configs:
        return None
    has_paper = any(c["paper"] is not None for c in configs)
    labels = [wrap_label(c["label"]) for c in configs]
    cols = 2
    fig, axes = plt.subplots(
        3, cols, sharex=True,
        figsize=(style.width(), 9.0))
    width = 0.38 if has_paper else 0.6
    for ax, metric in zip(axes.flat, METRICS):
        _panel(ax, configs, metric, width, has_paper)
    for ax in axes[-1]:
        ax.set_xticks(range(len(configs)), labels, fontsize=LABEL_FONT)
    _legend(axes.flat[0], configs, has_paper)
    if doc["reference"] is None:
        against = "(no paper table for dataset %s)" % (doc["dataset"] or "?")
    else:
        against = "beside the paper (time: paper wall-clock, ours simulated)"
    missing = [c["label"] for c in configs if c["sim"] is None]
    title = "This simulation %s; %s" % (against, _seed_text(configs))
    if missing:
        title += "\nnot simulated (paper only): " + ", ".join(missing)
    warning = compare_json.setup_warning(doc)
    if warning:
        # Wrapped to the figure's width: about 11 characters of 10 pt text per inch.
        title += "\n" + textwrap.fill("WARNING: " + warning, int(11 * fig.get_figwidth()))
    heading = fig.suptitle(title, fontsize=style.BODY_PT)
    if warning:
        heading.set_color(ALERT_COLOUR)
    footer = _footer(doc)
    if footer:  # a supxlabel, so that the layout makes room for it below the x labels
        fig.supxlabel(footer, fontsize=style.SMALL_PT, multialignment="left", color="0.25")
    return fig


def comparison(doc, out_dir, fmt):
    fig = draw(doc)
    return None if fig is None else style.save(fig, out_dir, "comparison", fmt)
