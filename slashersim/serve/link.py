"""The page's link: every setting of the page in the URL (:func:`link_query`), and a link read
back into the page's values (:func:`parse_link`), each refused value named in the page's words.
The link also names the cards its answers are for (:class:`LinkCards`): a server playing other
cards says so (:func:`foreign_cards`) instead of answering. Pure Python, like :mod:`.settings`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
import re
import shlex
from typing import Any

from ..core.cards import PRINTED
from ..core.cards import load as load_cards
from ..core.errors import ConfigError
from ..policies import DEFAULT_SKILL, SKILLS
from .settings import (
    DEFAULTS,
    EXAMPLE_POSITION,
    MAX_GAMES,
    MAX_PLAYOUTS,
    check_luck,
    parse_flag,
    parse_integer,
    parse_seed,
    parse_settings,
    parse_why_games,
    preset_values,
    recognise,
)

#: a setting's fields as the link names them (setting B's with the prefix ``b_``)
SETTING_KEYS = ("edition", "difficulty", "health", "hideaway", "cursed_object",
                "escapes_needed", "traps", "skill")
KNOBS = ("health", "hideaway", "cursed_object", "escapes_needed", "traps")
#: the page's tabs as the link names them
TABS = ("difficulty", "luck")
#: the cards' keys of the link: the card file's name (or ``printed``) and its content's SHA-256
CARD_KEYS = ("cards", "cards_sha256")
#: the link's keys, in the order it lists them
LINK_KEYS = (*SETTING_KEYS, "side_by_side", *(f"b_{k}" for k in SETTING_KEYS), "games", "seed",
             "why_games", "luck_skill", "playouts", "luck_seed", "position", *CARD_KEYS, "tab")
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class LinkCards:
    """The cards a link's answers are for: the printed cards (``name`` ``printed``, no hash),
    or a card file by its file name and its content's SHA-256 (as ``CardSet.sha256``), the
    identity of the cards; as given when the link's values are refused."""

    name: str = PRINTED
    sha256: str | None = None

    @property
    def printed(self) -> bool:
        return self.name == PRINTED and self.sha256 is None

    def text(self) -> str:
        """``the printed cards`` or ``the card file bog.toml (sha256 3f2a9c1b0d4e)``."""
        if self.printed:
            return "the printed cards"
        return f"the card file {self.name} (sha256 {(self.sha256 or '')[:12]})"

    def command(self) -> str:
        """The command that serves these cards."""
        if self.printed:
            return "slashersim serve (without --cards)"
        return f"slashersim serve --cards {shlex.quote(self.name)}"


def served_cards(cards: str | None) -> LinkCards:
    """The :class:`LinkCards` of the card file ``cards`` a server plays (``None``: the printed
    cards): its file name without its folder, and its content's hash as read now."""
    played = load_cards(cards)
    if played.file is None:
        return LinkCards()
    return LinkCards(Path(played.file).name, played.sha256)


def check_cards(cards: LinkCards) -> str | None:
    """The refusal of a link's cards keys in one line, or ``None`` when they name cards."""
    if cards.printed:
        return None
    if cards.name == PRINTED:
        return f"cards=printed takes no cards_sha256, got {cards.sha256!r}"
    if not cards.name and cards.sha256 is not None:
        return ("cards_sha256 names a card file's content, and cards (the file's name) is "
                "missing")
    if not cards.name or cards.name != Path(cards.name).name or not cards.name.isprintable():
        return f"cards must be a card file's name (no folder) or printed, got {cards.name!r}"
    if cards.sha256 is None:
        return (f"the card file {cards.name!r} needs cards_sha256, the SHA-256 of its content "
                f"(64 hex digits)")
    if not _SHA256.fullmatch(cards.sha256):
        return (f"cards_sha256 must be the 64 hex digits of the card file's SHA-256, got "
                f"{cards.sha256!r}")
    return None


