"""How the runs of a summary.csv ended, in hermes-sim's own words: the status and stop-reason words
have one home, sim/common/run_ending.{h,cc}, and reach the plots through `hermes-sim compare
--format json` (each run's "ending", docs/compare-json.md), as comparison.py reads them, never
through a copy of the words here.

A run's ending is null when it ended as a run should (status ok, stopped by its patience), its
status when it failed ("diverged"), else its stop reason in short ("capped (iterations)",
"capped (sim time)", "no events", "stop: WORD"); a run a cap stopped also carries the cap's
scenario key ("cap_key": "training.stop.max_iterations"), which the figures' notes name."""

import csv
import os
import tempfile

from .data import PlotError

# What the figures make of an ending: a run a cap stopped is drawn, marked capped.
_CAPPED = "capped"


class Endings:
    """{(status, stop_reason): ending} of every run of a compare document. An ending depends on
    the two words only, so a row that compare counted once (the same seed at several points of a
    sweep) still finds its own."""

    def __init__(self, doc, source):
        self.source = source
        self.by_words = {}
        self.cap_keys = {}
        for config in doc.get("configurations") or []:
            for run in config.get("runs") or []:
                words = (run["status"], run["stop_reason"])
                self.by_words[words] = run["ending"]
                self.cap_keys[words] = run.get("cap_key")

    def ending(self, status, stop_reason):
        try:
            return self.by_words[(status, stop_reason)]
        except KeyError:
            raise PlotError("%s: no run with status '%s' and stop_reason '%s' in its document "
                            "(every row of summary.csv should be there)"
                            % (self.source, status, stop_reason)) from None

    def cap_key(self, status, stop_reason):
        """The scenario key of the cap that stopped such a run, or its stop reason as written when
        the document names no key (a compare of a version before "cap_key")."""
        self.ending(status, stop_reason)  # a row the document lacks is an error, as there
        return self.cap_keys.get((status, stop_reason)) or stop_reason

    def state(self, status, stop_reason):
        """'ok' (drawn), 'capped' (drawn, a cap stopped it) or the status of a run that failed
        (not drawn): the ending names the status exactly when the run failed."""
        if not status:
            return "no status"
        ending = self.ending(status, stop_reason)
        if ending is not None and ending == status:
            return status
        return _CAPPED if ending is not None and ending.startswith(_CAPPED) else "ok"


def read_endings(summary, hermes_sim=None):
    """The Endings of `summary` (a summary.csv) from `hermes-sim compare SUMMARY --format json`;
    the binary is found as for comparison.png (compare_json.find_hermes_sim), and finding none is
    an error here: without it no run can be said to be ok, capped or failed. The file is compared
    alone, from a copy in a temporary directory: beside a sweep's summary compare also reads its
    sweep.json (for the points' settings), which the endings do not depend on."""
    from .compare_json import NotFound, find_hermes_sim, run_compare
    try:
        binary = find_hermes_sim(hermes_sim)
    except NotFound as e:
        raise PlotError("the sweep figures read how each run ended from hermes-sim: %s" % e) \
            from None
    with tempfile.TemporaryDirectory(prefix="hermes-plot-") as alone:
        copy = os.path.join(alone, "summary.csv")
        _each_row_its_seed(summary, copy)
        return Endings(run_compare(binary, copy), "%s compare %s" % (binary, summary))


def _each_row_its_seed(summary, copy):
    """`summary` written to `copy` with the seed column numbering the rows: compare counts a seed
    that several points repeat once, and a row's ending does not depend on its seed, so that
    every row (with its own status and stop reason) is in the document."""
    with open(summary, newline="") as f:
        rows = list(csv.reader(f))
    if rows and "seed" in rows[0]:
        k = rows[0].index("seed")
        for n, row in enumerate(rows[1:], start=1):
            if k < len(row):
                row[k] = str(n)
    with open(copy, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
