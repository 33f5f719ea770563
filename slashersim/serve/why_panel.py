"""The page's "why games are lost": setting A's first games played, each lost one walked
back by the exact solver (``slashersim why``), in a section under the run's answer."""
from __future__ import annotations

import html

import panel as pn

from ..core.errors import ConfigError
from ..present.text import EQUITY_LEGEND, WHY_LEGEND
from .link import PageValues
from .live import WhyRun
from .settings import is_stale, parse_why_games, run_identity
from .widgets import FOREIGN, fmt_ci, mark, message_pane, show_message, stale_pane

WHY_STALE = ("stale: settings changed since this answer &mdash; press Why were they lost? for "
             "the settings on screen")


class WhyPanel:
    """The section's widgets and answer, for a page (``page``: its ``settings()``, whether
    its link's cards are foreign, ``settings_changed()`` and ``keep_refreshing()``)."""

    def __init__(self, page):
        self.page = page
        self.run: WhyRun | None = None
        #: what decides the answer shown
        self.shown: tuple | None = None
        self.games = pn.widgets.TextInput(name="Games to walk back", value=PageValues.why_games,
                                          width=160, css_classes=["why-games"])
        self.button = pn.widgets.Button(name="Why were they lost?", button_type="primary",
                                        css_classes=["why-run"])
        self.equity = pn.widgets.Checkbox(name="with luck and play (the future unknown; about "
                                               "a second a game)", value=False,
                                          css_classes=["why-equity"])
        self.button.on_click(lambda event: self.start())
        self.games.param.watch(lambda event: page.settings_changed(), "value")
        self.equity.param.watch(lambda event: page.settings_changed(), "value")
        self.message = message_pane("why-message")
        self.stale = stale_pane("why-stale", WHY_STALE)
        self.result = pn.pane.HTML("", css_classes=["why-result"], width=840)
        self.panel = pn.Column(
            pn.pane.Markdown(
                "### Why games are lost\n"
                "Setting A's first games, played as above; each lost one is walked back by the "
                "exact solver, which sees every card to come, to its **point of no return** "
                "and the decision that passed it. The best fair player (belief) is asked the "
                "same decision: a loss it avoids was **avoidable**, one it loses too only "
                "**hindsight** could avoid. Matches `slashersim why` for the same games and "
                "seed; a few seconds per lost game at the hard presets."),
            pn.Row(self.games, self.button), self.equity, self.message, self.stale, self.result,
            css_classes=["why"])

    def key(self) -> tuple | None:
        """What decides the answer: setting A's rules, player and seed, the games, and
        whether luck and play are asked for."""
        try:
            a, _ = self.page.settings()
            return run_identity(a)[0][:2] + (parse_why_games(self.games.value), a.seed,
                                             bool(self.equity.value))
        except ConfigError:
            return None

    def mark_stale(self) -> None:
        mark(self.stale, self.result, is_stale(self.shown, self.key()))

    @property
    def busy(self) -> bool:
        return self.run is not None and not self.run.finished

    def start(self) -> None:
        if self.busy:
            return
        if self.page.foreign:
            self.result.object = FOREIGN
            return
        try:
            a, _ = self.page.settings()
            games = parse_why_games(self.games.value)
        except ConfigError as e:
            show_message(self.message, str(e))
            self.result.object = "No answer: fix the value above."
            self.shown = None
            mark(self.stale, self.result, False)
            return
        show_message(self.message, None)
        self.shown = self.key()
        mark(self.stale, self.result, False)
        self.run = WhyRun(a, games, bool(self.equity.value)).start()
        self.button.disabled = True
        self.show()
        self.page.keep_refreshing()

    def show(self) -> None:
        r = self.run
        if r is None:
            return
        if r.error:
            show_message(self.message, r.error)
        player = f"<p class='why-player'>{html.escape(r.settings.player)}</p>"
        if not r.finished or r.result is None:
            note = f" &mdash; {html.escape(r.note)}" if r.note else ""
            what = "games seen" if r.equity else "lost games walked back"
            lost = "" if r.lost is None else f": {r.done:,} of {r.lost:,} {what}"
            self.result.object = (f"{player}<span class='why-state'>"
                                  f"{'failed' if r.finished else 'playing'}</span>{lost}{note}")
        else:
            self.result.object = player + "<span class='why-state'>done</span>" + \
                _why_html(r.result)
        if r.finished:
            self.button.disabled = False


_VERDICT_WORDS = {"won": "won", "deal": "lost at the deal", "avoidable": "lost: a fair pair "
                  "could avoid it", "hindsight": "lost: only hindsight could",
                  "undecided": "undecided (the solver's budget ran out)"}


def _share(x) -> str:
    return "-" if x is None else f"{x:.4f}"


def _why_html(s: dict) -> str:
    """A ``why`` answer (its ``summary()``) as the page shows it: the profile, the fatal
    decisions and the hazard by round, with the legend."""
    rows = "".join(f"<tr><td>{_VERDICT_WORDS[r['verdict']]}</td><td>{r['games']:,}</td>"
                   f"<td>{r['share']:.4f}</td><td>{fmt_ci((r['ci_low'], r['ci_high']))}</td>"
                   f"</tr>" for r in s["profile"])
    decisions = "".join(
        f"<tr><td>{html.escape(d['kind'])} ({html.escape(d['part'].replace('_', ' '))}, seat "
        f"{int(d['seat'])})</td><td>{d['games']:,}</td><td>{d['share']:.3f}</td>"
        f"<td>{d['avoidable']:,}</td></tr>" for d in s["decisions"])
    hazard = "".join(f"<tr><td>{r['round']}</td><td>{r['at_risk']:,}</td><td>{r['lost']:,}"
                     f"</td><td>{r['hazard']:.3f}</td><td>"
                     f"{fmt_ci((r['ci_low'], r['ci_high']))}</td></tr>"
                     for r in s["hazard_by_round"])
    legend = " ".join(line.strip() for line in WHY_LEGEND)
    equity = ""
    if s.get("equity"):
        cells = "".join(f"<tr><td>{html.escape(r['source'])}</td><td>{r['mean']:+.4f}</td>"
                        f"<td>{_share(r['share'])}</td><td>"
                        f"{fmt_ci(None if r['low'] is None else (r['low'], r['high']))}</td>"
                        f"</tr>" for r in s["equity"]["sources"])
        words = " ".join(line.strip() for line in EQUITY_LEGEND)
        equity = (f"<table class='why-equity-table'><tr><th>luck and play (the future "
                  f"unknown)</th><th>mean per game</th><th>share of the variance</th>"
                  f"<th>95% CI</th></tr>{cells}</table>"
                  f"<p class='why-legend'>{html.escape(words)}</p>")
    return (f": {s['games']:,} games, seed {s['seed']}"
            f"<table class='why-profile'><tr><th>why the games were lost</th><th>games</th>"
            f"<th>share</th><th>95% CI</th></tr>{rows}</table>"
            + (f"<table class='why-decisions'><tr><th>the fatal decisions</th><th>games</th>"
               f"<th>share of these</th><th>a fair pair avoids</th></tr>{decisions}</table>"
               if decisions else "")
            + f"<table class='why-hazard'><tr><th>round</th><th>still winnable at its start"
              f"</th><th>lost in it</th><th>hazard</th><th>95% CI</th></tr>{hazard}</table>"
            + equity + f"<p class='why-legend'>{html.escape(legend)}</p>")
