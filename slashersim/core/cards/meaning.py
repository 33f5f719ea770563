"""What an expression of the card language means: its type and, for a number, its range.

A card file's rule is read for what it means before anything plays (:class:`Meaning`): every part
of an expression has a type (true or false, a number, text, a suit, a card, a tuple), and a
number the least and greatest value it can take (a rank 1..5, a count of tricks 0..8). What
cannot mean anything is refused by name: arithmetic on anything but numbers, ``not``, ``and``,
``or`` and a condition on anything but true or false (no Python truthiness: ``tricks0 > 0``, not
``tricks0``), an order (``<``) on anything but numbers, a comparison of two types that are never
equal, text compared with text, a suit compared with text that is no suit's name, and a
number compared with one it can never equal (``lead.rank == 6``).
"""
from __future__ import annotations

import ast
import difflib
from typing import NamedTuple

from .. import rules


class Kind(NamedTuple):
    """The type of an expression (``what``, one of :data:`WORDS`), its text, and by type: a
    number's least and greatest value (``None``: not known) and what it is (``name``: a rank),
    a text's possible values, a tuple's items."""

    what: str
    text: str = ""
    low: int | None = None
    high: int | None = None
    values: tuple = ()
    items: tuple = ()
    name: str = ""

    @property
    def named(self):
        """How a message about a number's range names it: ``a rank``, or its text."""
        return self.name or self.text


#: each type as messages name it
WORDS = {"bool": "true or false", "number": "a number", "text": "text", "suit": "a suit",
         "card": "a card", "tuple": "a tuple"}
_RANK = Kind("number", "a rank", 1, rules.N_RANKS, name="a rank")
_SUIT = Kind("suit", "a suit")
_COUNT = (0, rules.TRICKS_PER_ROUND)
#: the type of each name a rule may use (``played`` is asked after a trick: 1..8)
NAMES = {
    **{card: Kind("card", card) for card in ("lead", "follow", "won", "lost")},
    "leader_won": Kind("bool", "leader_won"), "trump": Kind("suit", "trump"),
    "ranks": Kind("tuple", "ranks", items=(_RANK, _RANK)),
    "suits": Kind("tuple", "suits", items=(_SUIT, _SUIT)),
    "tricks0": Kind("number", "tricks0", *_COUNT), "tricks1": Kind("number", "tricks1", *_COUNT),
    "played": Kind("number", "played", 1, rules.TRICKS_PER_ROUND,
                   name="played (asked after every trick)"),
    "last": Kind("bool", "last"),
    **{word: Kind("bool", word) for word in ("true", "false", "True", "False")},
}
_ATTRIBUTES = {"rank": _RANK, "suit": _SUIT, "trump": Kind("bool", "a card's trump")}
_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%",
            ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
            ast.GtE: ">="}


def did_you_mean(word, choices):
    """``"; did you mean 'x'?"`` for the closest of ``choices``, or the allowed ones."""
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    if close:
        return f"; did you mean {close[0]!r}?"
    return f"; expected one of: {', '.join(choices)}"


def _known(*kinds):
    return all(k.low is not None for k in kinds)


def _number(node, low, high):
    return Kind("number", ast.unparse(node), low, high)


def _corners(f, a, b):
    values = [f(x, y) for x in (a.low, a.high) for y in (b.low, b.high)]
    return min(values), max(values)


def example(kind, trick):
    """A true-or-false use of ``kind``, for the refusal of a rule or an operand that is not."""
    text = kind.text
    if kind.what == "number":
        if _known(kind) and kind.low <= 0 <= kind.high:
            return f"{text} > 0" if kind.low == 0 else f"{text} != 0"
        bound = kind.high - 2 if _known(kind) and kind.high - 2 > kind.low else 0
        return f"{text} >= {bound}"
    if kind.what == "suit":
        return f"{text} == 'red'"
    if kind.what == "card":
        return f"{text}.rank == 4"
    if kind.what == "tuple":
        first = kind.items[0].what if kind.items else "number"
        return f"'red' in {text}" if first in ("suit", "text") else f"4 in {text}"
    return "lead.suit == 'red'" if trick else "tricks0 > 4"


