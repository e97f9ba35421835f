"""Layout of the sweep figures (sweep_heatmap, sweep_lines, cost_accuracy) at their print width,
style.width(): text measured in the font it is drawn in (_width_pt), wrapped at spaces and never
inside a word, ticks at the values swept that thin out when they would not fit, and the frame of
a figure: panels side by side on a page-wide figure and one under the other in a column
(style.columns), the title wrapped to the width, notes and legends in strips under the panels."""

import numpy as np
from matplotlib import ticker, transforms
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

from . import style

_MEASURE = TextToPath()


def _width_pt(text, pt=style.SMALL_PT):
    """Width in points of one line of `text` at `pt` points (the figures' font)."""
    return _MEASURE.get_text_width_height_descent(text, FontProperties(size=pt), ismath=False)[0]


def _wrap(text, inches, pt=style.SMALL_PT):
    """`text` broken at spaces into lines no wider than `inches` at `pt` points (never inside a
    word); its own newlines are kept."""
    out = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = word if not line else line + " " + word
            if line and _width_pt(trial, pt) > inches * 72.0:
                out.append(line)
                line = word
            else:
                line = trial
        out.append(line)
    return "\n".join(out)


def _lines_height(text, pt=style.SMALL_PT):
    """Inches a block of `text` takes at a line spacing of 1.25, and a little more: its strip
    shrinks with the panels when the layout needs room."""
    return (text.count("\n") + 1) * pt * 1.32 / 72.0 if text else 0.0


def _balanced(text):
    """`text` on two lines of about the same width, broken at a space."""
    words = text.split(" ")
    if len(words) < 2:
        return text
    cut = min(range(1, len(words)), key=lambda n: abs(_width_pt(" ".join(words[:n])) -
                                                       _width_pt(" ".join(words[n:]))))
    return " ".join(words[:cut]) + "\n" + " ".join(words[cut:])


def _axis_inches(stacked, panels=3):
    """About how wide a panel's axes are (inches): the figure's width, or a third of it, less
    its y tick labels and label and, for a heatmap, its colour bar."""
    return style.width() - 1.3 if stacked else style.width() / panels - 0.8


def _value_ticks(axis, positions, texts, inches):
    """Ticks at `positions` labelled `texts`, every k-th label only when they would not fit
    side by side in `inches` (7 pt, 4 pt apart)."""
    need = max(_width_pt(t) for t in texts) + 4.0
    step = max(1, int(np.ceil(len(texts) * need / (inches * 72.0))))
    axis.set_ticks(positions, [t if n % step == 0 else "" for n, t in enumerate(texts)])
    axis.set_minor_locator(ticker.NullLocator())


def _stacked():
    """Whether the three panels of a sweep figure go one under the other: they do unless three
    side by side each get 2.2 in (a page-wide figure, not a column)."""
    return style.columns(3, min_panel=2.2) < 3


TITLE_PT = style.BODY_PT + 0.5  # rcParams' figure.titlesize
_LEFT_IN = 0.06  # the notes' and legends' margin from the figure's edges


def _frame(rows, cols, panel_h, decor_h, title, note, legend_rows=()):
    """A figure at the print width: rows x cols panels of `panel_h` inches (plus `decor_h` for
    each row's titles and tick labels), its title wrapped to the width, then a strip for each
    legend, of the number of rows `legend_rows` gives, and one for the notes, wrapped. Returns
    (figure, gridspec of the panels' rows, the legend strips' axes)."""
    inches = style.width() - 2 * _LEFT_IN
    title = _wrap(title, inches, TITLE_PT)
    note = "\n".join(_wrap(n, inches) for n in note.split("\n")) if note else ""
    strips = [n * style.SMALL_PT * 1.6 / 72.0 + 0.06 for n in legend_rows if n]  # 1.53 a row
    if note:
        strips.append(_lines_height(note))
    fig = style.figure(rows * (panel_h + decor_h) + _lines_height(title, TITLE_PT) +
                       sum(strips) + 0.15)
    fig.suptitle(title, fontsize=TITLE_PT)
    # The strips in a grid of their own: spanning the panels' columns in theirs, they would
    # make constrained layout align every margin across them, narrowing the panels.
    outer = fig.add_gridspec(1 + len(strips), 1,
                             height_ratios=[rows * (panel_h + decor_h)] + strips)
    spec = outer[0].subgridspec(rows, cols)
    axes = [fig.add_subplot(outer[k]) for k in range(1, len(strips) + 1)]
    for ax in axes:
        ax.axis("off")
    if note:
        # From the figure's left edge, not the panels': the strip only reserves the height.
        axes[-1].text(_LEFT_IN / style.width(), 1.0, note, ha="left", va="top",
                      transform=transforms.blended_transform_factory(fig.transFigure,
                                                                     axes[-1].transAxes),
                      fontsize=style.SMALL_PT, linespacing=1.25).set_in_layout(False)
        axes.pop()
    return fig, spec, axes


def _legend(ax, handles, texts, ncol, **kw):
    """The legend in the strip of _frame, from the figure's left edge."""
    kw = dict(dict(handlelength=1.2, columnspacing=1.5), **kw)
    legend = ax.legend(handles, texts, loc="upper left", ncol=ncol, borderaxespad=0,
                       frameon=False,
                       bbox_to_anchor=(_LEFT_IN / style.width(), 1.0),
                       bbox_transform=transforms.blended_transform_factory(
                           ax.figure.transFigure, ax.transAxes), **kw)
    legend.set_in_layout(False)
    return legend
