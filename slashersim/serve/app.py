"""The page of ``slashersim serve``: a Panel app, one instance per browser session.

Each browser gets its own widgets, runs and answers (Panel builds the page anew for every
session); the games are played by :mod:`slashersim.serve.live` in background threads, and a
periodic callback of the session (every :data:`REFRESH_MS`) shows the numbers so far. Panel
serves Bokeh's JavaScript from the Python packages: the page loads nothing from elsewhere.
"""
from __future__ import annotations

import html
import sys
from typing import Any

from bokeh.models import ColumnDataSource, FactorRange, HoverTool
from bokeh.plotting import figure
import panel as pn

from .. import rules
from ..errors import ConfigError
from ..stats import wilson_interval
from .live import LiveRun, LuckRun
from .settings import (
    EXAMPLE_POSITION,
    MAX_PLAYOUTS,
    SKILLS,
    Settings,
    _integer,
    difficulties,
    grid,
    parse_position_text,
    parse_seed,
    parse_settings,
    preset_values,
)

#: how often a session's page shows the numbers of its running games
REFRESH_MS = 300
COLOURS = ("#c0392b", "#2471a3")
OUTCOMES = (("win", "win"), ("loss_health", "loss by health"), ("loss_traps", "loss by traps"),
            ("timeout", "timeout"))
CUSTOM = "custom"


def _fmt_ci(ci) -> str:
    return "-" if ci is None else f"[{ci[0]:.4f}, {ci[1]:.4f}]"


def _fmt_signed_ci(ci) -> str:
    return "-" if ci is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"


def _message_pane(css: str):
    """Where the page says what is wrong with a value (hidden while nothing is)."""
    return pn.pane.HTML("", visible=False, css_classes=[css], sizing_mode="stretch_width",
                        styles={"background": "#fdecea", "border": "1px solid #e6a09a",
                                "border-radius": "4px", "padding": "0 10px"})


def _show_message(pane, text: str | None) -> None:
    pane.object = f"<p class='error-text'>{html.escape(text)}</p>" if text else ""
    pane.visible = bool(text)


class SettingWidgets:
    """The knobs of one setting: edition, difficulty preset, health, Hideaway, Cursed Object,
    escapes needed, traps and skill level. Choosing a preset (or an edition) sets the knobs
    to its values; changing a knob away from them makes the setting ``custom``."""

    def __init__(self, tag: str, on_change):
        self.tag = tag
        self._setting = False
        css = lambda name: [f"{name}-{tag}", name]  # noqa: E731
        self.edition = pn.widgets.Select(name="Edition", options=list(rules.EDITION_NAMES),
                                         value="rulebook", css_classes=css("edition"))
        self.difficulty = pn.widgets.Select(name="Difficulty preset",
                                            options=[CUSTOM, *difficulties("rulebook")],
                                            value=CUSTOM, css_classes=css("difficulty"))
        self.health = pn.widgets.IntSlider(name="Starting health", start=1,
                                           end=rules.MAX_HEALTH, value=7,
                                           css_classes=css("health"))
        self.hideaway = pn.widgets.Checkbox(name="Hideaway in the area deck", value=False,
                                            css_classes=css("hideaway"))
        self.cursed_object = pn.widgets.Checkbox(name="Cursed Object in the item deck",
                                                 value=True, css_classes=css("cursed"))
        self.escapes_needed = pn.widgets.IntSlider(name="Escapes needed", start=1,
                                                   end=rules.N_ESCAPES, value=4,
                                                   css_classes=css("escapes"))
        self.traps = pn.widgets.IntSlider(name="Traps that lose", start=1, end=4, value=3,
                                          css_classes=css("traps"))
        self.skill = pn.widgets.RadioButtonGroup(name="Skill level", options=list(SKILLS),
                                                 value="novice", button_type="default",
                                                 css_classes=css("skill"))
        self.knobs = (self.health, self.hideaway, self.cursed_object, self.escapes_needed,
                      self.traps)
        self.edition.param.watch(self._preset, "value")
        self.difficulty.param.watch(self._preset, "value")
        for w in self.knobs:
            w.param.watch(self._knob, "value")
        for w in (self.edition, self.difficulty, *self.knobs, self.skill):
            w.param.watch(lambda event: on_change(), "value")

    def _preset(self, event) -> None:
        """An edition or preset chosen: offer the edition's presets, set its knobs."""
        if self._setting:
            return
        self._setting = True
        try:
            edition = self.edition.value
            offered = [CUSTOM, *difficulties(edition)]
            if self.difficulty.options != offered:
                self.difficulty.options = offered
            if self.difficulty.value not in offered:
                self.difficulty.value = CUSTOM
            difficulty = None if self.difficulty.value == CUSTOM else self.difficulty.value
            if difficulty is not None or event.obj is self.edition:
                values = preset_values(difficulty, edition)
                for name, value in values.items():
                    getattr(self, name).value = value
        finally:
            self._setting = False

    def _knob(self, event) -> None:
        """A knob changed by hand away from the preset: the setting is custom."""
        if self._setting or self.difficulty.value == CUSTOM:
            return
        if preset_values(self.difficulty.value, self.edition.value) != self.values_of_knobs():
            self._setting = True
            try:
                self.difficulty.value = CUSTOM
            finally:
                self._setting = False

    def values_of_knobs(self) -> dict[str, Any]:
        return {"health": self.health.value, "hideaway": self.hideaway.value,
                "cursed_object": self.cursed_object.value,
                "escapes_needed": self.escapes_needed.value, "traps": self.traps.value}

    def values(self) -> dict[str, Any]:
        difficulty = None if self.difficulty.value == CUSTOM else self.difficulty.value
        return {"edition": self.edition.value, "difficulty": difficulty,
                **self.values_of_knobs(), "skill": self.skill.value}

    def panel(self, title: str):
        return pn.Column(pn.pane.Markdown(f"#### {title}", margin=(0, 10)), self.edition,
                         self.difficulty, self.health, self.hideaway, self.cursed_object,
                         self.escapes_needed, self.traps,
                         pn.pane.Markdown("Skill level", margin=(0, 10)), self.skill)

    def disable(self, off: bool) -> None:
        for w in (self.edition, self.difficulty, *self.knobs, self.skill):
            w.disabled = off


