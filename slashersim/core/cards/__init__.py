"""Cards as the unit of the rules: every area card declared once, in a card file.

The package's own card file, ``printed.toml``, states the seven area cards of the printed game in
the card language (:mod:`.language`); a designer's card file changes any of them by name, and a
configuration names it (``GameConfig(cards="my_cards.toml")``, ``--cards``). :func:`load`
reads and checks a file (every refusal one line naming the file, the line and a did-you-mean),
and :meth:`CardSet.tables` turns the cards into the tables the engine reads through its hooks
(``core.layout.C_AREA_*``): no rule of the engine's flow branches on an area's identity.

An area card's keys (a key left out keeps the printed card's value, or for a card's rule,
breaks never):

- ``replaces`` (a new card in a printed card's place) or ``added = true`` (a new card beside
  the printed ones, in the deck's ``level`` group; at most ``rules.MAX_AREAS`` areas in all);

- ``title``, ``level`` (1 or 2: the rulebook's area-deck group), ``source`` (the text it comes
  from), ``rule`` (the card's words);
- the key of each of its hooks (``core.fields.HOOKS``, docs/cards.md): the rules
  ``breaks_on_trick``, an expression over one trick, and ``breaks_on_tricks_won``, over the
  tricks each player has won, asked after every trick (the first breach of a round sets off its
  trap), true or false, and not the same on every trick unless written ``"false"`` or
  ``"true"`` (read with a warning, :attr:`CardSet.warnings`); then its effects, each a number
  in its range, a flag or one of its values. A number may also be the name of the rule
  parameter that sets it (``greens_removed = "lakeside_removal"``), which is how the printed
  cards keep their [choice] points as parameters.

An item card's keys: ``title``, ``source``, ``rule``, and the key of each of its hooks:
``kind``, what it does (one of ``rules.ITEM_KINDS``: an escape item, a heal, ...), and the
numbers that belong to one kind. A new item takes a printed one's place in the item deck
(``replaces``), or joins the deck beside the twelve (``added = true``; at most
``rules.MAX_ADDED_ITEMS``, with the ids ``rules.FIRST_ADDED_ITEM ..``), and states its kind.
The engine and the players read an item only through its kind (``core.layout.C_KIND_ITEMS``,
``C_ITEM_KIND``, ``C_KEEPABLE``, ``C_USABLE``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
import functools
import hashlib
from pathlib import Path

import numpy as np

from .. import fields as F
from .. import rules
from ..files import parse_toml, read_toml
from .language import (
    TRICK_NAMES,
    TRICKS_WON_NAMES,
    CardError,
    Expression,
    did_you_mean,
    trick_env,
    tricks_won_env,
)

PRINTED_FILE = Path(__file__).with_name("printed.toml")
#: the name a configuration gives the printed cards
PRINTED = "printed"
#: the keys of an area card that no hook reads, with the printed game's neutral value: its
#: place, its name and words, its rulebook group
_AREA_PLACE_KEYS = {"replaces": "", "added": False, "title": "", "level": 2, "source": "",
                    "rule": ""}
#: ... and of an item card
_ITEM_PLACE_KEYS = {"replaces": "", "added": False, "title": "", "source": "", "rule": ""}
#: the keys of an area card, with the printed game's neutral value: its place, name and words,
#: then the key of each area hook (``core.fields.HOOKS``)
AREA_KEYS = {**_AREA_PLACE_KEYS, **{h.key: h.neutral for h in F.HOOKS
                                    if h.per == F.AREA and h.key}}
#: the keys of an item card (a key left out keeps the printed value): its place, name and words,
#: then the key of each item hook: its ``kind`` (one of ``rules.ITEM_KINDS``), ``heal`` only on
#: a card of the heal kind, ``extra_draws`` only on one of the cursed kind
ITEM_KEYS = {**_ITEM_PLACE_KEYS, **{h.key: h.neutral for h in F.HOOKS
                                    if h.per == F.ITEM and h.key}}
#: the keys that belong to one item kind only
_KIND_ONLY = {h.key: h.only for h in F.HOOKS if h.only}
#: the items a card file may name: the twelve item cards
ITEM_CARDS = rules.ITEM_NAMES[:rules.CURSED_OBJECT + 1]
#: the rule parameters a card's number may name
PARAMETERS = ("lakeside_removal", "tent_site_reduction", "cursed_extra_draws")
_RANGES = {"level": (1, 2), **{h.key: h.values for h in F.HOOKS if h.build == F.NUMBER}}

__all__ = ["CardError", "CardSet", "load", "remember", "check_content", "PRINTED", "AREA_KEYS",
           "ITEM_KEYS"]


@dataclass(frozen=True, eq=False)
class CardSet:
    """The cards in force: ``areas`` (each area's place, by area id: the printed seven, then
    any added beside them -> the keys of the card in it), ``items`` (item -> keys), the file
    that changed them (``None``: the printed cards), its content's SHA-256, what it changed
    (``changed``, as answers list it) and the card in each area's place (``names``)."""

    areas: dict = field(repr=False)
    items: dict = field(repr=False, default_factory=dict)
    file: str | None = None
    sha256: str | None = None
    changed: tuple = ()
    #: the card in each area's place (its own name, or a new card's)
    names: tuple = rules.AREA_NAMES
    #: the card in each item's place: the twelve printed places, then the items added
    item_names: tuple = rules.ITEM_NAMES[:rules.CURSED_OBJECT + 1]
    #: one line for each rule of the file that is surely meant but worth a second look (a rule
    #: written ``"true"``), shown with :attr:`changed` wherever answers show it
    warnings: tuple = ()

    @property
    def item_slots(self):
        """The name of each item card's place, as answers count the items: the twelve printed
        places (a new item in one answers to its name), then the items added beside them."""
        return tuple(self.items)

    @property
    def item_ids(self):
        """The item id of each of :attr:`item_slots`: the printed ids, then
        ``rules.FIRST_ADDED_ITEM ..`` for the added ones."""
        n = len(ITEM_CARDS)
        return tuple(range(n)) + tuple(rules.FIRST_ADDED_ITEM + k
                                        for k in range(len(self.items) - n))

    def item_name(self, item):
        """The name of item id ``item``: its place's, ``killer`` or ``junk_K``."""
        if item >= rules.FIRST_ADDED_ITEM:
            return self.item_slots[len(ITEM_CARDS) + item - rules.FIRST_ADDED_ITEM]
        return rules.ITEM_NAMES[item]

    @property
    def slots(self):
        """The name of each area's place, by area id, as configurations and answers name the
        areas: the printed seven (a card in a printed place answers to that place's name),
        then the cards added beside them."""
        return tuple(self.areas)

    @property
    def titles(self):
        """The title of the card in each area's place, as answers show it (a new card without
        a title: its name)."""
        return tuple(self.areas[slot]["title"] or name
                     for slot, name in zip(self.slots, self.names))

    @property
    def label(self):
        """``printed``, or the card file and the head of its hash: how answers name them."""
        if self.file is None:
            return PRINTED
        return f"{Path(self.file).name} (sha256 {self.sha256[:12]})"

    def __eq__(self, other):
        return isinstance(other, CardSet) and (self.file, self.sha256) == (other.file,
                                                                           other.sha256)

    def __hash__(self):
        return hash((self.file, self.sha256))

    def tables(self, knobs=None):
        """The engine's tables of hooks (``core.fields.HOOKS``: ``core.layout.C_AREA_*``,
        ``C_ITEM_HEAL``, ...) by name, with the rule parameters ``knobs`` (name -> value)
        filled in where a card names one."""
        return _tables(self, tuple(sorted((knobs or {}).items())))


