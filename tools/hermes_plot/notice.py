"""A figure that says why it has nothing to draw: written in place of accuracy_loss,
iteration_times or chunk_sizes when no run of a valid run directory has the rows that figure
needs (every run diverged or stopped before its first evaluation, say), so that every figure a
run directory promises exists and says what is missing."""

import textwrap

from . import style
from .style import plt


def notice(out_dir, name, fmt, title, message):
    fig = plt.figure(figsize=(style.width(), 2.0))
    fig.text(0.5, 0.72, title, ha="center", va="center", fontsize=style.BODY_PT + 0.5)
    lines = textwrap.wrap(message, int(15 * style.width()))  # about 15 characters an inch
    fig.text(0.5, 0.38, "\n".join(lines), ha="center", va="center", fontsize=style.BODY_PT,
             color="#b2182b")
    return style.save(fig, out_dir, name, fmt)