class Meaning:
    """The types of an expression's parts; ``refuse(what, hint=None)`` raises the one-line
    refusal; ``trick``: a trick rule's (else a rule on the tricks won), for the examples."""

    def __init__(self, refuse, trick):
        self.refuse = refuse
        self.trick = trick

    def infer(self, node):
        """The :class:`Kind` of ``node`` (a node the language's check admitted)."""
        method = getattr(self, f"_{type(node).__name__.lower()}")
        return method(node)

    def _name(self, node):
        return NAMES[node.id]

    def _constant(self, node):
        v = node.value
        if isinstance(v, bool):
            return Kind("bool", ast.unparse(node))
        if isinstance(v, int):
            return _number(node, v, v)
        return Kind("text", repr(v), values=(v,))

    def _attribute(self, node):
        owner = self.infer(node.value)
        if owner.what != "card":
            self.refuse(f"{ast.unparse(node.value)} is {WORDS[owner.what]}, not a card: only a "
                        f"card has .{node.attr}")
        return _ATTRIBUTES[node.attr]._replace(text=ast.unparse(node))

    def _tuple(self, node):
        return Kind("tuple", ast.unparse(node), items=tuple(self.infer(e) for e in node.elts))

    _list = _tuple

    def _bool(self, operand, word):
        kind = self.infer(operand)
        if kind.what != "bool":
            self.refuse(f"{word} is for true or false, and {kind.text} is {WORDS[kind.what]}",
                        f"compare it, e.g. {example(kind, self.trick)!r}")
        return kind

    def _boolop(self, node):
        word = "and" if isinstance(node.op, ast.And) else "or"
        for sub in node.values:
            self._bool(sub, repr(word))
        return Kind("bool", ast.unparse(node))

    def _unaryop(self, node):
        if isinstance(node.op, ast.Not):
            self._bool(node.operand, "'not'")
            return Kind("bool", ast.unparse(node))
        kind = self._numbers("-", node.operand)[0]
        if _known(kind):
            return _number(node, -kind.high, -kind.low)
        return _number(node, None, None)

    def _numbers(self, symbol, *operands):
        kinds = [self.infer(sub) for sub in operands]
        for kind in kinds:
            if kind.what != "number":
                self.refuse(f"{symbol!r} is for numbers, and {kind.text} is {WORDS[kind.what]}")
        return kinds

    def _binop(self, node):
        symbol = _SYMBOLS[type(node.op)]
        a, b = self._numbers(symbol, node.left, node.right)
        if not _known(a, b):
            return _number(node, None, None)
        if symbol == "+":
            return _number(node, a.low + b.low, a.high + b.high)
        if symbol == "-":
            return _number(node, a.low - b.high, a.high - b.low)
        if symbol == "*":
            return _number(node, *_corners(lambda x, y: x * y, a, b))
        if b.low == b.high == 0:
            self.refuse(f"{ast.unparse(node)} divides by zero")
        if b.low <= 0 <= b.high:
            return _number(node, None, None)
        if symbol == "//":
            return _number(node, *_corners(lambda x, y: x // y, a, b))
        return _number(node, 0, b.high - 1) if b.low > 0 else _number(node, b.low + 1, 0)

    def _call(self, node):
        name = node.func.id
        if name == "len":
            (kind,) = self._arguments(node, 1)
            if kind.what != "tuple":
                self.refuse(f"len counts a tuple's values, and {kind.text} is "
                            f"{WORDS[kind.what]}")
            return _number(node, len(kind.items), len(kind.items))
        if name == "abs":
            (kind,) = self._arguments(node, 1)
            self._numbers("abs", node.args[0])
            if not _known(kind):
                return _number(node, None, None)
            if kind.low >= 0:
                return _number(node, kind.low, kind.high)
            if kind.high <= 0:
                return _number(node, -kind.high, -kind.low)
            return _number(node, 0, max(-kind.low, kind.high))
        kinds = self._arguments(node, None)
        if len(kinds) == 1:
            if kinds[0].what != "tuple" or not kinds[0].items:
                self.refuse(f"{name} of one value takes a tuple of numbers, e.g. {name}(ranks)")
            values = kinds[0]
            kinds = list(values.items)
            for kind in kinds:
                if kind.what != "number":
                    self.refuse(f"{name} is for numbers, and {values.text} holds "
                                f"{WORDS[kind.what]}")
        else:
            kinds = self._numbers(name, *node.args)
        if not _known(*kinds):
            return _number(node, None, None)
        pick = min if name == "min" else max
        return _number(node, pick(k.low for k in kinds), pick(k.high for k in kinds))

    def _arguments(self, node, count):
        name = node.func.id
        if count is not None and len(node.args) != count:
            self.refuse(f"{name} takes {count} value, got {len(node.args)}")
        if count is None and not node.args:
            self.refuse(f"{name} takes a tuple or two numbers or more, got nothing")
        return [self.infer(a) for a in node.args]

    def _ifexp(self, node):
        self._bool(node.test, "the condition of 'x if condition else y'")
        return self._either(node, self.infer(node.body), self.infer(node.orelse))

    def _either(self, node, a, b):
        text = ast.unparse(node)
        if {a.what, b.what} == {"text", "suit"}:
            self._suit_names(a if a.what == "text" else b)
            return Kind("suit", text)
        if a.what != b.what:
            self.refuse(f"{text} is either {WORDS[a.what]} or {WORDS[b.what]}")
        if a.what == "number":
            if not _known(a, b):
                return _number(node, None, None)
            return _number(node, min(a.low, b.low), max(a.high, b.high))
        if a.what == "tuple":
            if len(a.items) != len(b.items):
                self.refuse(f"{text} is either a tuple of {len(a.items)} or of {len(b.items)}")
            return Kind("tuple", text, items=tuple(self._either(node, x, y)
                                                   for x, y in zip(a.items, b.items)))
        return Kind(a.what, text, values=a.values + b.values)

    def _suit_names(self, kind):
        for value in kind.values:
            if value not in rules.SUIT_NAMES:
                self.refuse(f"{value!r} is not a suit" + did_you_mean(value, rules.SUIT_NAMES))

    def _compare(self, node):
        left = self.infer(node.left)
        for op, sub in zip(node.ops, node.comparators):
            right = self.infer(sub)
            if isinstance(op, (ast.In, ast.NotIn)):
                if right.what != "tuple":
                    self.refuse(f"'in' looks in a tuple, and {right.text} is "
                                f"{WORDS[right.what]}")
                for item in right.items:
                    self._equal(left, item)
            elif isinstance(op, (ast.Eq, ast.NotEq)):
                self._equal(left, right)
            else:
                self._ordered(_SYMBOLS[type(op)], left, right)
            left = right
        return Kind("bool", ast.unparse(node))

    def _ordered(self, symbol, *kinds):
        for kind in kinds:
            if kind.what != "number":
                self.refuse(f"{symbol!r} orders numbers, and {kind.text} is {WORDS[kind.what]}")

    def _equal(self, a, b):
        """Refuse ``a == b`` (or ``a`` in a tuple holding ``b``) where it can never hold."""
        if {a.what, b.what} == {"text", "suit"}:
            self._suit_names(a if a.what == "text" else b)
        elif a.what == b.what == "text":
            self.refuse(f"{a.text} and {b.text} are both text", "compare a suit with a suit's "
                        "name, e.g. \"lead.suit == 'red'\"")
        elif a.what != b.what:
            self.refuse(f"{a.text} is {WORDS[a.what]} and {b.text} is {WORDS[b.what]}: "
                        f"never equal")
        elif a.what == "tuple":
            if len(a.items) != len(b.items):
                self.refuse(f"{a.text} holds {len(a.items)} values and {b.text} "
                            f"{len(b.items)}: never equal")
            for x, y in zip(a.items, b.items):
                self._equal(x, y)
        elif a.what == "number" and _known(a, b) and (a.high < b.low or b.high < a.low):
            if b.low == b.high:
                self.refuse(f"{a.named} is {a.low}..{a.high}, never {b.low}")
            if a.low == a.high:
                self.refuse(f"{b.named} is {b.low}..{b.high}, never {a.low}")
            self.refuse(f"{a.named} is {a.low}..{a.high} and {b.named} {b.low}..{b.high}: "
                        f"never equal")
