"""What the page asks for, checked in pure Python (nothing here imports the web libraries or
compiles a kernel): the settings of a run and their configuration and policy, the port of the
server, a position typed as JSON, the name of a preset a setting equals, and whether a shown
result still belongs to the settings on screen. The page's link is :mod:`.link`, the
precomputed grid :mod:`.grid`.

Every refusal is a :class:`~slashersim.core.config.ConfigError` (a ``ValueError``) in one line
naming the value and what is allowed, the same rules as the command line's: the page shows the
message and the server keeps running.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
import json
import shlex
import socket
from typing import Any

from .. import api
from ..core import rules
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.inputs import SEED_LIMIT, parse_port  # noqa: F401 (the page's port rule)
from ..core.presets import DIFFICULTIES, load_presets
from ..policies import DEFAULT_SKILL, PAIR, SKILLS, resolve
from ..present.text import cards_line, plural
from .grid import config_key

#: the port ``slashersim serve`` listens on unless ``--port`` says otherwise
DEFAULT_PORT = 5006
#: the most games one run of the page plays (a run refines live; the command line has no cap)
MAX_GAMES = 10_000_000
#: the most play-outs of one position in the luck panel
MAX_PLAYOUTS = 1_000_000
#: the most games the page walks back for "why games are lost" (each lost one is solved)
MAX_WHY_GAMES = 10_000
#: the preset menu's name for the edition's own rules, and for any other setting
DEFAULTS = "defaults"
CUSTOM = "custom"
#: the position the luck panel starts with (``experiments/state_example.json``)
EXAMPLE_POSITION = """{
  "config": {"edition": "rulebook", "health": 7},
  "round": 3,
  "areas_seen": ["lodge", "tent_site"],
  "area": "woodland",
  "leader": 1,
  "health": [5, 6],
  "traps": 1,
  "killer_draws": 1,
  "items": [["map"], ["car_key", "lucky_charm"]],
  "item_deck": {
    "discard": ["flashlight", "backpack"],
    "gone": ["cursed_object"],
    "top": [],
    "killer_position": null
  },
  "hands": [["white 1", "white 4", "green 2", "green 5",
             "yellow 3", "yellow 4", "red 1", "red 5"], null],
  "trump": "yellow"
}
"""


# --- the server's port ---------------------------------------------------------------------

def check_port_free(port: int, host: str = "127.0.0.1") -> int:
    """``port`` after checking that nothing listens on it at ``host`` (binding and letting go
    at once, as the server will bind it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            raise ConfigError(f"port {port} is in use ({e.strerror or e}); choose another with "
                              f"--port") from None
    return port


# --- the settings of a run -----------------------------------------------------------------

def parse_integer(name: str, value: Any, low: int, high: int) -> int:
    """An integer ``low..high`` from a widget value: an int, or text such as ``"2,000"``."""
    if isinstance(value, bool):
        raise ConfigError(f"{name} must be an integer {low:,}..{high:,}, got {value!r}")
    if isinstance(value, str):
        text = value.strip().replace(",", "").replace("_", "")
        try:
            value = int(text, 10)
        except ValueError:
            raise ConfigError(f"{name} must be an integer {low:,}..{high:,}, got "
                              f"{value!r}") from None
    elif isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{name} must be an integer {low:,}..{high:,}, got {value!r}")
    return value


def parse_why_games(value: Any) -> int:
    """The games "why games are lost" plays, as typed: ``1 ..`` :data:`MAX_WHY_GAMES`."""
    return parse_integer("games to walk back", value, 1, MAX_WHY_GAMES)


def parse_seed(value: Any) -> int:
    """A seed 0 <= S < 2**63 (the command line's rule) from a widget value."""
    try:
        return parse_integer("seed", value, 0, SEED_LIMIT - 1)
    except ConfigError:
        raise ConfigError(f"seed must be an integer 0 <= seed < 2**63, got {value!r}") from None


def parse_flag(name: str, value: Any, words: tuple[str, str] = ("in", "out")) -> bool:
    """A yes/no from a widget or the link: ``True``/``False`` or one of the usual words."""
    if isinstance(value, bool):
        return value
    if value in ("in", "on", "true", "yes"):
        return True
    if value in ("out", "off", "false", "no"):
        return False
    raise ConfigError(f"{name} must be {words[0]} or {words[1]}, got {value!r}")


@dataclass(frozen=True)
class Settings:
    """One setting of the page: the rules' knobs, the skill level, the games and the seed.

    ``difficulty`` names the preset the knobs were taken from (``None``: none); the knobs
    given here always win over it, as on the command line.
    """

    edition: str = "rulebook"
    difficulty: str | None = None
    health: int = 7
    hideaway: bool = False
    cursed_object: bool = True
    escapes_needed: int = 4
    traps: int = 3
    skill: str = DEFAULT_SKILL
    games: int = 100_000
    seed: int = 0
    #: the cards the page was started with (``slashersim serve --cards``: the file's path, or
    #: the cards read from it, a :class:`~slashersim.core.cards.CardSet`), or ``None``
    cards: Any = None

    @property
    def policy(self) -> str:
        """The policy of the skill level (``novice`` -> ``baseline`` ...; a mixed pair's,
        ``novice+expert`` -> ``baseline+expert``)."""
        return resolve(self.skill)

    @property
    def player(self) -> str:
        """The player the answer speaks for: ``"expert (policy expert)"``."""
        return player_label(self.skill)

    def knobs(self) -> dict[str, Any]:
        """The knobs as :func:`slashersim.simulate` takes them (``difficulty`` first when
        set; the explicit knobs override its values)."""
        out: dict[str, Any] = {"edition": self.edition}
        if self.difficulty:
            out["difficulty"] = self.difficulty
        out.update(health=self.health, hideaway=self.hideaway,
                   cursed_object=self.cursed_object, escapes_needed=self.escapes_needed,
                   traps=self.traps)
        if self.cards is not None:
            out["cards"] = self.cards
        return out

    def config(self) -> GameConfig:
        """The rules of this setting, checked."""
        return GameConfig.from_dict(self.knobs())

    def command(self) -> str:
        """The ``slashersim simulate`` command that plays the same games."""
        parts = ["slashersim simulate", f"--edition {self.edition}"]
        if self.cards is not None:
            parts.append(f"--cards {shlex.quote(getattr(self.cards, 'file', self.cards))}")
        if self.difficulty:
            parts.append(f"--difficulty {self.difficulty}")
        parts += [f"--health {self.health}",
                  "--hideaway" if self.hideaway else "--no-hideaway",
                  "--cursed-object" if self.cursed_object else "--no-cursed-object",
                  f"--escapes-needed {self.escapes_needed}", f"--traps {self.traps}",
                  f"--skill {self.skill}", f"--games {self.games}", f"--seed {self.seed}"]
        return " ".join(parts)

    def describe(self) -> str:
        """One line: the rules, the skill level, games and seed."""
        c = self.config().resolved()
        changed = f"{cards_line(self.cards)}; " if self.cards is not None else ""
        return (f"{changed}{c['edition']}, health {c['health']}, hideaway "
                f"{'in' if c['hideaway'] else 'out'}, cursed object "
                f"{'in' if c['cursed_object'] else 'out'}, "
                f"{plural(c['escapes_needed'], 'escape')}, {plural(c['traps'], 'trap')}; "
                f"{self.skill} ({self.policy}); {self.games:,} games, "
                f"seed {self.seed}")


def parse_settings(values: Mapping[str, Any]) -> Settings:
    """The :class:`Settings` of the page's widget values (a mapping of the field names to
    widget values: ints or their text, ``True``/``False`` or ``"in"``/``"out"``); the knobs
    not given take the difficulty preset's values, or else the edition's. An unknown
    field, a malformed or out-of-range value or a configuration the rules refuse raises
    :class:`ConfigError` in one line."""
    known = Settings.__dataclass_fields__
    for key in values:
        if key not in known:
            raise ConfigError(f"unknown setting {key!r}; expected one of: {', '.join(known)}")
    v = {**{k: f.default for k, f in known.items()}, **values}
    edition = v["edition"]
    if edition not in rules.EDITION_NAMES:
        raise ConfigError(f"unknown edition {edition!r}; expected one of: "
                          f"{', '.join(rules.EDITION_NAMES)}")
    difficulty = v["difficulty"] or None
    if difficulty in ("none", CUSTOM, DEFAULTS):
        difficulty = None
    # the knobs not given take the preset's values, or the edition's
    v.update({k: x for k, x in preset_values(difficulty, edition).items() if k not in values})
    v["skill"] = parse_skill(v["skill"])
    settings = Settings(
        edition=edition, difficulty=difficulty,
        health=parse_integer("health", v["health"], 1, rules.MAX_HEALTH),
        hideaway=parse_flag("hideaway", v["hideaway"]),
        cursed_object=parse_flag("cursed object", v["cursed_object"]),
        escapes_needed=parse_integer("escapes needed", v["escapes_needed"], 1, rules.N_ESCAPES),
        traps=parse_integer("traps", v["traps"], 1, 4),
        skill=v["skill"],
        games=parse_integer("games", v["games"], 1, MAX_GAMES),
        seed=parse_seed(v["seed"]), cards=v["cards"])
    settings.config()
    return settings


def preset_values(difficulty: str | None, edition: str) -> dict[str, Any]:
    """The knob values the page shows for ``difficulty`` of ``edition`` (``None``: the
    edition's defaults): ``health``, ``hideaway``, ``cursed_object``, ``escapes_needed``,
    ``traps``."""
    values: dict[str, Any] = {"edition": edition}
    if difficulty:
        values["difficulty"] = difficulty
    c = GameConfig.from_dict(values).resolved()
    return {k: c[k] for k in ("health", "hideaway", "cursed_object", "escapes_needed", "traps")}


def difficulties(edition: str) -> list[str]:
    """The difficulty presets of ``edition``, easiest first."""
    available = load_presets().get(edition, {})
    return [d for d in DIFFICULTIES if d in available]


def preset_menu(edition: str) -> list[str]:
    """The preset menu of ``edition``: its defaults, its presets easiest first, custom."""
    return [DEFAULTS, *difficulties(edition), CUSTOM]


def recognise(edition: str, knobs: Mapping[str, Any]) -> str:
    """The menu's name for ``knobs`` of ``edition``: the preset they equal (easiest first),
    else :data:`DEFAULTS` if they are the edition's own rules, else :data:`CUSTOM`; so a
    setting is never called custom when a name fits it."""
    mine = {k: knobs[k] for k in preset_values(None, edition)}
    for name in difficulties(edition):
        if preset_values(name, edition) == mine:
            return name
    return DEFAULTS if preset_values(None, edition) == mine else CUSTOM


def parse_skill(value: Any) -> str:
    """The players of a setting: a skill level, or a mixed pair of two, seat 0's then seat
    1's (``novice+expert``; a space stands for the ``+``, as a link's query may give it). A
    pair of one level is that level (``expert+expert`` -> ``expert``)."""
    text = str(value).strip()
    sides = text.replace(" ", PAIR).split(PAIR)
    if len(sides) > 2 or not all(side in SKILLS for side in sides):
        raise ConfigError(f"unknown skill level {value!r}; expected one of: "
                          f"{', '.join(SKILLS)}, or a pair of them, seat 0's then seat 1's "
                          f"(e.g. novice{PAIR}expert)")
    return sides[0] if len(set(sides)) == 1 else PAIR.join(sides)


def player_label(skill: str) -> str:
    """The first line of every answer on the page: the skill level and its policy; a mixed
    pair's each seat, ``novice (seat 0) + expert (seat 1) (policies baseline+expert)``."""
    if PAIR in skill:
        sides = skill.split(PAIR)
        return (" + ".join(f"{side} (seat {seat})" for seat, side in enumerate(sides))
                + f" (policies {resolve(skill)})")
    return f"{skill} (policy {SKILLS[skill]})"


# --- a position typed as JSON --------------------------------------------------------------

def parse_position_text(text: str, cards: str | None = None):
    """The :class:`~slashersim.analysis.position.Position` of a JSON text in the format of
    ``slashersim luck state`` (docs/reference/formats.md, "Position files"), played under the
    card file ``cards`` unless its configuration names its own; malformed JSON or a position
    that cannot happen raises :class:`ConfigError` naming the fault."""
    if not isinstance(text, str) or not text.strip():
        raise ConfigError("the position is empty; describe it as a JSON object (see the "
                          "example)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"the position is not valid JSON: {e}") from None
    if cards is not None and isinstance(data, dict) and isinstance(data.get("config", {}), dict):
        data = {**data, "config": {"cards": cards, **data.get("config", {})}}
    return api.position(data)


def check_luck(position: str, playouts: Any, seed: Any,
               cards: str | None = None) -> tuple[Any, int, int]:
    """The luck tab's values checked, as its button checks them: ``(position, play-outs,
    seed)``, the position under the card file ``cards`` (:func:`parse_position_text`); a
    :class:`ConfigError` names the first bad one."""
    games = parse_integer("play-outs", playouts, 1, MAX_PLAYOUTS)
    seed = parse_seed(seed)
    return parse_position_text(position, cards), games, seed


# --- whether a shown result is still the settings' -------------------------------------------

def run_identity(a: Settings, b: Settings | None = None) -> tuple:
    """What decides a run's games: each setting's rules, player, games and seed. A shown
    run belongs to the settings on screen only while theirs is the same (a preset's name
    or a knob set to its value again does not change it)."""
    return tuple(None if s is None else (config_key(s.config()), s.policy, s.games, s.seed)
                 for s in (a, b))


def luck_identity(position: str, skill: str, playouts: Any, seed: Any) -> tuple | None:
    """What decides a luck answer: the position (as data, not as typed), the player, the
    play-outs and the seed; ``None`` when a value is refused."""
    try:
        _, games, seed = check_luck(position, playouts, seed)
    except ConfigError:
        return None
    data = json.dumps(json.loads(position), sort_keys=True)
    return data, SKILLS.get(skill), games, seed


def is_stale(shown: tuple | None, current: tuple | None) -> bool:
    """Whether a shown answer (its identity, ``None``: nothing shown) no longer belongs to
    the settings on screen (``current``; ``None``: a refused value)."""
    return shown is not None and shown != current
