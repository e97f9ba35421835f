#!/usr/bin/python3
"""ctest plot_comparison: comparison.png drawn from documents of `hermes-sim compare --format
json` (plot_fixtures.py): x labels that never overlap, status tags, withheld speedups written
instead of drawn, the setup warning in the figure and on stderr; where tools/plot finds hermes-sim
and what it says when it finds none or the binary fails."""

import os
import unittest
from unittest import mock

import plot_fixtures as fx  # exits 77 (skip) without matplotlib and numpy

from hermes_plot import compare_json, comparison  # noqa: E402
from hermes_plot.data import PlotError  # noqa: E402


def panel(fig, title):
    return next(ax for ax in fig.axes if ax.get_title() == title)


def flat(text):
    return " ".join(text.split())


class Labels(unittest.TestCase):
    def assertNoOverlap(self, doc):
        fig = comparison.draw(doc)
        self.addCleanup(comparison.plt.close, fig)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        width = fig.bbox.width
        for ax in (panel(fig, "API calls"), panel(fig, "Speedup")):  # the bottom row
            boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels()]
            self.assertEqual(len(boxes), len(doc["configurations"]))
            for left, right in zip(boxes, boxes[1:]):
                self.assertLess(left.x1, right.x0, "x labels overlap: %s" %
                                [flat(t.get_text()) for t in ax.get_xticklabels()])
            self.assertGreaterEqual(boxes[0].x0, 0)
            self.assertLessEqual(boxes[-1].x1, width)

    def test_the_papers_seven_labels_do_not_overlap(self):
        doc = fx.paper_document()
        self.assertEqual(len(doc["configurations"]), 7)
        self.assertNoOverlap(doc)

    def test_many_long_labels_do_not_overlap(self):
        labels = ["hermes (alpha=-%d.5, beta=0.15, lambda=5, window=10, variant=reference)" % k
                  for k in range(12)] + ["E-BSP (R=150)", "SSP (s=125)",
                                        "averylongrunnamewithoutspaces"]
        self.assertNoOverlap(fx.document([fx.configuration(label, "hermes", [("r", "ok",
                                                                               "patience")])
                                          for label in labels]))

    def test_labels_wrap_at_word_boundaries(self):
        self.assertEqual(comparison.wrap_label("Hermes (alpha=-1.6, beta=0.15)"),
                         "Hermes\n(alpha=-1.6,\nbeta=0.15)")
        self.assertEqual(comparison.wrap_label("SSP (s=125)"), "SSP (s=125)")
        # A word longer than a line stays whole up to 20 characters.
        self.assertEqual(comparison.wrap_label("hermes (variant=reference)"),
                         "hermes\n(variant=reference)")
        self.assertEqual(comparison.wrap_label("a" * 45), "\n".join(["a" * 20] * 2 + ["a" * 5]))


class StatusAndSpeedup(unittest.TestCase):
    def setUp(self):
        paper = fx.paper_rows()
        self.reason = "diverged: loss 0.36 at the end, 3.1x its best"
        self.doc = fx.document([
            fx.configuration("BSP", "bsp", [("bsp", "ok", "patience")], speedup=1.0,
                             paper=paper[0]),
            fx.configuration("SSP (s=125)", "ssp", [("ssp", "diverged", "diverged")],
                             withheld=self.reason, paper=paper[2]),
            fx.configuration("E-BSP (R=150)", "ebsp", [("ebsp-1", "ok", "max_iterations"),
                                                       ("ebsp-2", "ok", "patience")],
                             withheld="capped at 40 updates (stop.max_iterations)",
                             paper=paper[3]),
            fx.configuration("hermes (alpha=-3)", "hermes", [("h", "ok", "patience")])],
            differences=[{"pointer": "/stop/max_iterations", "run": 40, "paper": None}])
        self.fig = comparison.draw(self.doc)
        self.addCleanup(comparison.plt.close, self.fig)

    def test_a_withheld_speedup_has_no_bar_and_its_reason_in_its_place(self):
        ax = panel(self.fig, "Speedup")
        sim = ax.containers[0].datavalues
        self.assertEqual(sim[0], 1.0)
        self.assertNotEqual(sim[1], sim[1])  # NaN: no bar
        self.assertNotEqual(sim[2], sim[2])
        self.assertEqual(sim[3], 2.0)
        texts = [flat(t.get_text()) for t in ax.texts]
        self.assertIn("no speedup: " + self.reason, texts)
        self.assertIn("no speedup: capped at 40 updates (stop.max_iterations)", texts)
        # The paper's value stays beside it; the configuration without a paper row has none.
        paper = ax.containers[1].datavalues
        self.assertEqual(list(paper[:3]), [1.0, 0.47, 0.84])
        self.assertNotEqual(paper[3], paper[3])

    def test_bars_of_runs_not_ok_or_capped_are_tagged(self):
        ax = panel(self.fig, "Accuracy")
        bars = ax.containers[0].patches
        self.assertEqual([bool(b.get_hatch()) for b in bars], [False, True, True, False])
        labels = [t.get_text() for t in ax.texts]
        self.assertIn("97.0\ndiverged", labels)
        self.assertIn("97.0\n1/2 capped:\niterations", labels)
        self.assertEqual(comparison.status_tag([{"status": "ok", "stop_reason": "patience"}]), "")
        self.assertEqual(comparison.status_tag([{"status": "ok", "stop_reason": "max_sim_time"}]),
                         "capped:\nsim time")

    def test_a_setup_difference_is_a_warning_above_the_panels(self):
        title = flat(self.fig._suptitle.get_text())
        self.assertIn("WARNING: not the paper's setup: /stop/max_iterations is 40 (paper: null)",
                      title)
        fig = comparison.draw(fx.paper_document())
        self.addCleanup(comparison.plt.close, fig)
        self.assertNotIn("WARNING", fig._suptitle.get_text())

    def test_without_a_reference_only_the_simulation_is_drawn(self):
        doc = fx.document([fx.configuration("cifar bsp", "bsp", [("bsp", "ok", "patience")])],
                          reference=None, dataset="cifar10")
        fig = comparison.draw(doc)
        self.addCleanup(comparison.plt.close, fig)
        self.assertEqual(len(panel(fig, "Accuracy").containers), 1)
        self.assertIn("This simulation (no paper table for dataset cifar10)",
                      fig._suptitle.get_text())


class PaperRowsNoRunMatched(unittest.TestCase):
    """A run of two configurations (README step 4) beside the paper's seven rows: compare lists
    the five it did not simulate with `sim: null` (docs/compare-json.md); they are drawn as the
    paper's bar with "not simulated" in place of ours, and named above the panels."""

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
        fig = comparison.draw(self.doc)
        self.addCleanup(comparison.plt.close, fig)
        ax = panel(fig, "Accuracy")
        sim = ax.containers[0].datavalues
        self.assertEqual(sim[0], 97.0)
        self.assertTrue(all(v != v for v in sim[1:]))  # NaN: no bar
        self.assertEqual(list(ax.containers[1].datavalues), [r["accuracy_pct"]
                                                              for r in fx.paper_rows()])
        texts = [t.get_text() for t in ax.texts]
        self.assertEqual(texts.count("not simulated"), len(fx.paper_rows()) - 1)
        self.assertIn("not simulated (paper only): ASP", fig._suptitle.get_text())

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