def _line_of(text, needle):
    for i, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return i
    return 1


def _read(path):
    return read_toml(path, "card file", CardError)


def _key_line(text, kind, name, key):
    """The line of ``key`` in the table of card ``name`` (``kind``: ``area`` or ``item``)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == f"[{kind}.{name}]"),
                 None)
    if start is not None:
        for i in range(start + 1, len(lines)):
            if lines[i].lstrip().startswith("["):
                break
            if lines[i].split("=")[0].strip() == key:
                return i + 1
    return _line_of(text, key)


def _check_rule(name, key, value, where):
    """Refuse a card's rule (``key``: ``breaks_on_trick`` or ``breaks_on_tricks_won``) that is
    outside the language, is not true or false, or is the same on every trick the game can
    deal without being written ``"true"`` or ``"false"``; the :class:`Expression`."""
    trick = key == "breaks_on_trick"
    expr = Expression(value, TRICK_NAMES if trick else TRICKS_WON_NAMES, where)
    always = None if expr.literal is not None else expr.constant()
    every = "on every trick the game can deal" if trick else "after every trick, whatever " \
                                                             "the tricks won"
    if always is False:
        raise CardError(f"{where}: {value!r} never breaks: it is false {every}; write "
                        f"\"false\" for a card without this rule")
    if always is True:
        raise CardError(f"{where}: {value!r} breaks on every trick: it is true {every}; write "
                        f"\"true\" if you mean it")
    return expr


def _check_keys(name, card, text, where, keys=AREA_KEYS, kind="area"):
    """Refuse, in one line, any key of card ``name`` that is not one of ``keys`` or whose value
    is not of its kind."""
    for key, value in card.items():
        at = f"{where}, line {_key_line(text, kind, name, key)}"
        if key not in keys:
            raise CardError(f"{at}: {kind} {name!r} has no key {key!r}"
                            + did_you_mean(key, keys))
        neutral = keys[key]
        hook = F.hook_of_key(kind, key)
        build = hook.build if hook else None
        if build == F.EXPRESSION:
            if not isinstance(value, str):
                raise CardError(f"{at}: {key} of {name!r} must be an expression in quotes")
            _check_rule(name, key, value, f"{at}, {key} of {name!r}")
        elif build == F.CHOICE:
            if value not in hook.values:
                hint = did_you_mean(value, hook.values)
                if hint.startswith("; did you mean"):
                    hint += "; expected one of: " + ", ".join(hook.values)
                raise CardError(f"{at}: {key} of {name!r} is {value!r}{hint}")
        elif isinstance(neutral, bool):
            if not isinstance(value, bool):
                raise CardError(f"{at}: {key} of {name!r} must be true or false, got {value!r}")
        elif isinstance(neutral, int):
            if isinstance(value, str):
                if value not in PARAMETERS:
                    raise CardError(f"{at}: {key} of {name!r} names no rule parameter {value!r}"
                                    + did_you_mean(value, PARAMETERS))
            elif not isinstance(value, int) or isinstance(value, bool) \
                    or not _RANGES[key][0] <= value <= _RANGES[key][1]:
                lo, hi = _RANGES[key]
                raise CardError(f"{at}: {key} of {name!r} must be a whole number {lo}..{hi} or a "
                                f"rule parameter ({', '.join(PARAMETERS)}), got {value!r}")
        elif not isinstance(value, str):
            raise CardError(f"{at}: {key} of {name!r} must be text, got {value!r}")


def _parse_items(text, data, where, printed):
    """The item cards of a file: each a printed item changed by its keys, or a new item that
    takes a printed one's place (``replaces``); ``printed`` is ``None`` for the package's own
    file."""
    items = data.get("item", {})
    if not isinstance(items, dict):
        raise CardError(f"{where}: 'item' must be a table of cards ([item.NAME])")
    taken = {}
    for name, card in items.items():
        at = f"{where}, line {_line_of(text, name)}"
        if not isinstance(card, dict):
            raise CardError(f"{at}: item {name!r} must be a table of keys")
        _check_keys(name, card, text, where, ITEM_KEYS, "item")
        if printed is not None:
            _check_new(name, card, at, printed, ITEM_CARDS, "item", items, taken)
    return items


def _check_new(name, card, at, printed, names, kind, cards, taken):
    """Refuse a card of a file that is neither a printed card changed by its keys nor a new
    card named as such that takes the place of a printed card no other card of the file
    takes or changes (``replaces``)."""
    if name in printed and "added" in card:
        raise CardError(f"{at}: {name!r} is a printed {kind}, already in the game: change it "
                        f"by its keys, or give your new card a name of its own")
    if name in printed and "replaces" in card:
        raise CardError(f"{at}: {name!r} is a printed {kind}: change it by its keys, or give "
                        f"your new card a name of its own")
    if name in printed:
        return
    if not _valid_name(name):
        raise CardError(f"{at}: a new {kind}'s name must be lower-case letters, digits and _, "
                        f"got {name!r}")
    if kind == "item" and name == "items":
        raise CardError(f"{at}: a new item may not be called 'items' (its counts would be "
                        f"called like the knob used_items)")
    slot = card.get("replaces")
    if card.get("added"):
        if slot is not None:
            raise CardError(f"{at}: {name!r} is either added beside the printed {kind}s or "
                            f"replaces one, not both")
        return
    if slot is None:
        raise CardError(f"{at}: {name!r} is not an {kind} of the game" + did_you_mean(name, names)
                        + f"; a new {kind} card takes a printed one's place: replaces = "
                          f"\"NAME\" or is added beside them: added = true")
    if slot not in printed:
        raise CardError(f"{at}: {name!r} replaces {slot!r}, which is not a printed {kind}"
                        + did_you_mean(slot, names))
    if slot in taken or slot in cards:
        how = f"replaces with {taken[slot]!r}" if slot in taken else "changes"
        raise CardError(f"{at}: {name!r} replaces {slot!r}, which the file already {how}")
    taken[slot] = name


def _parse(text, data, where, printed):
    unknown = [k for k in data if k not in ("area", "item")]
    if unknown:
        raise CardError(f"{where}, line {_line_of(text, unknown[0])}: no card kind "
                        f"{unknown[0]!r}" + did_you_mean(unknown[0], ("area", "item")))
    areas = data.get("area", {})
    if not isinstance(areas, dict):
        raise CardError(f"{where}: 'area' must be a table of cards ([area.NAME])")
    taken = {}
    for name, card in areas.items():
        at = f"{where}, line {_line_of(text, name)}"
        if not isinstance(card, dict):
            raise CardError(f"{at}: area {name!r} must be a table of keys")
        _check_keys(name, card, text, where)
        if printed is not None:
            _check_new(name, card, at, printed, rules.AREA_NAMES, "area", areas, taken)
    return areas


def _valid_name(name):
    return name.replace("_", "").isalnum() and name == name.lower() and name[:1].isalpha()


@functools.lru_cache(maxsize=1)
def printed():
    """The printed cards (``printed.toml``)."""
    text, data = _read(PRINTED_FILE)
    areas = _parse(text, data, PRINTED_FILE.name, None)
    items = _parse_items(text, data, PRINTED_FILE.name, None)
    full = {name: {**AREA_KEYS, **areas[name]} for name in rules.AREA_NAMES}
    items = {name: {**ITEM_KEYS, **items[name]} for name in ITEM_CARDS}
    for name, card in items.items():
        _check_kind(name, card, PRINTED_FILE.name)
    return CardSet(full, items)


#: every card file read in this process, by (path, content hash): a configuration names its
#: cards by both, so it never reads the file again (nor another version of it)
_READ = {}


def remember(cards):
    """Keep the :class:`CardSet` ``cards`` (of a configuration made in another process) as
    read, so that its (path, hash) names it here without reading the file."""
    if cards.file is not None:
        _READ.setdefault((cards.file, cards.sha256), cards)


def _load(path, sha256, text):
    _, data = parse_toml(text, path, "card file", CardError)
    base = printed()
    changes = _parse(text, data, str(path), base.areas)
    item_changes = _parse_items(text, data, str(path), base.items)
    items = {name: _changed_item(card, item_changes.get(name, {}))
             for name, card in base.items.items()}
    areas = {name: {**card, **changes.get(name, {})} for name, card in base.areas.items()}
    names, item_names = list(rules.AREA_NAMES), list(ITEM_CARDS)
    changed = [f"{name}.{key}" for name, keys in changes.items() if name in base.areas
               for key in keys if keys[key] != base.areas[name][key]]
    changed += [f"{name}.{key}" for name, keys in item_changes.items() if name in base.items
                for key in keys if keys[key] != base.items[name][key]]
    for name, card in changes.items():
        if name not in base.areas and card.get("added"):
            _add_beside(areas, names, changed, name, card, AREA_KEYS, rules.MAX_AREAS,
                        f"{path}, line {_line_of(text, name)}", "area")
        elif name not in base.areas:
            slot = card["replaces"]
            new = {**AREA_KEYS, "level": base.areas[slot]["level"], **card}
            areas[slot] = new
            names[rules.AREA_NAMES.index(slot)] = name
            changed.append(f"{name} in place of {slot}")
    for name, card in item_changes.items():
        if name not in base.items:
            if "kind" not in card:
                raise CardError(f"{path}, line {_line_of(text, name)}: the new item {name!r} "
                                f"states its kind: kind = one of {', '.join(rules.ITEM_KINDS)}")
            if card.get("added"):
                _add_beside(items, item_names, changed, name, card, ITEM_KEYS,
                            len(ITEM_CARDS) + rules.MAX_ADDED_ITEMS,
                            f"{path}, line {_line_of(text, name)}", "item")
                continue
            slot = card["replaces"]
            items[slot] = {**ITEM_KEYS, **card}
            item_names[ITEM_CARDS.index(slot)] = name
            changed.append(f"{name} in place of {slot}")
    for slot, name in zip(items, item_names):
        _check_kind(name, items[slot], f"{path}, line {_line_of(text, name)}"
                    if name in item_changes else str(path))
    return CardSet(areas, items, str(path), sha256, tuple(changed), tuple(names),
                   tuple(item_names), _warnings(text, changes))


def _warnings(text, changes):
    """One line for each rule of the area cards ``changes`` written ``"true"``: it breaks on
    the first trick, so the card's trap goes off in every round played there."""
    out = []
    for name, card in changes.items():
        for key, names in (("breaks_on_trick", TRICK_NAMES),
                           ("breaks_on_tricks_won", TRICKS_WON_NAMES)):
            if key in card and Expression(card[key], names, name).literal is True:
                out.append(f"{name}.{key} is \"true\" (line {_key_line(text, 'area', name, key)}"
                           f"): the rule breaks on the first trick, so every round played "
                           f"there sets off its trap")
    return tuple(out)


