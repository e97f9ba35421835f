#!/usr/bin/python3
"""ctest plot_comparison: comparison.png drawn from documents of `hermes-sim compare --format
json` (plot_fixtures.py): a configuration per row with its label at the left, horizontal and never
broken mid-word, a metric per panel, dots (never bars) for this simulation and the paper; tagged
rows, withheld speedups written in their place with the reason in a note, no empty panel, the
setup warning in the figure and on stderr, clean at every print width; where tools/plot finds
hermes-sim and what it says when it finds none or the binary fails."""

import os
import unittest
from unittest import mock

import plot_fixtures as fx  # exits 77 (skip) without matplotlib and numpy

from hermes_plot import compare_json, comparison, style, style_check  # noqa: E402
from hermes_plot.data import PlotError  # noqa: E402

WIDTHS = (3.5, 7.16, 5.0)


def flat(text):
    return " ".join(text.split())


def panel(fig, title):
    return next(ax for ax in fig.axes if flat(ax.get_title()) == title)


def titles(fig):
    return [flat(ax.get_title()) for ax in fig.axes]


def markers(ax, gid):
    """The values of the markers `gid` ("sim", "sim-tagged", "paper") in row order, NaN where a
    row has none."""
    line = next(line for line in ax.lines if line.get_gid() == gid)
    return [float(v) for v in line.get_xdata()]


def is_nan(v):
    return v != v


def text(fig, gid):
    return next(t for t in fig.texts if t.get_gid() == gid).get_text()


def row_labels(fig):
    """The row labels of the first panel: (text, colour) per configuration."""
    return [(t.get_text(), t.get_color()) for t in fig.axes[0].get_yticklabels()]


class Draws(unittest.TestCase):
    def draw(self, doc, inches=7.16):
        style.set_width(inches)
        self.addCleanup(style.set_width, style.WIDTHS[style.DEFAULT_WIDTH])
        fig = comparison.draw(doc)
        self.addCleanup(comparison.plt.close, fig)
        return fig

    def assertClean(self, doc):
        for inches in WIDTHS:
            fig = self.draw(doc, inches)
            problems = style_check.check_figure(fig, "comparison", inches)
            self.assertEqual(problems, [], "at %g in:\n%s" % (inches, "\n".join(problems)))