def foreign_cards(link: LinkCards, served: LinkCards) -> str | None:
    """The page's one line when a link's cards are not the cards this server plays (``None``:
    they are, by content, whatever the file's name): which cards the link was made for, which
    are served, and how to serve the link's; the page then answers nothing."""
    refusal = check_cards(link)
    if refusal is not None:
        return (f"This link's cards are unreadable ({refusal}), so the page answers nothing "
                f"for it. Open the page without the link for the cards served here, "
                f"{served.text()}.")
    if link.printed == served.printed and link.sha256 == served.sha256:
        return None
    same = (", the same file name with other content"
            if not link.printed and not served.printed and link.name == served.name else "")
    return (f"This link was made for {link.text()}, but this server plays {served.text()}"
            f"{same}, so the page answers nothing for it. Open the page without the link for "
            f"the cards served here, or serve the link's cards: {link.command()}")


def default_setting(edition: str = "rulebook") -> dict[str, Any]:
    """A setting's widget values as the page opens: the edition's own rules, the expert."""
    return {"edition": edition, "difficulty": DEFAULTS, **preset_values(None, edition),
            "skill": DEFAULT_SKILL}


@dataclass
class PageValues:
    """Every setting on the page as its widgets hold it: settings A and B (``edition``, the
    preset menu's ``difficulty``, the knobs and ``skill``), whether B is shown, games and seed
    as typed, the luck tab's skill, play-outs, seed and position, the cards the answers are
    for, and the tab shown."""

    a: dict = field(default_factory=default_setting)
    b: dict = field(default_factory=default_setting)
    side_by_side: bool = False
    games: str = "100,000"
    seed: str = "0"
    why_games: str = "200"
    luck_skill: str = DEFAULT_SKILL
    playouts: str = "20,000"
    luck_seed: str = "0"
    position: str = EXAMPLE_POSITION
    cards: LinkCards = LinkCards()
    tab: str = "difficulty"


def _count_text(text: str, check) -> str:
    """A typed count as the link writes it: plain digits when ``check`` takes it, else as
    typed (so the link refuses it as the page does)."""
    try:
        return str(check(text))
    except ConfigError:
        return str(text)


def _shown(text: str, show) -> str:
    """A count from the link as its box shows it (``100,000``), or as given if refused."""
    try:
        return show(text)
    except ConfigError:
        return text


def link_query(page: PageValues) -> dict[str, str]:
    """The link's query (key -> text, in :data:`LINK_KEYS` order) of ``page``: every setting,
    B's only when shown, the position only when it is not the example, and the cards (a card
    file's name and hash, or ``cards=printed``)."""
    q: dict[str, str] = {}
    sides = [("", page.a)] + ([("b_", page.b)] if page.side_by_side else [])
    for prefix, side in sides:
        for key in SETTING_KEYS:
            value = side[key]
            q[prefix + key] = ("in" if value else "out") if isinstance(value, bool) \
                else str(value)
        if not prefix:
            q["side_by_side"] = "on" if page.side_by_side else "off"
    q["games"] = _count_text(page.games, lambda v: parse_integer("games", v, 1, MAX_GAMES))
    q["seed"] = _count_text(page.seed, parse_seed)
    q["why_games"] = _count_text(page.why_games, parse_why_games)
    q["luck_skill"] = page.luck_skill
    q["playouts"] = _count_text(page.playouts,
                                lambda v: parse_integer("play-outs", v, 1, MAX_PLAYOUTS))
    q["luck_seed"] = _count_text(page.luck_seed, parse_seed)
    if page.position.strip() != EXAMPLE_POSITION.strip():
        q["position"] = page.position
    if page.cards.name:
        q["cards"] = page.cards.name
    if page.cards.sha256 is not None:
        q["cards_sha256"] = page.cards.sha256
    q["tab"] = page.tab
    return q