def _bar_figure(title: str, y_label: str, y_max: float | None = 1.0):
    source = ColumnDataSource({"x": [], "value": [], "low": [], "high": [], "setting": [],
                               "text": [], "colour": []})
    fig = figure(x_range=FactorRange(factors=[]), height=260, width=420, title=title,
                 toolbar_location=None, tools="")
    fig.vbar(x="x", top="value", width=0.8, source=source, line_color="white",
             fill_color="colour")
    fig.segment(x0="x", y0="low", x1="x", y1="high", source=source, color="black",
                line_width=1.5)
    fig.add_tools(HoverTool(tooltips=[("", "@text")]))
    fig.y_range.start = 0
    if y_max is not None:
        fig.y_range.end = y_max
    fig.yaxis.axis_label = y_label
    fig.xgrid.grid_line_color = None
    fig.x_range.range_padding = 0.1
    return fig, source


def _set_bars(fig, source, rows: list[tuple], paired: bool) -> None:
    """``rows`` of ``(category, setting, value, low, high, text)``: bars with their 95 %
    intervals, grouped by category when two settings are shown side by side."""
    factors = [(str(c), s) if paired else str(c) for c, s, *_ in rows]
    data = {"x": factors, "value": [r[2] for r in rows], "low": [r[3] for r in rows],
            "high": [r[4] for r in rows], "setting": [r[1] for r in rows],
            "text": [r[5] for r in rows],
            "colour": [COLOURS[0] if r[1] == "A" else COLOURS[1] for r in rows]}
    if list(fig.x_range.factors) != factors:
        source.data = {k: [] for k in data}
        fig.x_range.factors = factors
    source.data = data