def _add_beside(cards, names, changed, name, card, neutral, most, where, kind):
    """Put the new card ``name`` beside the printed ones (``added = true``) into ``cards``
    and ``names``; refused, naming ``where``, past ``most`` cards of its ``kind`` in all."""
    if len(cards) == most:
        raise CardError(f"{where}: {name!r} would be {kind} card {len(cards) + 1}; a card set "
                        f"holds at most {most}")
    cards[name] = {**neutral, **card}
    names.append(name)
    changed.append(f"{name} added")


def _changed_item(card, changes):
    """A printed item with ``changes``: given another kind, it loses the numbers of its old
    kind that the changes do not set (a First Aid Kit made an escape item heals no more)."""
    out = {**card, **changes}
    for key, kind in _KIND_ONLY.items():
        if out["kind"] != kind and key not in changes:
            out[key] = ITEM_KEYS[key]
    return out


def _check_kind(name, card, at):
    """Refuse an item whose numbers do not belong to its kind: ``heal`` (1.. on a heal item
    only) and ``extra_draws`` (on a cursed item only)."""
    for key, kind in _KIND_ONLY.items():
        if card[key] != ITEM_KEYS[key] and card["kind"] != kind:
            raise CardError(f"{at}: {key} is a key of a {kind} item, and {name!r} is of kind "
                            f"{card['kind']!r}")
    if card["kind"] == "heal" and card["heal"] == ITEM_KEYS["heal"]:
        raise CardError(f"{at}: {name!r} is a heal item: give it heal = N (1..{rules.MAX_HEALTH})")


