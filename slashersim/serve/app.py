"""The page of ``slashersim serve``: a Panel app, one instance per browser session.

Each browser gets its own widgets, runs and answers (Panel builds the page anew for every
session); the games are played by :mod:`slashersim.serve.live` in background threads, and a
periodic callback of the session (every :data:`REFRESH_MS`) shows the numbers so far. Panel
serves Bokeh's JavaScript from the Python packages: the page loads nothing from elsewhere.

Every setting is in the page's link (:func:`~slashersim.serve.link.link_query`), kept up to
date through Panel's ``pn.state.location``; opening the link sets the same values, refusing
a bad one in the page's own words. The link names the cards its answers are for: opened on a
server that plays other cards, the page says so at the top and answers nothing. A shown answer
belongs to the settings on screen: once they change, it is marked stale until the next run.
"""
from __future__ import annotations

from collections.abc import Sequence
import html
import sys
from typing import Any
from urllib.parse import parse_qsl, urlencode

from bokeh.models import ColumnDataSource, FactorRange, HoverTool
from bokeh.plotting import figure
import panel as pn

from ..core import rules
from ..core.cards import load as load_cards
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.stats import wilson_interval
from ..policies import DEFAULT_SKILL, PAIR, SKILLS
from ..present.text import CI_WORDS, area_names, cards_line, policy_words
from .grid import (
    GRID_TABLES,
    PRESETS_TABLE,
    Table,
    grid,
    health_curves,
)
from .link import (
    KNOBS,
    TABS,
    LinkCards,
    PageValues,
    foreign_cards,
    link_query,
    parse_link,
    served_cards,
)
from .live import LiveRun, LuckRun
from .settings import (
    CUSTOM,
    DEFAULTS,
    EXAMPLE_POSITION,
    Settings,
    check_luck,
    is_stale,
    luck_identity,
    parse_settings,
    player_label,
    preset_menu,
    preset_values,
    recognise,
    run_identity,
)
from .why_panel import WhyPanel
from .widgets import (
    FOREIGN,
    fmt_ci,
    fmt_signed_ci,
    mark,
    message_pane,
    show_message,
    stale_pane,
)

#: how often a session's page shows the numbers of its running games
REFRESH_MS = 300
COLOURS = ("#c0392b", "#2471a3")
OUTCOMES = (("win", "win"), ("loss_health", "lost by health"), ("loss_traps", "lost by traps"),
            ("timeout", "no end"))
SKILL_COLOURS = {"novice": "#7f8c8d", "casual": "#2471a3", "expert": "#c0392b"}
STALE = "stale: settings changed since this run &mdash; press Run for the settings on screen"
LUCK_STALE = ("stale: settings changed since this answer &mdash; press Win probability for "
              "the settings on screen")
#: the partner choice that makes no pair: seat 1 plays at seat 0's skill level
SAME = "same"


