#!/usr/bin/python3
"""ctest plot_style: every figure tools/plot draws, at each print width (one column, 3.5 in; the
page, 7.16 in; and 5 in), is as wide as that width, has no text under 7 pt, no text boxes that
overlap or leave the figure, no legend over a bar or another text, and only TrueType fonts in its
PDF (hermes_plot.style_check). The inputs are the synthetic run, sweep and demo directories of
plot_fixtures.py, and comparison documents with the shapes a reviewer sees: the paper's seven
rows, a partial paper set, diverged and capped runs with withheld speedups, a scenario that is not
the paper's setup, and a dataset without a paper table."""

import os
import unittest

import plot_fixtures as fx  # exits 77 (skip) without matplotlib and numpy

from hermes_plot import cli, style, style_check  # noqa: E402

WIDTHS = ("single", "double", "5")


def _documents():
    """Comparison documents by name."""
    paper = fx.paper_rows()
    reason = "diverged: loss 0.36 at the end, 3.1x its best"
    mixed = [
        fx.configuration(p["framework"], p["protocol"], [(p["framework"].lower(), "ok",
                                                          "patience")],
                         time_min=p["training_time_min"] / 10, accuracy=p["accuracy_pct"],
                         speedup=p["speedup_vs_bsp"], paper=p) for p in paper]
    for i in (1, 2, 3):  # ASP, SSP, E-BSP diverge: tagged bars, withheld speedups
        mixed[i] = fx.configuration(paper[i]["framework"], paper[i]["protocol"],
                                    [("r%d" % i, "diverged", "diverged", "diverged")], accuracy=11.4,
                                    withheld=reason, paper=paper[i])
    partial = [fx.configuration(paper[0]["framework"], "bsp", [("bsp", "ok", "patience")],
                                paper=paper[0]),
               fx.configuration("Hermes (alpha=-1.3)", "hermes",
                                [("hermes-1.3", "ok", "max_iterations",
                                  "capped (iterations)")], paper=paper[5])]
    for p in paper[1:5] + paper[6:]:
        c = fx.configuration(p["framework"], p["protocol"], [], paper=p)
        c["sim"], c["speedup_withheld"] = None, None
        partial.append(c)
    cifar = [fx.configuration("BSP", "bsp", [("bsp", "ok", "patience")] * 3, speedup=1.0),
             fx.configuration("Hermes (alpha=-1.3, beta=0.05, variant=paper)", "hermes",
                              [("h", "ok", "patience")] * 3, speedup=3.1)]
    return {
        "paper": fx.paper_document(),
        "diverged": fx.document(mixed),
        "partial": fx.document(partial, differences=[
            {"pointer": "/cluster/workers/0/count", "run": 2, "paper": 4},
            {"pointer": "/cluster/workers/1/profile", "run": "F4s_v2", "paper": "DS2_v2"},
            {"pointer": "/cluster/workers/2", "run": None,
             "paper": {"profile": "F4s_v2", "count": 4, "pricing": "pay-as-you-go"}}]),
        "cifar": fx.document(cifar, reference=None, dataset="cifar10"),
    }


class FiguresAtPrintSize(fx.TempDirTest):
    def draw(self, directory, *extra):
        """Every figure of `directory` at every width: the problems style_check finds. The PDF's
        fonts are checked at the first width only: the words are the same at every width (only
        their wrapping differs), and a PDF costs 40% of this test's time."""
        problems = []
        for width in WIDTHS:
            out = os.path.join(self.dir, "out-" + width)
            with style_check.Collector(pdf=width == WIDTHS[0]) as c:
                status = cli.main([directory, "--out", out, "--width", width] + list(extra))
            self.assertEqual(status, 0, "tools/plot %s --width %s" % (directory, width))
            self.assertTrue(c.names, "no figure drawn of %s" % directory)
            problems += ["--width %s: %s" % (width, p) for p in c.problems]
        return problems

    def assertClean(self, problems):
        self.assertEqual(problems, [], "\n" + "\n".join(problems))

    def test_run_figures_with_each_comparison_shape(self):
        run = os.path.join(self.dir, "run")
        fx.write_run_dir(run, runs=fx.RUNS + [
            fx.Run("ssp", "ssp", status="diverged", stop_reason="diverged", accuracy=0.5,
                   diverge_at=8)])
        problems = []
        for name, doc in _documents().items():
            binary = fx.fake_hermes_sim(os.path.join(self.dir, "bin-" + name), doc)
            problems += ["%s document: %s" % (name, p)
                         for p in self.draw(run, "--hermes-sim", binary)]
        self.assertClean(problems)

    def test_sweep_figures_over_one_and_two_keys(self):
        problems = []
        for name, grid in (("one", [("runs.hermes.alpha", ["-1.6", "-1.3", "-1.0", "-0.7"])]),
                           ("two", [("runs.hermes.alpha", ["-1.6", "-1.3", "-1.0"]),
                                    ("runs.hermes.beta", ["0.05", "0.1", "0.15"])])):
            sweep = os.path.join(self.dir, "sweep-" + name)
            fx.write_sweep_dir(sweep, grid)
            problems += self.draw(sweep)
        self.assertClean(problems)

    def test_demo_figures(self):
        demo = os.path.join(self.dir, "demo")
        fx.write_demo_dir(demo)
        self.assertClean(self.draw(demo))


class TheCheckItself(unittest.TestCase):
    """style_check finds what it is there to find."""

    def test_it_finds_small_fonts_overlaps_a_wrong_width_and_type3_fonts(self):
        style.set_width(3.5)
        fig = style.figure(2.0)
        ax = fig.add_subplot()
        ax.text(0.5, 0.5, "tiny", fontsize=5)
        ax.text(0.2, 0.2, "one label", fontsize=8)
        ax.text(0.2, 0.2, "another", fontsize=8)
        problems = style_check.check_figure(fig, "f", inches=3.5)
        self.assertTrue(any("'tiny' at 5.0 pt" in p for p in problems), problems)
        self.assertTrue(any("'one label' overlaps 'another'" in p for p in problems), problems)
        self.assertTrue(any("not the print width" in p
                            for p in style_check.check_figure(fig, "f", inches=7.16)))
        with style.plt.rc_context({"pdf.fonttype": 3}):
            self.assertTrue(any("Type3" in p for p in style_check.pdf_font_problems(fig, "f")))
        self.assertEqual(style_check.pdf_font_problems(fig, "f"), [])
        style.plt.close(fig)

    def test_a_legend_over_a_bar_is_found(self):
        style.set_width(3.5)
        fig = style.figure(2.0)
        ax = fig.add_subplot()
        ax.bar([0, 1], [10, 10], label="tall")
        ax.legend(loc="upper left")
        problems = style_check.check_figure(fig, "f", inches=3.5)
        self.assertTrue(any("covers a bar" in p for p in problems), problems)
        style.plt.close(fig)


if __name__ == "__main__":
    unittest.main(verbosity=2)