def check_content(path, sha256):
    """Refuse (:class:`CardError`, naming both hashes) the card file ``path`` unless it holds,
    now, the content of hash ``sha256``: for a file a user hands over (a game record, a
    position, a link) that names its cards by path and hash but does not carry them."""
    found = hashlib.sha256(_content(str(path))).hexdigest()
    if found != sha256:
        raise CardError(f"card file {str(path)!r} has changed: these rules were made with its "
                        f"content of sha256 {sha256[:12]}…, it now holds {found[:12]}…")


def _content(path):
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise CardError(f"card file {path!r} does not exist") from None
    except IsADirectoryError:
        raise CardError(f"card file {path!r} is a folder, not a file") from None
    except OSError as e:
        raise CardError(f"card file {path!r} cannot be read ({e.strerror})") from None


def load(cards=None, sha256=None):
    """The :class:`CardSet` of ``cards``: ``None`` or ``"printed"`` for the printed cards, or
    the path of a card file. ``sha256``, when given, is the content the caller's rules were
    made with: the cards of that content, read once per process, or a :class:`CardError` naming
    both hashes when the file now holds other content."""
    if cards is None or cards == PRINTED:
        return printed()
    if isinstance(cards, CardSet):
        return cards
    path = str(cards)
    if sha256 is not None and (path, sha256) in _READ:
        return _READ[path, sha256]
    content = _content(path)
    found = hashlib.sha256(content).hexdigest()
    if sha256 is not None and found != sha256:
        raise CardError(f"card file {path!r} has changed: these rules were made with its "
                        f"content of sha256 {sha256[:12]}…, it now holds {found[:12]}…")
    if (path, found) not in _READ:
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError as e:
            raise CardError(f"card file {path!r} cannot be read ({e})") from None
        _READ[path, found] = _load(path, found, text)
    return _READ[path, found]


