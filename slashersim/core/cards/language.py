"""The card language: the expressions a card file states its rules in, read without Python.

An expression is parsed with Python's own grammar (:func:`ast.parse`) and then evaluated by the
small interpreter here, which knows a fixed list of names, operators and functions and refuses
everything else by name: nothing in a card file is ever run as Python.

A trick rule (``breaks_on_trick``) sees one trick: ``lead`` and ``follow`` (the card led and
the card that answered), ``won`` and ``lost`` (the winning and the losing card), each with
``.rank`` (1..5), ``.suit`` (``"white"``, ``"green"``, ``"yellow"``, ``"red"``) and ``.trump``
(whether its suit is this round's trump); ``leader_won`` (the led card won), ``trump`` (the
trump suit), ``ranks`` and ``suits`` (both cards' ranks and suits). A rule on the tricks won
(``breaks_on_tricks_won``) sees ``tricks0`` and ``tricks1`` (the tricks each player has won so
far this round), ``played`` (their sum) and ``last`` (``played == 8``); it is asked after every
trick.

The language: numbers, ``true``/``false`` (or ``True``/``False``), strings, tuples; ``+ - * //
%``, comparisons (chained, ``in``, ``not in``), ``and``, ``or``, ``not``, ``x if c else y``;
the functions ``abs``, ``min``, ``max``, ``len``. A rule is true or false, and each of its parts
means something (:mod:`.meaning`); :meth:`Expression.constant` tells a rule that is the same on
every trick the game can deal (:func:`trick_envs`, :func:`tricks_won_envs`).
"""
from __future__ import annotations

import ast
import functools
from typing import NamedTuple

from .. import rules
from .meaning import WORDS, Meaning, did_you_mean, example


class CardError(ValueError):
    """A card file that does not read: the message names the file, the line and the fix."""


class Card(NamedTuple):
    """A number card as a rule sees it."""

    rank: int
    suit: str
    trump: bool


#: the names each kind of rule may use
TRICK_NAMES = ("lead", "follow", "won", "lost", "leader_won", "trump", "ranks", "suits")
TRICKS_WON_NAMES = ("tricks0", "tricks1", "played", "last")
_CONSTANTS = {"true": True, "false": False, "True": True, "False": False}
_FUNCTIONS = {"abs": abs, "min": min, "max": max, "len": len}
_ATTRIBUTES = Card._fields
_BINARY = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
           ast.Mod: lambda a, b: a % b}
_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
            ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
            ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}


class Expression:
    """A rule: a parsed expression over the names ``names`` that is true or false (its parts'
    types and values checked, :mod:`.meaning`); ``where`` names it in errors."""

    def __init__(self, text, names, where):
        self.text = str(text)
        self.names = tuple(names)
        self.where = where
        try:
            self.tree = ast.parse(self.text.strip(), mode="eval").body
        except SyntaxError as e:
            raise CardError(f"{where}: {self.text!r} is not an expression ({e.msg})") from None
        self._check(self.tree)
        trick = self.names == TRICK_NAMES
        kind = Meaning(self._refuse, trick).infer(self.tree)
        if kind.what != "bool":
            raise CardError(f"{where}: {self.text!r} is {WORDS[kind.what]}, not true or false; "
                            + ("write the rule without quotes of its own"
                               if kind.what == "text" and self._quoted(kind.values)
                               else f"compare it, e.g. {example(kind, trick)!r}"))

    def _quoted(self, values):
        """Whether ``values`` (a text rule's) is one rule of these names in quotes."""
        try:
            Expression(values[0], self.names, self.where)
        except CardError:
            return False
        return len(values) == 1

    @property
    def literal(self):
        """``True`` or ``False`` for a rule written as ``true`` or ``false``, else ``None``."""
        node = self.tree
        if isinstance(node, ast.Name) and node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, bool) \
            else None

    def constant(self):
        """The rule's value when it is the same on every trick the game can deal (a trick
        rule), or after every trick whatever the tricks won; else ``None``."""
        envs = trick_envs() if self.names == TRICK_NAMES else tricks_won_envs()
        seen = set()
        for env in envs:
            try:
                seen.add(self(env))
            except ZeroDivisionError:
                self._refuse(f"a division by zero (when {_shown(env)})")
            if len(seen) > 1:
                return None
        return seen.pop()

    def _refuse(self, what, hint=None):
        raise CardError(f"{self.where}: {what} in {self.text!r}" + (f"; {hint}" if hint else ""))

    def _check(self, node):
        if isinstance(node, ast.Name):
            if node.id not in self.names and node.id not in _CONSTANTS:
                self._refuse(f"unknown name {node.id!r}"
                             + did_you_mean(node.id, self.names + tuple(_FUNCTIONS)))
        elif isinstance(node, ast.Attribute):
            if node.attr not in _ATTRIBUTES:
                self._refuse(f"a card has no {node.attr!r}" + did_you_mean(node.attr, _ATTRIBUTES))
            self._check(node.value)
        elif isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS \
                    or node.keywords:
                name = getattr(node.func, "id", ast.unparse(node.func))
                self._refuse(f"unknown function {name!r}" + did_you_mean(name, _FUNCTIONS))
            for arg in node.args:
                self._check(arg)
        elif isinstance(node, ast.Constant):
            if not isinstance(node.value, (int, str)):
                self._refuse(f"the value {node.value!r} (numbers and strings only)")
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in _BINARY:
                self._refuse(f"the operator {type(node.op).__name__}")
            self._check(node.left)
            self._check(node.right)
        elif isinstance(node, ast.Compare):
            if any(type(op) not in _COMPARE for op in node.ops):
                self._refuse("a comparison other than == != < <= > >= in, not in")
            for sub in (node.left, *node.comparators):
                self._check(sub)
        elif isinstance(node, ast.BoolOp):
            for sub in node.values:
                self._check(sub)
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, (ast.Not, ast.USub)):
                self._refuse(f"the operator {type(node.op).__name__}")
            self._check(node.operand)
        elif isinstance(node, ast.IfExp):
            for sub in (node.test, node.body, node.orelse):
                self._check(sub)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for sub in node.elts:
                self._check(sub)
        else:
            self._refuse(f"{type(node).__name__.lower()} (not part of the card language)")

    def __call__(self, env):
        return _evaluate(self.tree, env)