class SettingWidgets:
    """The knobs of one setting: edition, difficulty preset, health, Hideaway, Cursed Object,
    escapes needed, traps and skill level. Choosing a preset, the edition's defaults or an
    edition sets the knobs to its values; the menu then names whatever the knobs equal (a
    preset, the edition's ``defaults``), and ``custom`` anything else. ``on_change`` is
    called once per change by the user, not for each knob a preset moves."""

    def __init__(self, tag: str, on_change):
        self.tag = tag
        self.on_change = on_change
        self._setting = False
        css = lambda name: [f"{name}-{tag}", name]  # noqa: E731
        self.edition = pn.widgets.Select(name="Edition", options=list(rules.EDITION_NAMES),
                                         value="rulebook", css_classes=css("edition"))
        self.difficulty = pn.widgets.Select(name="Difficulty preset",
                                            options=preset_menu("rulebook"),
                                            value=DEFAULTS, css_classes=css("difficulty"))
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
                                                 value=DEFAULT_SKILL, button_type="default",
                                                 css_classes=css("skill"))
        #: seat 1's skill level when it differs from seat 0's (a mixed pair), else "same"
        self.partner = pn.widgets.RadioButtonGroup(name="Partner", options=[SAME, *SKILLS],
                                                   value=SAME, button_type="default",
                                                   css_classes=css("partner"))
        self.knobs = (self.health, self.hideaway, self.cursed_object, self.escapes_needed,
                      self.traps)
        self.edition.param.watch(self._preset, "value")
        self.difficulty.param.watch(self._preset, "value")
        for w in self.knobs:
            w.param.watch(self._knob, "value")
        for w in (self.edition, self.difficulty, *self.knobs, self.skill, self.partner):
            w.param.watch(self._changed, "value")

    def _changed(self, event) -> None:
        if not self._setting:
            self.on_change()

    def _preset(self, event) -> None:
        """An edition or a menu entry chosen: offer the edition's presets, set the knobs to
        the entry's values (an edition keeps its preset, else takes its defaults), name them."""
        if self._setting:
            return
        self._setting = True
        try:
            edition = self.edition.value
            label = self.difficulty.value
            menu = preset_menu(edition)
            if label not in menu:
                label = DEFAULTS
            if self.difficulty.options != menu:
                self.difficulty.options = menu
            if label != CUSTOM or event.obj is self.edition:
                name = None if label in (CUSTOM, DEFAULTS) else label
                for key, value in preset_values(name, edition).items():
                    getattr(self, key).value = value
            self.difficulty.value = recognise(edition, self.values_of_knobs())
        finally:
            self._setting = False

    def _knob(self, event) -> None:
        """A knob changed by hand: the menu names what the knobs now equal."""
        if self._setting:
            return
        self._setting = True
        try:
            self.difficulty.value = recognise(self.edition.value, self.values_of_knobs())
        finally:
            self._setting = False

    def set_values(self, values: dict[str, Any]) -> None:
        """Set every widget at once (a link opened), without calling ``on_change``."""
        self._setting = True
        try:
            self.edition.value = values["edition"]
            self.difficulty.options = preset_menu(values["edition"])
            for key in KNOBS:
                getattr(self, key).value = values[key]
            seat0, _, seat1 = values["skill"].partition(PAIR)
            self.skill.value, self.partner.value = seat0, seat1 or SAME
            self.difficulty.value = recognise(values["edition"], self.values_of_knobs())
        finally:
            self._setting = False

    def values_of_knobs(self) -> dict[str, Any]:
        return {"health": self.health.value, "hideaway": self.hideaway.value,
                "cursed_object": self.cursed_object.value,
                "escapes_needed": self.escapes_needed.value, "traps": self.traps.value}

    def values(self) -> dict[str, Any]:
        """The setting for :func:`parse_settings` (the menu's preset, if it names one)."""
        label = self.difficulty.value
        difficulty = None if label in (CUSTOM, DEFAULTS) else label
        return {"edition": self.edition.value, "difficulty": difficulty,
                **self.values_of_knobs(),
                "skill": self.skill.value + ("" if self.partner.value == SAME
                                             else PAIR + self.partner.value)}

    def page_values(self) -> dict[str, Any]:
        """The setting as the link writes it (the menu's label as shown)."""
        return {**self.values(), "difficulty": self.difficulty.value}

    def panel(self, title: str):
        return pn.Column(pn.pane.Markdown(f"#### {title}", margin=(0, 10)), self.edition,
                         self.difficulty, self.health, self.hideaway, self.cursed_object,
                         self.escapes_needed, self.traps,
                         pn.pane.Markdown("Skill level", margin=(0, 10)), self.skill,
                         pn.pane.Markdown("Partner's skill level (seat 1)", margin=(0, 10)),
                         self.partner)

    def disable(self, off: bool) -> None:
        for w in (self.edition, self.difficulty, *self.knobs, self.skill, self.partner):
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


