"""The rules a result was played under, by content: :class:`RulesId`.

Two results are of the same game only if every rule in force is the same and every card file
holds the same content, whatever its path. A ``RulesId`` is made once per configuration
(:attr:`slashersim.core.config.GameConfig.rules_id`) and travels with what is played under it:
a run's summary, a game record, a sweep's checkpoints and table. Whatever reuses earlier work
compares it and names what changed (:meth:`RulesId.changes`). Pure Python.
"""
from __future__ import annotations

from dataclasses import dataclass
import hashlib
import json
from pathlib import Path


@dataclass(frozen=True)
class RulesId:
    """``rules``: every rule value in force (``GameConfig.describe()``), the card file's path
    left out; ``cards``: ``((file, sha256), ...)`` of each card file in force (none for the
    printed cards). :attr:`digest` names both by content."""

    rules: str
    cards: tuple = ()

    @classmethod
    def of(cls, described):
        """The id of a configuration's ``describe()`` dict."""
        rules = dict(described)
        file = rules.pop("cards", None)
        cards = () if file is None else ((str(file), rules["cards_sha256"]),)
        return cls(json.dumps(rules, sort_keys=True, default=str), cards)

    @property
    def digest(self):
        """SHA-256 of the rules in force and each card file's content (not its path)."""
        return hashlib.sha256(self.rules.encode()).hexdigest()

    def to_dict(self):
        """JSON-ready: ``digest`` and ``cards`` (each file's name and its content's hash)."""
        return {"digest": self.digest,
                "cards": [{"file": file, "sha256": sha} for file, sha in self.cards]}

    def changes(self, other):
        """What differs from ``other`` (an earlier ``RulesId``) in words, one entry each:
        ``card file swamp.toml: sha256 1a2b3c4d5e6f… then, 9f8e7d6c5b4a… now``, or
        ``rule health: 5 then, 7 now``; empty when both name the same rules."""
        if self.digest == other.digest:
            return []
        out = []
        before, now = dict(other.cards), dict(self.cards)
        for file in dict.fromkeys([*before, *now]):
            if before.get(file) != now.get(file):
                out.append(f"card file {Path(file).name}: {_sha(before.get(file))} then, "
                           f"{_sha(now.get(file))} now")
        old, new = json.loads(other.rules), json.loads(self.rules)
        for key in dict.fromkeys([*old, *new]):
            if key != "cards_sha256" and old.get(key) != new.get(key):
                out.append(f"rule {key}: {_value(old.get(key))} then, {_value(new.get(key))} "
                           f"now")
        return out or ["the rules"]


def _sha(sha):
    return "none" if sha is None else f"sha256 {sha[:12]}…"


def _value(value):
    return "not set" if value is None else json.dumps(value)