def _link_setting(query: Mapping[str, str], prefix: str,
                  errors: list[tuple[str, str]]) -> dict[str, Any]:
    """One setting of the link, each field checked by :func:`parse_settings` as a typed
    value is; a refused field keeps the page's default and its refusal joins ``errors``."""
    given = {k: query[prefix + k] for k in SETTING_KEYS if prefix + k in query}
    good: dict[str, Any] = {}
    for key in SETTING_KEYS:
        if key not in given:
            continue
        try:
            parse_settings({**good, key: given[key]})
        except ConfigError as e:
            errors.append(("difficulty", str(e)))
        else:
            good[key] = given[key]
    try:
        s = parse_settings(good)
    except ConfigError as e:
        errors.append(("difficulty", str(e)))
        s = parse_settings({"edition": good.get("edition", "rulebook")})
    knobs = {k: getattr(s, k) for k in KNOBS}
    return {"edition": s.edition, "difficulty": recognise(s.edition, knobs), **knobs,
            "skill": s.skill}


def parse_link(query: Mapping[str, str]) -> tuple[PageValues, list[tuple[str, str]]]:
    """The page a link opens: its :class:`PageValues` and the refusals ``(tab, message)``.

    ``query`` maps the link's keys to their text, as in the URL. The refusals are the page's
    own one-line messages for the same values typed. A refused knob, skill, flag or tab keeps
    the page's default (a slider cannot show ``abc``); games, seeds, play-outs and the
    position keep the text as given, as a typed value stays in its box, refused. A link
    without the cards' keys (made before links named them) is for the printed cards; refused
    cards' keys (under the tab ``cards``: the whole page) are kept as given."""
    errors: list[tuple[str, str]] = []
    for key in query:
        if key not in LINK_KEYS:
            errors.append(("difficulty", f"unknown setting {key!r} in the link; expected one "
                                         f"of: {', '.join(LINK_KEYS)}"))
    page = PageValues()
    page.a = _link_setting(query, "", errors)
    if "side_by_side" in query:
        try:
            page.side_by_side = parse_flag("side_by_side", query["side_by_side"], ("on", "off"))
        except ConfigError as e:
            errors.append(("difficulty", str(e)))
    if page.side_by_side or any(f"b_{k}" in query for k in SETTING_KEYS):
        page.b = _link_setting(query, "b_", errors)
    page.games = _shown(query.get("games", page.games),
                        lambda v: f"{parse_integer('games', v, 1, MAX_GAMES):,}")
    page.seed = _shown(query.get("seed", page.seed), lambda v: str(parse_seed(v)))
    try:
        parse_settings({"games": page.games, "seed": page.seed})
    except ConfigError as e:
        errors.append(("difficulty", str(e)))
    page.why_games = _shown(query.get("why_games", page.why_games),
                            lambda v: f"{parse_why_games(v):,}")
    try:
        parse_why_games(page.why_games)
    except ConfigError as e:
        errors.append(("difficulty", str(e)))
    page.luck_skill = _pick(query, "luck_skill", SKILLS, page.luck_skill, "luck", errors,
                            "unknown skill level {!r}; expected one of: " + ", ".join(SKILLS))
    page.playouts = _shown(query.get("playouts", page.playouts),
                           lambda v: f"{parse_integer('play-outs', v, 1, MAX_PLAYOUTS):,}")
    page.luck_seed = _shown(query.get("luck_seed", page.luck_seed),
                            lambda v: str(parse_seed(v)))
    page.position = query.get("position", page.position)
    try:
        check_luck(page.position, page.playouts, page.luck_seed)
    except ConfigError as e:
        errors.append(("luck", str(e)))
    if any(k in query for k in CARD_KEYS):
        sha256 = query.get("cards_sha256")
        page.cards = LinkCards(query.get("cards", ""),
                               None if sha256 is None else sha256.strip().lower())
        refusal = check_cards(page.cards)
        if refusal is not None:
            errors.append(("cards", refusal))
    page.tab = _pick(query, "tab", TABS, page.tab, "difficulty", errors,
                     "tab must be one of: " + ", ".join(TABS) + "; got {!r}")
    return page, errors


def _pick(query, key, allowed, current, tab, errors, refusal):
    """``query[key]`` if it is one of ``allowed``; else ``current``, and ``refusal`` (a format
    of the value given) noted under ``tab``."""
    if key not in query:
        return current
    if query[key] in allowed:
        return query[key]
    errors.append((tab, refusal.format(query[key])))
    return current