def _health_figure():
    """Win rate by starting health, one line per skill level with its 95 % intervals; the
    sources are named ``health-<skill>`` (the tests read them in the browser)."""
    fig = figure(height=300, width=840, title="", toolbar_location=None, tools="",
                 name="health-figure",
                 x_range=(0.5, rules.MAX_HEALTH + 0.5), y_range=(0, 1))
    sources = {}
    for skill in SKILLS:
        src = ColumnDataSource({"x": [], "health": [], "value": [], "low": [], "high": [],
                                "text": []}, name=f"health-{skill}")
        colour = SKILL_COLOURS[skill]
        label = player_label(skill)
        fig.line(x="x", y="value", source=src, color=colour, line_width=2, legend_label=label)
        fig.scatter(x="x", y="value", source=src, color=colour, size=6, legend_label=label)
        fig.segment(x0="x", y0="low", x1="x", y1="high", source=src, color=colour,
                    line_width=1.5, legend_label=label)
        sources[skill] = src
    fig.add_tools(HoverTool(tooltips=[("", "@text")]))
    fig.xaxis.ticker = list(range(1, rules.MAX_HEALTH + 1))
    fig.legend.location = "top_left"
    return fig, sources


class Explorer:
    """One browser session's page.

    ``tables`` are the precomputed grid's tables (the committed results by default);
    ``location`` is where the link lives (``pn.state.location`` of the session by default;
    ``None`` outside a server: no link)."""

    def __init__(self, tables: Sequence[Table] = GRID_TABLES, location: Any = "session",
                 cards: str | None = None):
        #: the card file every answer plays under (``slashersim serve --cards``): the grid,
        #: played with the printed cards, then answers nothing
        self.cards = cards
        #: the cards this server plays, and those of the page's link (the server's unless a
        #: link names others); while they differ the page answers nothing
        self.served = served_cards(cards)
        self.link_cards: LinkCards = self.served
        self.foreign: str | None = None
        self.run: LiveRun | None = None
        self.commands: list[tuple[str, Settings]] = []
        self.luck_run: LuckRun | None = None
        self.callback = None
        self.grid = None if cards is not None else grid(tuple(tables))
        self.location = pn.state.location if location == "session" else location
        self._applying = False
        #: what decides the games of the run shown, and of the luck answer shown
        self.shown_run: tuple | None = None
        self.shown_luck: tuple | None = None
        self.a = SettingWidgets("a", self.settings_changed)
        self.b = SettingWidgets("b", self.settings_changed)
        self.side_by_side = pn.widgets.Checkbox(name="Side by side with setting B (the same "
                                                     "games)", value=False,
                                                css_classes=["side-by-side"])
        self.games = pn.widgets.TextInput(name="Games", value=PageValues.games,
                                          css_classes=["games"])
        self.seed = pn.widgets.TextInput(name="Seed", value=PageValues.seed,
                                         css_classes=["seed"])
        self.run_button = pn.widgets.Button(name="Run", button_type="primary",
                                            css_classes=["run"])
        self.stop_button = pn.widgets.Button(name="Stop", button_type="default",
                                             disabled=True, css_classes=["stop"])
        self.run_button.on_click(lambda event: self.start())
        self.stop_button.on_click(lambda event: self.stop())
        self.side_by_side.param.watch(self._toggle_b, "value")
        for w in (self.games, self.seed):
            w.param.watch(lambda event: self.settings_changed(), "value")
        self.message = message_pane("message")
        self.foreign_pane = message_pane("foreign-cards")
        self.status = pn.pane.HTML("Choose the settings and press Run.",
                                   css_classes=["status"])
        self.progress = pn.indicators.Progress(name="games played", value=0, max=100,
                                               width=420, bar_color="primary", visible=False,
                                               css_classes=["run-progress"])
        self.precomputed = pn.pane.HTML("", css_classes=["precomputed"])
        self.health_fig, self.health_src = _health_figure()
        self.health_caption = pn.pane.HTML("", css_classes=["health-caption"], width=840)
        self.stale = stale_pane("stale", STALE)
        self.results = pn.pane.HTML("", css_classes=["results"])
        self.outcome_fig, self.outcome_src = _bar_figure("How games end", "share of games")
        self.trap_fig, self.trap_src = _bar_figure("Traps set off per round, by area",
                                                   "traps per round played")
        self.killer_fig, self.killer_src = _bar_figure("Win rate by the Killer's start in the "
                                                       "first item deck (1 = top)", "win rate")
        self.output = pn.Column(self.results, pn.Row(self.outcome_fig, self.trap_fig),
                                pn.Row(self.killer_fig), css_classes=["run-output"])
        self.b_panel = self.b.panel("Setting B")
        self.b_panel.visible = False
        self.why = WhyPanel(self)
        self._build_luck()
        self.tabs = pn.Tabs(("Difficulty", self._explore_panel()),
                            ("Luck of a position", self.luck_panel))
        self.tabs.param.watch(lambda event: self.write_link(), "active")
        search = getattr(self.location, "search", "") or ""
        query = dict(parse_qsl(search.lstrip("?"), keep_blank_values=True))
        if query:
            self.open_link(query)
        if self.foreign:
            self.status.object = FOREIGN
            self.luck_result.object = FOREIGN
        self.show_precomputed()
        self.show_health()

    # --- layout ---------------------------------------------------------------------------
    def _explore_panel(self):
        controls = pn.Column(self.a.panel("Setting A"), self.side_by_side, self.b_panel,
                             self.games, self.seed, pn.Row(self.run_button, self.stop_button),
                             width=330)
        out = pn.Column(self.message, self.precomputed,
                        pn.Column(self.health_fig, self.health_caption,
                                  css_classes=["health-figure"]),
                        self.status, self.progress, self.stale, self.output, self.why.panel)
        return pn.Row(controls, out)

    def layout(self):
        header = pn.pane.Markdown(
            "## slashersim: how hard is The Slasher?\n"
            "Choose the rules and the players' skill; the games are played live (the numbers "
            "refine as they finish) and match `slashersim simulate` for the same seed. "
            "Settings in the committed grid answer at once. The address bar holds every "
            "setting and names the cards: share it and the page opens with the same settings "
            "and games (a server playing other cards says so and answers nothing).",
            margin=(0, 10))
        if self.cards is None:
            return pn.Column(header, self.foreign_pane, self.tabs)
        changed = pn.pane.HTML(f"<p><b>{html.escape(cards_line(self.cards))}</b>: every answer "
                               f"on this page plays these cards, not the printed game.</p>",
                               css_classes=["changed-cards"])
        return pn.Column(header, changed, self.foreign_pane, self.tabs)

    def _toggle_b(self, event) -> None:
        self.b_panel.visible = bool(event.new)
        self.settings_changed()

    # --- the link -------------------------------------------------------------------------
    def page_values(self) -> PageValues:
        """Every setting on the page, as its widgets hold it."""
        return PageValues(a=self.a.page_values(), b=self.b.page_values(),
                          side_by_side=self.side_by_side.value, games=self.games.value,
                          seed=self.seed.value, why_games=self.why.games.value,
                          luck_skill=self.luck_skill.value,
                          playouts=self.playouts.value, luck_seed=self.luck_seed.value,
                          position=self.position.value, cards=self.link_cards,
                          tab=TABS[self.tabs.active])

    def open_link(self, query: dict[str, str]) -> None:
        """Set the widgets to a link's settings; refused values are said as if typed. A link
        for other cards than the server's is said at the top, and keeps its cards in the
        link (the page answers nothing for it)."""
        values, errors = parse_link(query)
        self.foreign = foreign_cards(values.cards, self.served)
        self.link_cards = values.cards if self.foreign else self.served
        show_message(self.foreign_pane, self.foreign)
        self._applying = True
        try:
            self.a.set_values(values.a)
            self.b.set_values(values.b)
            self.side_by_side.value = values.side_by_side
            self.b_panel.visible = values.side_by_side
            self.games.value, self.seed.value = values.games, values.seed
            self.why.games.value = values.why_games
            self.luck_skill.value = values.luck_skill
            self.playouts.value, self.luck_seed.value = values.playouts, values.luck_seed
            self.position.value = values.position
            self.tabs.active = TABS.index(values.tab)
        finally:
            self._applying = False
        page_errors = [m for tab, m in errors if tab == "difficulty"]
        luck_errors = [m for tab, m in errors if tab == "luck"]
        self.say(page_errors or None)
        show_message(self.luck_message, luck_errors or None)
        if page_errors:
            self.status.object = "Nothing played: fix the value above."
        if luck_errors:
            self.luck_result.object = "No answer: fix the position or value above."

    def write_link(self) -> None:
        """Put every setting on screen in the page's link (the address bar)."""
        if self.location is None or self._applying:
            return
        search = "?" + urlencode(link_query(self.page_values()))
        if self.location.search != search:
            self.location.search = search

    # --- settings -------------------------------------------------------------------------
    def settings(self) -> tuple[Settings, Settings | None]:
        """The settings of the widgets, checked (a :class:`ConfigError` names a bad value)."""
        common = {"games": self.games.value, "seed": self.seed.value, "cards": self.cards}
        a = parse_settings({**self.a.values(), **common})
        b = parse_settings({**self.b.values(), **common}) if self.side_by_side.value else None
        return a, b

    def identity(self) -> tuple | None:
        """What decides the games of the settings on screen (``None``: a value is refused)."""
        try:
            return run_identity(*self.settings())
        except ConfigError:
            return None

    def settings_changed(self) -> None:
        """A setting changed: the grid's answer and the health figure follow it, a shown
        run of other settings is marked stale, the link says it."""
        if self._applying:
            return
        self.show_precomputed()
        self.show_health()
        self.mark_stale()
        self.write_link()

    def mark_stale(self) -> None:
        mark(self.stale, self.output, is_stale(self.shown_run, self.identity()))
        if hasattr(self, "why"):
            self.why.mark_stale()

    def say(self, text) -> None:
        show_message(self.message, text)

    def show_precomputed(self) -> None:
        """The grid's answer for the rules and players as they stand (whatever the games and
        seed), at once; each line names its player first. Nothing while the link's cards
        are not the server's."""
        if self.foreign:
            self.precomputed.object = ""
            return
        try:
            cards = {"cards": self.cards}
            a = parse_settings({**self.a.values(), **cards})
            b = parse_settings({**self.b.values(), **cards}) if self.side_by_side.value \
                else None
        except ConfigError:
            self.precomputed.object = ""
            return
        table = self.grid
        lines = []
        for tag, s in (("A", a), ("B", b)):
            if s is None:
                continue
            head = f"<b>{tag}</b> <span class='grid-player-{tag.lower()}'>{s.player}</span>"
            if table is None and self.cards is not None:
                lines.append(f"{head}: no precomputed answer under changed cards (the grid "
                             f"holds the printed game) &mdash; press Run")
                continue
            if table is None:
                lines.append(f"{head}: no precomputed grid here (results/difficulty.parquet, "
                             f"which the package ships, is not found) &mdash; press Run")
                continue
            answer = table.lookup(s)
            if answer is None:
                missing = ""
                if s.difficulty and not any("difficulty" in t.axes for t in table.tables):
                    missing = (f"; the presets are answered once results/"
                               f"{PRESETS_TABLE.name} is made")
                lines.append(f"{head}: not in the precomputed grid (it covers "
                             f"{html.escape(table.covers())}, each with the edition's other "
                             f"rules{missing}) &mdash; press Run")
                continue
            lines.append(
                f"{head}: win rate <span class='grid-win-rate-{tag.lower()}'>"
                f"{answer.win_rate:.4f}</span> 95% CI {fmt_ci(answer.win_ci)}; lost by health "
                f"{answer.loss_health:.4f}, by traps {answer.loss_traps:.4f} "
                f"<i>({answer.label()}, {html.escape(answer.source)})</i>")
        self.precomputed.object = "<div class='grid'>" + "<br>".join(lines) + "</div>"

    def show_health(self) -> None:
        """Win rate by starting health of every skill level for setting A's edition and
        areas, from the grid; none while the link's cards are not the server's."""
        if self.foreign:
            with pn.io.unlocked():
                for src in self.health_src.values():
                    src.data = {k: [] for k in src.data}
            self.health_caption.object = FOREIGN
            return
        if self.grid is None and self.cards is not None:
            self.health_caption.object = ("The precomputed grid holds the printed game, not "
                                          "these changed cards: no figure.")
            return
        if self.grid is None:
            self.health_caption.object = ("No precomputed grid here (results/difficulty.parquet, "
                                          "which the package ships, is not found).")
            return
        a = self.a
        curves = health_curves(self.grid, a.edition.value, a.hideaway.value,
                               a.cursed_object.value)
        offsets = dict(zip(SKILLS, (-0.12, 0.0, 0.12)))
        with pn.io.unlocked():   # a widget's callback changes the figure's Bokeh models
            for skill, src in self.health_src.items():
                pts = curves.points[skill]
                src.data = {"x": [h + offsets[skill] for h, *_ in pts],
                            "health": [h for h, *_ in pts], "value": [p[1] for p in pts],
                            "low": [p[2] for p in pts], "high": [p[3] for p in pts],
                            "text": [f"{player_label(skill)}, health {h}: {r:.4f} "
                                     f"[{lo:.4f}, {hi:.4f}]" for h, r, lo, hi in pts]}
            self.health_fig.title.text = curves.title
            self.health_fig.xaxis.axis_label = curves.x_label
            self.health_fig.yaxis.axis_label = curves.y_label
        own = GameConfig(edition=a.edition.value).resolved()
        e, t = a.escapes_needed.value, a.traps.value
        differ = [f"{e} escape{'s' * (e != 1)} needed" if e != own["escapes_needed"] else "",
                  (f"{t} traps lose" if t != 1 else "1 trap loses") if t != own["traps"]
                  else ""]
        differ = " and ".join(d for d in differ if d)
        note = (f" Setting A has {differ}: the curves are not of its rules." if differ else "")
        self.health_caption.object = (f"<p class='health-caption-text'>"
                                      f"{html.escape(curves.caption + note)}</p>")

    # --- runs -----------------------------------------------------------------------------
    def start(self) -> None:
        """Play the settings on screen; a refused value, or a link for other cards than the
        server's, plays nothing and leaves no bar."""
        self.stop()
        if self.foreign:
            self.run = None
            self.status.object = FOREIGN
            return
        try:
            a, b = self.settings()
        except ConfigError as e:
            self.run = None
            self.say(str(e))
            self.status.object = "Nothing played: fix the value above."
            self.progress.value = 0
            self.progress.visible = False
            self.mark_stale()
            return
        self.say(None)
        self.commands = [("A", a), ("B", b)] if b is not None else [("A", a)]
        self.shown_run = run_identity(a, b)
        self._clear_output()
        self.mark_stale()
        self.run = LiveRun(a, b).start()
        self.status.object = html.escape(self.run.note or "playing ...")
        self.progress.value = 0
        self.progress.visible = True
        self.run_button.disabled = False
        self.stop_button.disabled = False
        if self.callback is None:
            self.callback = pn.state.add_periodic_callback(self.refresh, period=REFRESH_MS)

    def keep_refreshing(self) -> None:
        """Show the running answers' numbers as they come (the session's periodic callback)."""
        if self.callback is None:
            self.callback = pn.state.add_periodic_callback(self.refresh, period=REFRESH_MS)

    def stop(self) -> None:
        if self.run is not None:
            self.run.cancel()

    def _clear_output(self) -> None:
        """No numbers of an earlier run beside a new run's."""
        self.results.object = ""
        with pn.io.unlocked():
            for fig, src in ((self.outcome_fig, self.outcome_src),
                             (self.trap_fig, self.trap_src), (self.killer_fig, self.killer_src)):
                _set_bars(fig, src, [], False)

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
        self.why.show()
        busy = busy or self.why.busy
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
        """The run's numbers; the first line names the players."""
        settings = dict(self.commands)
        rows = []
        for tag, r in (("A", a), ("B", b)):
            if r is None:
                continue
            s = r.summary()
            rows.append(
                f"<tr><td><b>{tag}</b></td><td>{html.escape(player_label(settings[tag].skill))}"
                f"</td><td class='win-rate-{tag.lower()}'>"
                f"{s['win_rate']:.4f}</td><td>{fmt_ci(s['win_ci'])}</td>"
                f"<td>{s['loss_health']:.4f}</td><td>{s['loss_traps']:.4f}</td>"
                f"<td>{s['timeout']:.4f}</td><td>{s['mean_rounds']:.2f}</td>"
                f"<td class='games-{tag.lower()}'>{s['games']:,}</td></tr>")
        out = ("<p class='player'>" + "; ".join(
            f"{tag}: {html.escape(s.player)}" for tag, s in self.commands) + "</p>"
            "<table class='summary'><tr><th></th><th>player</th><th>win rate</th><th>95% CI</th>"
               "<th>lost by health</th><th>lost by traps</th><th>no end</th>"
               "<th>mean rounds</th><th>games</th></tr>" + "".join(rows) + "</table>"
               f"<p class='legend'>win rate: the share of games won; {CI_WORDS}. lost by "
               "health: the Killer took a player's last health; lost by traps: the last trap "
               "was set off; no end: no end within the round limit (shares of all games).</p>")
        out += "".join(f"<div>{tag}: {html.escape(s.describe())} &mdash; the same games: "
                       f"<code class='command-{tag.lower()}'>{html.escape(s.command())}"
                       f"</code></div>" for tag, s in self.commands)
        if pair is not None:
            out += (f"<p>B &minus; A on the same {pair['games']:,} games: "
                    f"<b class='difference'>{pair['difference']:+.4f}</b>, paired 95% CI "
                    f"{fmt_signed_ci(pair['difference_ci'])} (independent runs would give "
                    f"{fmt_signed_ci(pair['unpaired_ci'])}); only A won "
                    f"{pair['only_a_won']:,} games, only B {pair['only_b_won']:,}. Paired: A "
                    f"and B played the very same games, so the luck of the cards cancels out "
                    f"of the difference.</p>")
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
        played = [area for area in dict.fromkeys(x for _, r in runs for x in r.areas)
                  if any(r.rounds_by_area().get(area) for _, r in runs)]
        titles = area_names(a.config.describe())
        for area in played:
            for tag, r in runs:
                rate = r.trap_rate_by_area()[area]
                if rate is None:
                    continue
                rounds = r.rounds_by_area()[area]
                low, high = wilson_interval(r.traps_by_area()[area], rounds)
                trap_rows.append((titles[area], tag, rate, low, high,
                                  f"{tag} {titles[area]}: {rate:.3f} traps per round, {rounds:,} "
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
                                                      value=DEFAULT_SKILL,
                                                      css_classes=["luck-skill"])
        self.playouts = pn.widgets.TextInput(name="Play-outs", value=PageValues.playouts,
                                             css_classes=["playouts"])
        self.luck_seed = pn.widgets.TextInput(name="Seed", value=PageValues.luck_seed,
                                              css_classes=["luck-seed"])
        self.luck_button = pn.widgets.Button(name="Win probability", button_type="primary",
                                             css_classes=["luck-run"])
        self.luck_button.on_click(lambda event: self.start_luck())
        self.luck_player = player_label(DEFAULT_SKILL)
        self.luck_message = message_pane("luck-message")
        self.luck_result = pn.pane.HTML("Describe a position and press Win probability.",
                                        css_classes=["luck-result"])
        self.luck_stale = stale_pane("luck-stale", LUCK_STALE)
        self.luck_output = pn.Column(self.luck_result, css_classes=["luck-output"])
        for w in (self.position, self.luck_skill, self.playouts, self.luck_seed):
            w.param.watch(lambda event: self.luck_changed(), "value")
        self.luck_panel = pn.Row(
            self.position,
            pn.Column(pn.pane.Markdown("Play the position out many times, redrawing whatever "
                                       "is unknown, under the players of a skill level."),
                      pn.pane.Markdown("Skill level", margin=(0, 10)), self.luck_skill,
                      self.playouts, self.luck_seed, self.luck_button, self.luck_message,
                      self.luck_stale, self.luck_output, width=420))

    def luck_key(self) -> tuple | None:
        return luck_identity(self.position.value, self.luck_skill.value, self.playouts.value,
                             self.luck_seed.value)

    def luck_changed(self) -> None:
        """A luck setting changed: a shown answer of other settings is marked stale."""
        if self._applying:
            return
        mark(self.luck_stale, self.luck_output, is_stale(self.shown_luck,
                                                          self.luck_key()))
        self.write_link()

    def start_luck(self) -> None:
        if self.luck_run is not None and not self.luck_run.finished:
            return
        if self.foreign:
            self.luck_result.object = FOREIGN
            return
        try:
            position, games, seed = check_luck(self.position.value, self.playouts.value,
                                               self.luck_seed.value, self.cards)
        except ConfigError as e:
            show_message(self.luck_message, str(e))
            self.luck_result.object = "No answer: fix the position or value above."
            self.shown_luck = None
            mark(self.luck_stale, self.luck_output, False)
            return
        show_message(self.luck_message, None)
        self.luck_player = player_label(self.luck_skill.value)
        self.shown_luck = self.luck_key()
        mark(self.luck_stale, self.luck_output, False)
        self.luck_run = LuckRun(position, self.luck_skill.value, games, seed).start()
        self.luck_button.disabled = True
        self.show_luck()
        if self.callback is None:
            self.callback = pn.state.add_periodic_callback(self.refresh, period=REFRESH_MS)

    def show_luck(self) -> None:
        r = self.luck_run
        if r.error:
            show_message(self.luck_message, r.error)
        player = f"<p class='luck-player'>{html.escape(self.luck_player)}</p>"
        if not r.finished or r.result is None:
            note = f" &mdash; {html.escape(r.note)}" if r.note else ""
            self.luck_result.object = (f"{player}<span class='luck-state'>"
                                       f"{'failed' if r.finished else 'playing'}</span>: "
                                       f"{r.done:,} of {r.games:,} play-outs{note}")
        else:
            x = r.result
            self.luck_result.object = (
                f"{player}<span class='luck-state'>done</span>: {x['games']:,} play-outs, seed "
                f"{x['seed']}, policy {html.escape(policy_words(x['policy']))}<br>win "
                f"probability "
                f"<b class='luck-win'>{x['win_rate']:.4f}</b> 95% CI {fmt_ci(x['win_ci'])}"
                f"<br>lost by health {x['loss_health']:.4f}, by traps "
                f"{x['loss_traps']:.4f}, no end {x['timeout']:.4f}")
        if r.finished:
            self.luck_button.disabled = False

    def close(self) -> None:
        if self.run is not None:
            self.run.cancel()


def page(cards: str | None = None):
    """A new page for a new browser session (every answer under the card file ``cards``)."""
    explorer = Explorer(cards=cards)
    pn.state.on_session_destroyed(lambda context: explorer.close())
    pn.state.onload(explorer.write_link)
    return explorer.layout()


def serve(port: int, open_browser: bool = False, cards: str | None = None) -> None:
    """Serve the page on ``localhost:port`` until interrupted; with ``cards``, every answer
    plays that card file as it is read now, once, for every session, whatever the file holds
    later (the precomputed grid, of the printed game, is off)."""
    print(f"slashersim: the difficulty explorer is at http://localhost:{port}/ (Ctrl-C stops "
          f"it)", file=sys.stderr, flush=True)
    played = None if cards is None else load_cards(cards)

    def session():
        return page(played)

    pn.serve({"/": session}, port=port, address="127.0.0.1",
             show=open_browser, websocket_origin=[f"localhost:{port}", f"127.0.0.1:{port}"],
             title="slashersim: difficulty explorer", threaded=False, print_url=False)