class Layout(Draws):
    """Configurations are rows, labelled once at the left of each row of panels; metrics are
    panels, three side by side at the page's width, two at a column's."""

    def test_rows_are_configurations_and_panels_metrics(self):
        doc = fx.paper_document()
        for inches, across in ((7.16, 3), (3.5, 2)):
            fig = self.draw(doc, inches)
            self.assertEqual(titles(fig), [m[0] for m in comparison.METRICS])
            lefts = sorted({round(ax.get_position().x0, 4) for ax in fig.axes})
            self.assertEqual(len(lefts), across)
            for ax in fig.axes:
                labels = [t.get_text() for t in ax.get_yticklabels() if t.get_visible()]
                if round(ax.get_position().x0, 4) == lefts[0]:
                    self.assertEqual([flat(t) for t in labels],
                                     [c["label"] for c in doc["configurations"]])
                    self.assertTrue(all(t.get_rotation() == 0 for t in ax.get_yticklabels()))
                else:  # the rows of a panel to the right are those of its row's first panel
                    self.assertFalse(any(tick.label1.get_visible()
                                         for tick in ax.yaxis.get_major_ticks()))

    def test_dots_not_bars_and_the_paper_beside_the_simulation(self):
        doc = fx.paper_document()
        fig = self.draw(doc)
        for ax in fig.axes:
            self.assertEqual(ax.containers, [], "a bar in %s" % ax.get_title())
        ax = panel(fig, "Iterations")
        self.assertEqual(ax.get_xscale(), "log")  # 100 beside 2200-20955
        self.assertEqual(markers(ax, "paper"), [r["iterations"] for r in fx.paper_rows()])
        self.assertEqual(markers(ax, "sim"), [100.0] * 7)
        # The simulation's dot just above the paper's diamond, inside the row.
        sim_y = next(line for line in ax.lines if line.get_gid() == "sim").get_ydata()
        paper_y = next(line for line in ax.lines if line.get_gid() == "paper").get_ydata()
        self.assertTrue(all(s < p for s, p in zip(sim_y, paper_y)))  # the row axis points down

    def test_linear_axes_start_at_zero_but_accuracy_spans_its_values(self):
        fig = self.draw(fx.paper_document())
        self.assertEqual(panel(fig, "Wi_avg").get_xlim()[0], 0.0)
        low, high = panel(fig, "Accuracy").get_xlim()
        self.assertTrue(84 < low < 85.34 and 98.07 < high < 100, (low, high))

    def test_the_legend_is_outside_the_panels(self):
        fig = self.draw(fx.paper_document(), 3.5)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        box = fig.legends[0].get_window_extent(renderer)
        for ax in fig.axes:
            self.assertFalse(box.overlaps(ax.get_window_extent(renderer)), ax.get_title())

    def test_the_papers_seven_labels_do_not_overlap(self):
        self.assertClean(fx.paper_document())

    def test_many_long_labels_do_not_overlap(self):
        labels = ["hermes (alpha=-%d.5, beta=0.15, lambda=5, window=10, variant=reference)" % k
                  for k in range(12)] + ["E-BSP (R=150)", "SSP (s=125)",
                                        "averylongrunnamewithoutspacesandnoothercharacterseither"]
        doc = fx.document([fx.configuration(label, "hermes", [("r", "ok", "patience")])
                           for label in labels])
        self.assertClean(doc)
        # More configurations than a page holds make a taller figure, never smaller text.
        fig = self.draw(doc, 7.16)
        self.assertGreater(fig.get_figheight(), self.draw(fx.paper_document()).get_figheight())

    def test_labels_wrap_at_word_boundaries(self):
        wrap = comparison.wrap
        self.assertEqual(wrap("Hermes (alpha=-1.6, beta=0.15)", 1.2),
                         "Hermes (alpha=-1.6,\nbeta=0.15)")
        self.assertEqual(wrap("SSP (s=125)", 1.2), "SSP (s=125)")
        # A word that fits a line stays whole.
        self.assertEqual(wrap("hermes (variant=reference)", 1.0), "hermes\n(variant=reference)")
        # One that does not is broken after a comma or '=' if it can be, else where it must.
        self.assertEqual(wrap("(alpha=-1.6,beta=0.15,lambda=5)", 1.0),
                         "(alpha=-1.6,beta=\n0.15,lambda=5)")
        long = wrap("a" * 45, 1.0)
        self.assertEqual(long.replace("\n", ""), "a" * 45)
        for line in long.split("\n") + wrap("x " * 40, 1.0, indent="  ").split("\n"):
            self.assertLessEqual(comparison.text_inches(line, style.SMALL_PT), 1.0)
        self.assertEqual(wrap("one two three", 0.6, indent="  "), "one two\n  three")