def copy_text(kind, printed_name, name):
    """The text of a card file that writes the printed card ``printed_name`` (``kind``:
    ``"area"`` or ``"item"``) anew, as a card of its own called ``name`` in its place: the
    start of a designer's own card, and the check that a card plays by its hooks alone."""
    import tomli_w
    cards = printed().areas if kind == "area" else printed().items
    if printed_name not in cards:
        raise CardError(f"{printed_name!r} is not a printed {kind}"
                        + did_you_mean(printed_name, tuple(cards)))
    neutral = AREA_KEYS if kind == "area" else ITEM_KEYS
    keys = {k: v for k, v in cards[printed_name].items()
            if k not in ("replaces", "added") and v != neutral[k] or k == "kind"}
    return tomli_w.dumps({kind: {name: {"replaces": printed_name, **keys}}})


def _number(value, knobs):
    return int(knobs[value]) if isinstance(value, str) else int(value)


def _value(hook, value, knobs):
    """The number a hook's table holds for a card's ``value`` of its key."""
    if hook.build == F.FLAG:
        return int(bool(value))
    if hook.build == F.CHOICE:
        return hook.values.index(value)
    return _number(value, knobs)


def _key_table(hook, cards, knobs):
    """The table of a hook read from one key of each card: a row per area card, or per item id
    (the ids of no item card hold the key's neutral value)."""
    if hook.per == F.AREA:
        return np.array([_value(hook, card[hook.key], knobs) for card in cards.areas.values()],
                        dtype=np.int64)
    table = np.full(rules.MAX_ITEM_IDS, _value(hook, hook.neutral, knobs), dtype=np.int64)
    for item, card in zip(cards.item_ids, cards.items.values()):
        table[item] = _value(hook, card[hook.key], knobs)
    return table


