"""Difficulty presets: named settings of the knobs, per edition.

``difficulty.toml`` beside this file holds them; ``experiments/derive_presets.py`` derives them
with the tuner (:mod:`slashersim.tune`) and writes the evidence to ``results/presets.md``.
"""
from functools import cache
from pathlib import Path
import tomllib

from .. import rules
from ..config import ConfigError

PRESETS_FILE = Path(__file__).with_name("difficulty.toml")
DIFFICULTIES = ("easy", "normal", "hard", "nightmare")


@cache
def load_presets():
    """``{edition: {difficulty: {knob: value}}}`` from ``difficulty.toml`` (empty if absent)."""
    if not PRESETS_FILE.exists():
        return {}
    data = tomllib.loads(PRESETS_FILE.read_text())
    return {edition: {name: dict(p["knobs"]) for name, p in table.items()}
            for edition, table in data.items()}


def preset_knobs(name, edition="rulebook"):
    """The knob values of difficulty ``name`` for ``edition``; a one-line error if unknown."""
    if edition not in rules.EDITION_NAMES:
        raise ConfigError(f"unknown edition {edition!r}; expected one of: "
                          f"{', '.join(rules.EDITION_NAMES)}")
    available = load_presets().get(edition, {})
    if name not in available:
        choices = ", ".join(n for n in DIFFICULTIES if n in available) or "(none derived yet)"
        raise ConfigError(f"unknown difficulty {name!r}; expected one of: {choices}")
    return dict(available[name])


def overrides(values):
    """The knobs of a mapping with a ``difficulty`` entry that override its preset: ``[(knob,
    preset value, explicit value)]`` for each knob given explicitly with another value than
    the preset's. An explicit knob always wins over the preset (see
    :meth:`slashersim.config.GameConfig.from_dict`); callers say so."""
    name = values.get("difficulty")
    if name is None:
        return []
    preset = preset_knobs(name, values.get("edition", "rulebook"))
    return [(k, preset[k], values[k]) for k in preset
            if k in values and values[k] is not None and values[k] != preset[k]]