class StatusAndSpeedup(Draws):
    def setUp(self):
        paper = fx.paper_rows()
        self.reason = "ssp: diverged: loss 0.36 at the end, 3.1x its best"
        self.doc = fx.document([
            fx.configuration("BSP", "bsp", [("bsp", "ok", "patience")], speedup=1.0,
                             paper=paper[0]),
            fx.configuration("SSP (s=125)", "ssp", [("ssp", "diverged", "diverged", "diverged")],
                             withheld=self.reason, paper=paper[2]),
            fx.configuration("E-BSP (R=150)", "ebsp", [("ebsp-1", "ok", "max_iterations",
                                                        "capped (iterations)"),
                                                       ("ebsp-2", "ok", "patience")],
                             withheld="capped at 40 updates (training.stop.max_iterations)",
                             paper=paper[3]),
            fx.configuration("hermes (alpha=-3)", "hermes", [("h", "ok", "patience")])],
            differences=[{"pointer": "/stop/max_iterations", "run": 40, "paper": None}])
        self.fig = self.draw(self.doc)

    def test_a_withheld_speedup_has_no_dot_and_its_reason_in_a_note(self):
        ax = panel(self.fig, "Speedup vs BSP")
        sim = markers(ax, "sim")
        self.assertEqual(sim[0], 1.0)
        self.assertTrue(is_nan(sim[1]) and is_nan(sim[2]))
        self.assertTrue(all(is_nan(v) for v in markers(ax, "sim-tagged")))
        self.assertEqual(sim[3], 2.0)
        self.assertEqual([t.get_text() for t in ax.texts if t.get_gid() == "withheld"],
                         ["withheld [1]", "withheld [2]"])
        notes = flat(text(self.fig, "notes"))
        self.assertIn("[1] " + self.reason, notes)
        self.assertIn("[2] capped at 40 updates (training.stop.max_iterations)", notes)
        # The paper's value stays beside it; the configuration without a paper row has none.
        paper = markers(ax, "paper")
        self.assertEqual(paper[:3], [1.0, 0.47, 0.84])
        self.assertTrue(is_nan(paper[3]))

    def test_rows_of_runs_not_ok_or_capped_are_tagged(self):
        ax = panel(self.fig, "Accuracy")
        tagged = markers(ax, "sim-tagged")
        self.assertEqual([not is_nan(v) for v in tagged], [False, True, True, False])
        self.assertEqual([not is_nan(v) for v in markers(ax, "sim")], [True, False, False, True])
        labels = row_labels(self.fig)
        self.assertEqual(labels[1], ("SSP (s=125)\ndiverged", comparison.ALERT_COLOUR))
        self.assertEqual(labels[2], ("E-BSP (R=150)\n1/2 capped (iterations)",
                                     comparison.ALERT_COLOUR))
        self.assertEqual(labels[0], ("BSP", "black"))
        # The words are the document's (each run's "ending"), counted over the seeds.
        self.assertEqual(comparison.status_tag([{"ending": None}]), "")
        self.assertEqual(comparison.status_tag([{"ending": "capped (sim time)"}, {"ending": None},
                                                {"ending": "capped (sim time)"}]),
                         "2/3 capped (sim time)")

    def test_when_every_speedup_is_withheld_there_is_no_empty_panel(self):
        doc = fx.document([fx.configuration("BSP", "bsp", [("bsp", "diverged", "diverged", "diverged")],
                                            withheld="bsp: diverged: its loss became non-finite"),
                           fx.configuration("hermes", "hermes", [("h", "ok", "patience")],
                                            withheld="no BSP run converged to compare with")],
                          reference=None, dataset="cifar10")
        fig = self.draw(doc)
        self.assertNotIn("Speedup vs BSP", titles(fig))
        notes = flat(text(fig, "notes"))
        self.assertIn("Speedup vs BSP withheld for every configuration, not drawn:", notes)
        self.assertIn("[1] bsp: diverged: its loss became non-finite", notes)
        self.assertIn("[2] no BSP run converged to compare with", notes)
        self.assertClean(doc)
        # With the paper's values the panel stays: theirs beside our reasons.
        doc["configurations"][0]["paper"] = fx.paper_rows()[0]
        self.assertIn("Speedup vs BSP", titles(self.draw(doc)))

    def test_a_setup_difference_is_a_warning_above_the_panels(self):
        warning = text(self.fig, "warning")
        self.assertIn("WARNING: not the paper's setup: /stop/max_iterations is 40 (paper: null)",
                      flat(warning))
        self.fig.canvas.draw()
        renderer = self.fig.canvas.get_renderer()
        bottom = next(t for t in self.fig.texts
                      if t.get_gid() == "warning").get_window_extent(renderer).y0
        self.assertTrue(all(ax.get_window_extent(renderer).y1 < bottom for ax in self.fig.axes))
        fig = self.draw(fx.paper_document())
        self.assertNotIn("warning", [t.get_gid() for t in fig.texts])

    def test_without_a_reference_only_the_simulation_is_drawn(self):
        doc = fx.document([fx.configuration("cifar bsp", "bsp", [("bsp", "ok", "patience")])],
                          reference=None, dataset="cifar10")
        fig = self.draw(doc)
        self.assertNotIn("paper", [line.get_gid() for line in panel(fig, "Accuracy").lines])
        self.assertIn("This simulation (no paper table for dataset cifar10)",
                      fig._suptitle.get_text())

    def test_seeds_are_a_dot_at_the_mean_and_a_bar_from_min_to_max(self):
        config = fx.configuration("BSP", "bsp", [("bsp", "ok", "patience")] * 3)
        config["sim"]["accuracy_pct"] = {"mean": 97.0, "min": 96.0, "max": 97.5}
        fig = self.draw(fx.document([config]))
        ax = panel(fig, "Accuracy")
        self.assertEqual(markers(ax, "sim"), [97.0])
        spans = [seg for c in ax.collections for seg in c.get_segments() if len(seg) == 2 and
                 seg[0][1] == seg[1][1]]
        self.assertIn([96.0, 97.5], [sorted([seg[0][0], seg[1][0]]) for seg in spans])
        self.assertIn("mean of 3 runs (seeds), bar: min-max",
                      [t.get_text() for t in fig.legends[0].get_texts()][0])

    def test_every_shape_is_clean_at_every_width(self):
        self.assertClean(self.doc)