@functools.lru_cache(maxsize=64)
def _tables(cards, knobs):
    """Every hook's table (``core.fields.HOOKS``): those of a number, flag or choice of a card
    read from its key, the rules' from their expressions, the rest from these."""
    knobs = dict(knobs)
    tables = {h.name: _key_table(h, cards, knobs) for h in F.HOOKS
              if h.build in (F.NUMBER, F.FLAG, F.CHOICE)}
    safe, tricks_break = _rule_tables(cards)
    tables.update(safe=safe, tricks_break=tricks_break, flex=_flex(safe),
                  **_tricks_won_facts(tricks_break), **_kind_masks(cards))
    full = (1 << rules.N_NUMBER_CARDS) - 1
    n = len(cards.areas)
    tables["has_tricks_won_rule"] = np.array([int(tricks_break[a].any()) for a in range(n)],
                                             dtype=np.int64)
    tables["has_trick_rule"] = np.array(
        [any(int(safe[a, t, c]) | (1 << c) != full for t in range(rules.N_SUITS)
             for c in range(rules.N_NUMBER_CARDS)) for a in range(n)], dtype=np.int64)
    tables = {h.name: tables[h.name] for h in F.HOOKS}
    for array in tables.values():
        array.flags.writeable = False
    return tables


def _rule_tables(cards):
    """The tables of the area cards' rules: ``safe`` (``[area, trump, lead]``: bitmask of the
    follow cards whose trick keeps the rule) and ``tricks_break`` (``[area, t0]``: bitmask over
    ``t1`` of the tricks won that break it)."""
    n = len(cards.areas)
    safe = np.zeros((n, rules.N_SUITS, rules.N_NUMBER_CARDS), dtype=np.int64)
    tricks_break = np.zeros((n, rules.TRICKS_PER_ROUND + 1), dtype=np.int64)
    where = cards.file or PRINTED_FILE.name
    for a, card in enumerate(cards.areas.values()):
        on_trick = Expression(card["breaks_on_trick"], TRICK_NAMES, where)
        on_won = Expression(card["breaks_on_tricks_won"], TRICKS_WON_NAMES, where)
        for trump in range(rules.N_SUITS):
            for lead in range(rules.N_NUMBER_CARDS):
                for follow in range(rules.N_NUMBER_CARDS):
                    if follow != lead and not on_trick(trick_env(lead, follow, trump)):
                        safe[a, trump, lead] |= 1 << follow
        for t0 in range(rules.TRICKS_PER_ROUND + 1):
            for t1 in range(rules.TRICKS_PER_ROUND + 1 - t0):
                if on_won(tricks_won_env(t0, t1)):
                    tricks_break[a, t0] |= 1 << t1
    return safe, tricks_break