class Explorer:
    """One browser session's page."""

    def __init__(self):
        self.run: LiveRun | None = None
        self.commands: list[tuple[str, Settings]] = []
        self.luck_run: LuckRun | None = None
        self.callback = None
        self.a = SettingWidgets("a", self.show_precomputed)
        self.b = SettingWidgets("b", self.show_precomputed)
        self.side_by_side = pn.widgets.Checkbox(name="Side by side with setting B (the same "
                                                     "games)", value=False,
                                                css_classes=["side-by-side"])
        self.games = pn.widgets.TextInput(name="Games", value="100,000",
                                          css_classes=["games"])
        self.seed = pn.widgets.TextInput(name="Seed", value="0", css_classes=["seed"])
        self.run_button = pn.widgets.Button(name="Run", button_type="primary",
                                            css_classes=["run"])
        self.stop_button = pn.widgets.Button(name="Stop", button_type="default",
                                             disabled=True, css_classes=["stop"])
        self.run_button.on_click(lambda event: self.start())
        self.stop_button.on_click(lambda event: self.stop())
        self.side_by_side.param.watch(self._toggle_b, "value")
        self.message = _message_pane("message")
        self.status = pn.pane.HTML("Choose the settings and press Run.",
                                   css_classes=["status"])
        self.progress = pn.indicators.Progress(name="games played", value=0, max=100,
                                               width=420, bar_color="primary",
                                               css_classes=["progress"])
        self.precomputed = pn.pane.HTML("", css_classes=["precomputed"])
        self.results = pn.pane.HTML("", css_classes=["results"])
        self.outcome_fig, self.outcome_src = _bar_figure("How games end", "share of games")
        self.trap_fig, self.trap_src = _bar_figure("Traps set off per round, by area",
                                                   "traps per round played")
        self.killer_fig, self.killer_src = _bar_figure("Win rate by the Killer's start in the "
                                                       "first item deck (1 = top)", "win rate")
        self.b_panel = self.b.panel("Setting B")
        self.b_panel.visible = False
        self._build_luck()
        self.show_precomputed()

    # --- layout ---------------------------------------------------------------------------
    def layout(self):
        controls = pn.Column(self.a.panel("Setting A"), self.side_by_side, self.b_panel,
                             self.games, self.seed, pn.Row(self.run_button, self.stop_button),
                             width=330)
        out = pn.Column(self.message, self.status, self.progress, self.precomputed,
                        self.results, pn.Row(self.outcome_fig, self.trap_fig),
                        pn.Row(self.killer_fig))
        explore = pn.Row(controls, out)
        tabs = pn.Tabs(("Difficulty", explore), ("Luck of a position", self.luck_panel))
        header = pn.pane.Markdown(
            "## slashersim: how hard is The Slasher?\n"
            "Choose the rules and the players' skill; the games are played live (the numbers "
            "refine as they finish) and match `slashersim simulate` for the same seed. "
            "Settings in the committed grid answer at once.", margin=(0, 10))
        return pn.Column(header, tabs)

    def _toggle_b(self, event) -> None:
        self.b_panel.visible = bool(event.new)
        self.show_precomputed()

    # --- settings -------------------------------------------------------------------------
    def settings(self) -> tuple[Settings, Settings | None]:
        """The settings of the widgets, checked (a :class:`ConfigError` names a bad value)."""
        common = {"games": self.games.value, "seed": self.seed.value}
        a = parse_settings({**self.a.values(), **common})
        b = parse_settings({**self.b.values(), **common}) if self.side_by_side.value else None
        return a, b

    def say(self, text: str | None) -> None:
        _show_message(self.message, text)

    def show_precomputed(self) -> None:
        """The grid's answer for the settings as they stand, at once."""
        try:
            a, b = self.settings()
        except ConfigError:
            self.precomputed.object = ""
            return
        table = grid()
        lines = []
        for tag, s in (("A", a), ("B", b)):
            if s is None:
                continue
            if table is None:
                lines.append(f"<b>{tag}</b>: no precomputed grid here (results/difficulty.parquet "
                             f"of the repository is not found) &mdash; press Run")
                continue
            answer = table.lookup(s)
            if answer is None:
                lines.append(f"<b>{tag}</b>: not in the precomputed grid (it covers editions "
                             f"&times; health &times; Hideaway &times; Cursed Object, 4 "
                             f"escapes, 3 traps) &mdash; press Run")
                continue
            lines.append(
                f"<b>{tag}</b>: win rate <span class='grid-win-rate-{tag.lower()}'>"
                f"{answer.win_rate:.4f}</span> 95% CI {_fmt_ci(answer.win_ci)}; loss by health "
                f"{answer.loss_health:.4f}, by traps {answer.loss_traps:.4f} "
                f"<i>({answer.label()}, {s.skill})</i>")
        self.precomputed.object = "<div class='grid'>" + "<br>".join(lines) + "</div>"

    # --- runs -----------------------------------------------------------------------------
    def start(self) -> None:
        self.stop()
        try:
            a, b = self.settings()
        except ConfigError as e:
            self.say(str(e))
            self.status.object = "Nothing played: fix the value above."
            return
        self.say(None)
        self.commands = [("A", a), ("B", b)] if b is not None else [("A", a)]
        self.run = LiveRun(a, b).start()
        self.status.object = html.escape(self.run.note or "playing ...")
        self.progress.value = 0
        self.run_button.disabled = False
        self.stop_button.disabled = False
        if self.callback is None:
            self.callback = pn.state.add_periodic_callback(self.refresh, period=REFRESH_MS)

    def stop(self) -> None:
        if self.run is not None:
            self.run.cancel()

    def refresh(self) -> None:
        """Show the numbers of the run so far (a periodic callback of the session)."""
        busy = False
        if self.run is not None:
            snap = self.run.snapshot()
            self.show_run(snap)
            busy = not snap["finished"]
        if self.luck_run is not None:
            self.show_luck()
            busy = busy or not self.luck_run.finished
        if not busy and self.callback is not None:
            self.callback.stop()
            self.callback = None

    def show_run(self, snap: dict) -> None:
        a, b, pair = snap["a"], snap["b"], snap["pair"]
        done, total = snap["done"], snap["total"]
        self.progress.value = int(100 * done / total)
        if snap["error"]:
            self.say(snap["error"])
        if snap["finished"]:
            self.stop_button.disabled = True
            state = "stopped" if snap["cancelled"] else ("failed" if snap["error"] else "done")
        else:
            state = "compiling" if snap["note"] else "playing"
        text = (f"<span class='state'>{state}</span>: <span class='done'>{done:,}</span> of "
                f"{total:,} games, {snap['seconds']:.1f} s")
        if snap["note"]:
            text += f" &mdash; {html.escape(snap['note'])}"
        self.status.object = text
        if a is None:
            return
        self.results.object = self._results_html(a, b, pair)
        self._plots(a, b)

    def _results_html(self, a, b, pair) -> str:
        rows = []
        for tag, r in (("A", a), ("B", b)):
            if r is None:
                continue
            s = r.summary()
            rows.append(
                f"<tr><td><b>{tag}</b></td><td class='win-rate-{tag.lower()}'>"
                f"{s['win_rate']:.4f}</td><td>{_fmt_ci(s['win_ci'])}</td>"
                f"<td>{s['loss_health']:.4f}</td><td>{s['loss_traps']:.4f}</td>"
                f"<td>{s['timeout']:.4f}</td><td>{s['mean_rounds']:.2f}</td>"
                f"<td class='games-{tag.lower()}'>{s['games']:,}</td></tr>")
        out = ("<table class='summary'><tr><th></th><th>win rate</th><th>95% CI</th>"
               "<th>loss by health</th><th>loss by traps</th><th>timeout</th>"
               "<th>mean rounds</th><th>games</th></tr>" + "".join(rows) + "</table>")
        out += "".join(f"<div>{tag}: {html.escape(s.describe())} &mdash; the same games: "
                       f"<code class='command-{tag.lower()}'>{html.escape(s.command())}"
                       f"</code></div>" for tag, s in self.commands)
        if pair is not None:
            out += (f"<p>B &minus; A on the same {pair['games']:,} games: "
                    f"<b class='difference'>{pair['difference']:+.4f}</b>, paired 95% CI "
                    f"{_fmt_signed_ci(pair['difference_ci'])} (independent runs would give "
                    f"{_fmt_signed_ci(pair['unpaired_ci'])}); only A won "
                    f"{pair['only_a_won']:,} games, only B {pair['only_b_won']:,}</p>")
        return out

    def _plots(self, a, b) -> None:
        runs = [("A", a)] + ([("B", b)] if b is not None else [])
        outcome_rows, trap_rows, killer_rows = [], [], []
        for name, label in OUTCOMES:
            for tag, r in runs:
                n = r.outcome(name)
                low, high = wilson_interval(n, r.games)
                outcome_rows.append((label, tag, n / r.games, low, high,
                                     f"{tag} {label}: {n / r.games:.4f}"))
        played = [area for area in rules.AREA_NAMES
                  if any(r.rounds_by_area()[area] for _, r in runs)]
        for area in played:
            for tag, r in runs:
                rate = r.trap_rate_by_area()[area]
                if rate is None:
                    continue
                rounds = r.rounds_by_area()[area]
                low, high = wilson_interval(r.traps_by_area()[area], rounds)
                trap_rows.append((area, tag, rate, low, high,
                                  f"{tag} {area}: {rate:.3f} traps per round, {rounds:,} "
                                  f"rounds"))
        starts = sorted({k for _, r in runs for k in r.win_rate_by_killer_start()}, key=int)
        for k in starts:
            for tag, r in runs:
                games_k, rate = r.win_rate_by_killer_start().get(k, (0, None))
                if not games_k:
                    continue
                low, high = wilson_interval(round(rate * games_k), games_k)
                killer_rows.append((k, tag, rate, low, high,
                                    f"{tag} start {k}: {rate:.4f} over {games_k:,} games"))
        paired = b is not None
        _set_bars(self.outcome_fig, self.outcome_src, outcome_rows, paired)
        _set_bars(self.trap_fig, self.trap_src, trap_rows, paired)
        _set_bars(self.killer_fig, self.killer_src, killer_rows, paired)

    # --- luck of a position ---------------------------------------------------------------
    def _build_luck(self) -> None:
        self.position = pn.widgets.TextAreaInput(name="Position (JSON, as for slashersim luck "
                                                      "state)", value=EXAMPLE_POSITION,
                                                 height=420, width=520,
                                                 css_classes=["position"])
        self.luck_skill = pn.widgets.RadioButtonGroup(name="Skill level", options=list(SKILLS),
                                                      value="novice",
                                                      css_classes=["luck-skill"])
        self.playouts = pn.widgets.TextInput(name="Play-outs", value="20,000",
                                             css_classes=["playouts"])
        self.luck_seed = pn.widgets.TextInput(name="Seed", value="0",
                                              css_classes=["luck-seed"])
        self.luck_button = pn.widgets.Button(name="Win probability", button_type="primary",
                                             css_classes=["luck-run"])
        self.luck_button.on_click(lambda event: self.start_luck())
        self.luck_message = _message_pane("luck-message")
        self.luck_result = pn.pane.HTML("Describe a position and press Win probability.",
                                        css_classes=["luck-result"])
        self.luck_panel = pn.Row(
            self.position,
            pn.Column(pn.pane.Markdown("Play the position out many times, redrawing whatever "
                                       "is unknown, under the players of a skill level."),
                      pn.pane.Markdown("Skill level", margin=(0, 10)), self.luck_skill,
                      self.playouts, self.luck_seed, self.luck_button, self.luck_message,
                      self.luck_result, width=420))

    def start_luck(self) -> None:
        if self.luck_run is not None and not self.luck_run.finished:
            return
        try:
            games = _integer("play-outs", self.playouts.value, 1, MAX_PLAYOUTS)
            seed = parse_seed(self.luck_seed.value)
            position = parse_position_text(self.position.value)
        except ConfigError as e:
            _show_message(self.luck_message, str(e))
            self.luck_result.object = "No answer: fix the position or value above."
            return
        _show_message(self.luck_message, None)
        self.luck_run = LuckRun(position, self.luck_skill.value, games, seed).start()
        self.luck_button.disabled = True
        self.show_luck()
        if self.callback is None:
            self.callback = pn.state.add_periodic_callback(self.refresh, period=REFRESH_MS)

    def show_luck(self) -> None:
        r = self.luck_run
        if r.error:
            _show_message(self.luck_message, r.error)
        if not r.finished or r.result is None:
            note = f" &mdash; {html.escape(r.note)}" if r.note else ""
            self.luck_result.object = (f"<span class='luck-state'>"
                                       f"{'failed' if r.finished else 'playing'}</span>: "
                                       f"{r.done:,} of {r.games:,} play-outs{note}")
        else:
            x = r.result
            self.luck_result.object = (
                f"<span class='luck-state'>done</span>: {x['games']:,} play-outs, seed "
                f"{x['seed']}, policy {x['policy']}<br>win probability "
                f"<b class='luck-win'>{x['win_rate']:.4f}</b> 95% CI {_fmt_ci(x['win_ci'])}"
                f"<br>loss by health {x['loss_health']:.4f}, by traps "
                f"{x['loss_traps']:.4f}, timeout {x['timeout']:.4f}")
        if r.finished:
            self.luck_button.disabled = False

    def close(self) -> None:
        if self.run is not None:
            self.run.cancel()


def page():
    """A new page for a new browser session."""
    explorer = Explorer()
    pn.state.on_session_destroyed(lambda context: explorer.close())
    return explorer.layout()


def serve(port: int, open_browser: bool = False) -> None:
    """Serve the page on ``localhost:port`` until interrupted."""
    print(f"slashersim: the difficulty explorer is at http://localhost:{port}/ (Ctrl-C stops "
          f"it)", file=sys.stderr, flush=True)
    pn.serve({"/": page}, port=port, address="127.0.0.1", show=open_browser,
             websocket_origin=[f"localhost:{port}", f"127.0.0.1:{port}"],
             title="slashersim: difficulty explorer", threaded=False, print_url=False)