class PaperRowsNoRunMatched(Draws):
    """A run of two configurations (README step 4) beside the paper's seven rows: compare lists
    the five it did not simulate with `sim: null` (docs/compare-json.md); they are drawn as the
    paper's diamond alone in a row labelled "not simulated"."""

    def setUp(self):
        paper = fx.paper_rows()
        configs = [fx.configuration("BSP", "bsp", [("bsp", "ok", "patience")], speedup=1.0,
                                    paper=paper[0])]
        for row in paper[1:]:
            configs.append(dict(fx.configuration(row["framework"], row["protocol"], []),
                                runs=[], sim=None, paper=row))
        self.doc = fx.document(configs)

    def test_they_are_accepted_and_drawn_as_not_simulated(self):
        compare_json.check_document(self.doc, "doc")
        fig = self.draw(self.doc)
        ax = panel(fig, "Accuracy")
        sim = markers(ax, "sim")
        self.assertEqual(sim[0], 97.0)
        self.assertTrue(all(is_nan(v) for v in sim[1:]))
        self.assertEqual(markers(ax, "paper"), [r["accuracy_pct"] for r in fx.paper_rows()])
        labels = row_labels(fig)
        self.assertEqual(labels[1], ("ASP\nnot simulated", comparison.MUTED_COLOUR))
        self.assertEqual(sum(t.endswith("not simulated") for t, _ in labels),
                         len(fx.paper_rows()) - 1)
        self.assertClean(self.doc)

    def test_a_null_sim_with_runs_is_still_an_error(self):
        self.doc["configurations"][1]["runs"] = self.doc["configurations"][0]["runs"]
        with self.assertRaisesRegex(PlotError, "/configurations/1/sim is null, but only a paper "
                                               "row no run matched"):
            compare_json.check_document(self.doc, "doc")


class PaperReadyFiles(fx.TempDirTest):
    """PDFs embed TrueType (Type 42) fonts, never Type 3; SVGs keep text as <text> elements."""

    def test_pdf_fonts_are_truetype_and_svg_text_is_text(self):
        for fmt in ("pdf", "svg"):
            path = comparison.comparison(fx.paper_document(), self.dir, fmt)
            with open(path, "rb") as f:
                data = f.read()
            if fmt == "pdf":
                self.assertNotIn(b"/Type3", data)
                self.assertTrue(b"/TrueType" in data or b"/CIDFontType2" in data)
            else:
                self.assertIn(b"<text", data)
                self.assertIn(b"Hermes' best speedup vs BSP", data)


class FindsHermesSim(fx.TempDirTest):
    def setUp(self):
        super().setUp()
        self.places = {k: fx.fake_hermes_sim(os.path.join(self.dir, k), fx.paper_document())
                       for k in ("option", "env", "path", "repo")}
        repo = mock.patch.object(compare_json, "REPO_BINARY", self.places["repo"])
        repo.start()
        self.addCleanup(repo.stop)

    def find(self, option=None, env=None, path=True):
        environ = {"PATH": os.path.dirname(self.places["path"]) if path else self.dir}
        if env is not None:
            environ["HERMES_SIM"] = env
        return compare_json.find_hermes_sim(option, environ)

    def test_the_option_then_the_variable_then_path_then_the_build(self):
        p = self.places
        self.assertEqual(self.find(p["option"], p["env"]), p["option"])
        self.assertEqual(self.find(None, p["env"]), p["env"])
        self.assertEqual(self.find(None, ""), p["path"])  # an empty variable is unset
        self.assertEqual(self.find(path=False), p["repo"])

    def test_the_installed_sibling_comes_before_path(self):
        sibling = fx.fake_hermes_sim(os.path.join(self.dir, "bin"), fx.paper_document())
        environ = {"PATH": os.path.dirname(self.places["path"]), "HERMES_PLOT_SIBLING": sibling}
        self.assertEqual(compare_json.find_hermes_sim(None, environ), sibling)
        environ["HERMES_SIM"] = self.places["env"]
        self.assertEqual(compare_json.find_hermes_sim(None, environ), self.places["env"])
        environ = {"PATH": os.path.dirname(self.places["path"]),
                   "HERMES_PLOT_SIBLING": os.path.join(self.dir, "gone")}
        self.assertEqual(compare_json.find_hermes_sim(None, environ), self.places["path"])

    def test_an_explicit_choice_that_is_missing_is_an_error_not_a_fallback(self):
        missing = os.path.join(self.dir, "nope")
        with self.assertRaisesRegex(PlotError, "--hermes-sim .*nope: no executable file"):
            self.find(missing, self.places["env"])
        with self.assertRaisesRegex(PlotError, r"\$HERMES_SIM=.*nope: no executable file"):
            self.find(None, missing)

    def test_none_found_names_all_four_places(self):
        os.remove(self.places["repo"])
        with self.assertRaises(PlotError) as e:
            self.find(path=False)
        for place in ("--hermes-sim PATH", "$HERMES_SIM", "hermes-sim on PATH",
                      self.places["repo"]):
            self.assertIn(place, str(e.exception))


