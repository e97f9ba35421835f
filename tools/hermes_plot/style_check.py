"""What a reviewer would circle in a figure, checked on the figure itself: its width against the
print width it was drawn for, text under MIN_FONT_PT, text boxes that overlap or leave the figure,
and (on its PDF) fonts other than TrueType. Used by the style test (tests/tools/plot_style_test.py)
and from the command line on any run, demo or sweep directory:

    /usr/bin/python3 -m hermes_plot.style_check DIR [--width single|double|INCHES] [tools/plot options]

(from tools/, or with tools/ on PYTHONPATH) draws every figure of DIR as `tools/plot DIR` would,
into a temporary directory, and prints each problem; exit 1 if there is one."""

import io
import itertools
import re
import sys

from . import style
from .style import plt

# Overlaps smaller than this (in points, both ways) are anti-aliasing, not a collision.
TOLERANCE_PT = 0.5
# A text box may reach this far past the figure's edge (points) before it counts as cut off.
EDGE_PT = 0.5


def _texts(fig):
    """Every visible, non-empty Text of the figure (titles, labels, tick labels, legends,
    annotations, bar labels) that is drawn, with the box it covers in display units."""
    renderer = fig.canvas.get_renderer()
    hidden = _undrawn_ticklabels(fig)
    out = []
    for t in fig.findobj(lambda a: isinstance(a, plt.Text)):
        if not t.get_visible() or not t.get_text().strip() or id(t) in hidden:
            continue
        if t.axes is not None and not t.axes.get_visible():
            continue
        box = t.get_window_extent(renderer)
        if box.width > 0 and box.height > 0:
            out.append((t, box))
    return out


def _undrawn_ticklabels(fig):
    """Tick labels matplotlib keeps but does not draw: those of an invisible axis and those of
    ticks outside the view limits."""
    out = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            slack = 1e-9 * max(abs(low), abs(high), 1e-300)
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not axis.get_visible() or not low - slack <= tick.get_loc() <= high + slack:
                    out.update((id(tick.label1), id(tick.label2)))
    return out


def _describe(t):
    text = " ".join(t.get_text().split())
    return "'%s'" % (text if len(text) <= 40 else text[:37] + "...")


def check_figure(fig, name, inches=None):
    """The problems of a drawn figure (an empty list when none): its width against `inches` (the
    print width; default style.width()), fonts under style.MIN_FONT_PT, overlapping text boxes,
    text outside the figure."""
    inches = style.width() if inches is None else inches
    problems = []
    w, h = fig.get_size_inches()
    if abs(w - inches) > 0.01:
        problems.append("%s: %.2f in wide, not the print width %.2f in" % (name, w, inches))
    fig.canvas.draw()  # the layout engine places everything
    points = fig.dpi / 72.0  # display units per point
    texts = _texts(fig)
    fig_box = fig.bbox
    for t, box in texts:
        if t.get_fontsize() < style.MIN_FONT_PT - 1e-9:
            problems.append("%s: %s at %.1f pt (below %g pt at print size)"
                            % (name, _describe(t), t.get_fontsize(), style.MIN_FONT_PT))
        edge = EDGE_PT * points
        if (box.x0 < fig_box.x0 - edge or box.y0 < fig_box.y0 - edge or
                box.x1 > fig_box.x1 + edge or box.y1 > fig_box.y1 + edge):
            problems.append("%s: %s reaches outside the figure" % (name, _describe(t)))
    tol = TOLERANCE_PT * points
    for (a, ba), (b, bb) in itertools.combinations(texts, 2):
        if _overlap(ba, bb, tol):
            problems.append("%s: %s overlaps %s" % (name, _describe(a), _describe(b)))
    # A legend inside an axes covers what lies under it: the texts of others, and bars.
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None or not legend.get_visible() or not ax.get_visible():
            continue
        box = legend.get_window_extent(renderer)
        own = {id(t) for t in legend.get_texts()}
        if legend.get_title().get_text():
            own.add(id(legend.get_title()))
        for t, bt in texts:
            if id(t) not in own and _overlap(box, bt, tol):
                problems.append("%s: the legend of %s covers %s"
                                % (name, _axes_name(ax), _describe(t)))
        for patch in ax.patches:
            if isinstance(patch, plt.Rectangle) and patch.get_visible() and \
                    _overlap(box, patch.get_window_extent(renderer), tol):
                problems.append("%s: the legend of %s covers a bar" % (name, _axes_name(ax)))
                break
    return problems


def _overlap(a, b, tol):
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > tol and
            min(a.y1, b.y1) - max(a.y0, b.y0) > tol)


def _axes_name(ax):
    return "'%s'" % ax.get_title() if ax.get_title() else "a panel"


def pdf_font_problems(fig, name):
    """The fonts of the figure's PDF that are not TrueType (Type 3 above all: ACM TAPS rejects
    them, IEEE PDF eXpress flags them), and a PDF without embedded TrueType fonts."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="pdf")
    pdf = buffer.getvalue()
    problems = []
    subtypes = set(re.findall(rb"/Subtype\s*/(Type3|Type1|TrueType|Type0|CIDFontType0|"
                              rb"CIDFontType2|MMType1)\b", pdf))
    bad = subtypes - {b"TrueType", b"Type0", b"CIDFontType2"}
    if bad:
        problems.append("%s: PDF fonts of type %s (only TrueType is accepted)"
                        % (name, ", ".join(sorted(s.decode() for s in bad))))
    if b"/FontFile2" not in pdf:
        problems.append("%s: PDF embeds no TrueType font program" % name)
    return problems


class Collector:
    """Replaces style.save while it is active: every figure is checked before it is written."""

    def __init__(self, pdf=True):
        self.problems, self.names, self.pdf = [], [], pdf

    def __enter__(self):
        self._save = style.save

        def save(fig, out_dir, name, fmt):
            self.names.append(name)
            self.problems.extend(check_figure(fig, name))
            if self.pdf:
                self.problems.extend(pdf_font_problems(fig, name))
            return self._save(fig, out_dir, name, fmt)
        style.save = save
        return self

    def __exit__(self, *exc):
        style.save = self._save
        return False


def main(argv):
    import tempfile
    from . import cli
    with tempfile.TemporaryDirectory(prefix="style_check-") as out, Collector() as c:
        status = cli.main(argv + ["--out", out])
    if status != 0:
        return status
    for p in c.problems:
        print(p)
    print("%d figures at %.2f in, %d problems" % (len(c.names), style.width(), len(c.problems)))
    return 1 if c.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