def _evaluate(node, env):
    if isinstance(node, ast.Name):
        return env[node.id] if node.id in env else _CONSTANTS[node.id]
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Attribute):
        return getattr(_evaluate(node.value, env), node.attr)
    if isinstance(node, ast.Call):
        return _FUNCTIONS[node.func.id](*(_evaluate(a, env) for a in node.args))
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)](_evaluate(node.left, env), _evaluate(node.right, env))
    if isinstance(node, ast.Compare):
        left = _evaluate(node.left, env)
        for op, sub in zip(node.ops, node.comparators):
            right = _evaluate(sub, env)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.BoolOp):
        if isinstance(node.op, ast.And):
            return all(_evaluate(v, env) for v in node.values)
        return any(_evaluate(v, env) for v in node.values)
    if isinstance(node, ast.UnaryOp):
        value = _evaluate(node.operand, env)
        return (not value) if isinstance(node.op, ast.Not) else -value
    if isinstance(node, ast.IfExp):
        return _evaluate(node.body if _evaluate(node.test, env) else node.orelse, env)
    return tuple(_evaluate(e, env) for e in node.elts)


def _shown(env):
    if "lead" in env:
        return (f"{env['lead'].suit} {env['lead'].rank} is led, {env['follow'].suit} "
                f"{env['follow'].rank} follows, {env['trump']} is trump")
    return f"tricks0 is {env['tricks0']}, tricks1 {env['tricks1']}"


def trick_env(lead, follow, trump):
    """What a trick rule sees of the trick ``lead`` / ``follow`` (card ids) under ``trump``."""
    leader_won = not (follow // rules.N_RANKS == lead // rules.N_RANKS and follow > lead
                      or follow // rules.N_RANKS != lead // rules.N_RANKS
                      and follow // rules.N_RANKS == trump)
    cards = [Card(c % rules.N_RANKS + 1, rules.SUIT_NAMES[c // rules.N_RANKS],
                  c // rules.N_RANKS == trump) for c in (lead, follow)]
    won, lost = cards if leader_won else cards[::-1]
    return {"lead": cards[0], "follow": cards[1], "won": won, "lost": lost,
            "leader_won": leader_won, "trump": rules.SUIT_NAMES[trump],
            "ranks": (cards[0].rank, cards[1].rank), "suits": (cards[0].suit, cards[1].suit)}


def tricks_won_env(tricks0, tricks1):
    """What a rule on the tricks won sees after ``tricks0 + tricks1`` tricks."""
    played = tricks0 + tricks1
    return {"tricks0": tricks0, "tricks1": tricks1, "played": played,
            "last": played == rules.TRICKS_PER_ROUND}


@functools.cache
def trick_envs():
    """What a trick rule sees of every trick the game can deal: two distinct cards, under every
    trump."""
    return tuple(trick_env(lead, follow, trump) for trump in range(rules.N_SUITS)
                 for lead in range(rules.N_NUMBER_CARDS) for follow in range(rules.N_NUMBER_CARDS)
                 if follow != lead)


@functools.cache
def tricks_won_envs():
    """What a rule on the tricks won sees after every trick: every ``(tricks0, tricks1)`` of
    1..8 tricks played."""
    last = rules.TRICKS_PER_ROUND
    return tuple(tricks_won_env(t0, t1) for t0 in range(last + 1) for t1 in range(last + 1 - t0)
                 if t0 + t1 > 0)