class RunsCompare(fx.TempDirTest):
    def setUp(self):
        super().setUp()
        self.run = os.path.join(self.dir, "run")
        fx.write_run_dir(self.run, runs=fx.RUNS[:1], evaluations=10, iterations=5)

    def test_with_no_hermes_sim_found_the_other_figures_are_drawn_and_it_is_noted(self):
        from hermes_plot import cli
        out = os.path.join(self.dir, "figs")
        env = {"PATH": self.dir}
        with mock.patch.object(compare_json, "REPO_BINARY", os.path.join(self.dir, "none")), \
                mock.patch.dict(os.environ, env, clear=True), \
                mock.patch("sys.stderr") as err:
            status = cli.main([self.run, "--out", out])
        self.assertEqual(status, 0)
        written = sorted(os.listdir(out))
        self.assertIn("accuracy_loss.png", written)
        self.assertNotIn("comparison.png", written)
        said = "".join(c.args[0] for c in err.write.call_args_list)
        self.assertIn("note: comparison: not drawn: comparison.png needs hermes-sim", said)

    def test_the_summary_and_reference_go_to_compare_and_warnings_to_stderr(self):
        doc = fx.paper_document()
        doc["setup"]["differences"] = [{"pointer": "/cluster/workers/0/count", "run": 2,
                                        "paper": 4}]
        doc["warnings"] = ["seed 1 only"]
        bin_dir = os.path.join(self.dir, "bin")
        fx.fake_hermes_sim(bin_dir, doc)
        reference = fx.PAPER_TABLE
        r = fx.plot(self.run, "--reference", reference,
                    env={"PATH": bin_dir + os.pathsep + os.environ["PATH"]})
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(bin_dir, "args")) as f:
            self.assertEqual(f.read().split("\n")[:-1],
                             ["compare", os.path.join(self.run, "summary.csv"), "--format",
                              "json", "--reference", reference])
        self.assertIn("tools/plot: warning: comparison: not the paper's setup: "
                      "/cluster/workers/0/count is 2 (paper: 4)", r.stderr)
        self.assertIn("tools/plot: warning: hermes-sim compare: seed 1 only", r.stderr)
        self.assertIn(os.path.join(self.run, "plots", "comparison.png"), r.stdout)

    def test_a_failing_or_wrong_binary_stops_before_any_figure(self):
        binary = fx.fake_hermes_sim(os.path.join(self.dir, "fails"), status=1,
                                    stderr="hermes-sim compare: error: bad summary")
        r = fx.plot(self.run, "--hermes-sim", binary)
        self.assertEqual(r.returncode, 1)
        self.assertIn("failed with status 1:\nhermes-sim compare: error: bad summary", r.stderr)
        binary = fx.fake_hermes_sim(os.path.join(self.dir, "text"), stdout="BSP  9600 ...")
        r = fx.plot(self.run, "--hermes-sim", binary)
        self.assertEqual(r.returncode, 1)
        self.assertIn("printed no JSON document", r.stderr)
        doc = fx.paper_document()
        del doc["configurations"][1]["runs"]
        binary = fx.fake_hermes_sim(os.path.join(self.dir, "old"), doc)
        r = fx.plot(self.run, "--hermes-sim", binary)
        self.assertEqual(r.returncode, 1)
        self.assertIn('/configurations/1 has no field "runs"', r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.run, "plots")))

    def test_fields_of_the_wrong_type_are_named(self):
        doc = fx.paper_document()
        doc["configurations"][0]["sim"]["accuracy_pct"]["mean"] = "97"
        with self.assertRaisesRegex(
                PlotError, r'/configurations/0/sim/accuracy_pct/mean is "97", expected a number$'):
            compare_json.check_document(doc, "doc")
        doc = fx.paper_document()
        doc["setup"] = []
        with self.assertRaisesRegex(PlotError, "doc: /setup is \\[\\], expected an object$"):
            compare_json.check_document(doc, "doc")


if __name__ == "__main__":
    unittest.main(verbosity=2)