def _flex(safe):
    """``[area, trump, card]``: how many of the 38 (lead, follow) pairs with ``card`` keep the
    trick rule."""
    flex = np.zeros_like(safe)
    for a in range(safe.shape[0]):
        for trump in range(rules.N_SUITS):
            row = safe[a, trump]
            for c in range(rules.N_NUMBER_CARDS):
                flex[a, trump, c] = bin(int(row[c])).count("1") + sum(
                    1 for o in range(rules.N_NUMBER_CARDS) if o != c and (row[o] >> c) & 1)
    return flex


def _kind_masks(cards):
    """The item ids of each kind (``kind_items``; the Junk cards are of the junk kind), and the
    ids a player may keep (``keepable``) and use in a use window (``usable``): those of the
    kinds kept and usable (``rules.ITEM_KIND_TABLE``)."""
    kinds = np.zeros(rules.N_ITEM_KINDS, dtype=np.int64)
    for item, card in zip(cards.item_ids, cards.items.values()):
        kinds[rules.ITEM_KINDS.index(card["kind"])] |= 1 << item
    for j in range(rules.N_JUNK):
        kinds[rules.KIND_JUNK] |= 1 << (rules.JUNK + j)
    keepable = usable = 0
    for k, kind in enumerate(rules.ITEM_KIND_TABLE):
        keepable |= int(kinds[k]) if kind.kept else 0
        usable |= int(kinds[k]) if kind.usable else 0
    return {"kind_items": kinds, "keepable": np.array([keepable], dtype=np.int64),
            "usable": np.array([usable], dtype=np.int64)}


def _tricks_won_facts(tricks_break):
    """What the players plan for, read from each card's rule on the tricks won: ``parity``
    (0: each player must end with an even count, 1: odd, -1: no such rule) and ``sweep`` (1:
    broken as soon as both players have won a trick, so one player must win every trick)."""
    last = rules.TRICKS_PER_ROUND
    n = tricks_break.shape[0]
    parity = np.full(n, -1, dtype=np.int64)
    sweep = np.zeros(n, dtype=np.int64)
    for a in range(n):
        breaks = {(t0, t1) for t0 in range(last + 1) for t1 in range(last + 1 - t0)
                  if (int(tricks_break[a, t0]) >> t1) & 1}
        for p in (0, 1):
            if breaks == {(t0, last - t0) for t0 in range(last + 1) if t0 % 2 != p}:
                parity[a] = p
        if breaks == {(t0, t1) for t0 in range(1, last + 1) for t1 in range(1, last + 1 - t0)}:
            sweep[a] = 1
    return {"parity": parity, "sweep": sweep}
