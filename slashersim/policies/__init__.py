"""Policies, registered by name without compiling them.

The registry below is pure Python: the command line reads policy names, parameter specs and
defaults from it to check its input before anything compiles. :func:`get_policy` imports a
policy's module only when games are about to be played. Adding a policy means one module that
defines ``decide(decision, player, arg, st, params)`` (``engine.interface`` documents the decisions)
and one line in ``POLICIES``; a policy with parameters lists them there as :class:`Param`
specs (the built-in ones live in :mod:`.params`).
"""
from collections.abc import Callable
from contextlib import contextmanager
import difflib
from functools import cache
from importlib import import_module
import math
from typing import NamedTuple

import numpy as np

from ..core.compiling import KERNELS, KINDS, Part
from .params import BELIEF, EXPERT, HEURISTIC, OMNISCIENT, OPEN_HANDS, SEARCH, Param, defaults


class PolicySpec(NamedTuple):
    """A registry line: everything about a player. Where its jitted function is and what it
    takes; the skill level it plays, if any (:data:`SKILLS` is read from these); how the
    compile notice names it and about how long it compiles from a clean cache on an idle
    2-core machine (its compile part, :func:`compile_parts`); and whether it has kernels of
    its own (``fast``: :data:`slashersim.runner.kernels.FAST` holds them)."""

    module: str                 #: its module, relative to this package (``.name``) or absolute
    params: tuple = ()          #: :class:`Param` specs, in parameter-vector order
    omniscient: bool = False    #: True if it reads hidden information (a yardstick)
    function: str = "decide"    #: the ``@njit`` policy function in that module
    skill: str | None = None    #: the skill level it plays (novice, casual, expert), if any
    label: str = ""             #: how the compile notice names it ("the expert player")
    #: its compile time from a clean cache, for a player no one measured (a user's own); the
    #: package's players are measured (``core.compiling.measured_seconds``)
    compile_seconds: int = 30
    fast: bool = False          #: True if it has kernels of its own, with it compiled in


class Policy(NamedTuple):
    """A registry entry with its function, as :func:`get_policy` returns it."""

    name: str
    decide: Callable            #: the jitted policy function
    default_params: np.ndarray  #: its tunable numbers
    omniscient: bool            #: True if it reads hidden information (a yardstick)
    param_names: tuple = ()     #: names of the entries of ``default_params``


POLICIES = {
    "baseline": PolicySpec(".baseline", skill="novice", label="the baseline",
                           compile_seconds=20, fast=True),
    "exerciser": PolicySpec(".exerciser", label="the exerciser player", compile_seconds=5),
    "heuristic": PolicySpec(".heuristic", HEURISTIC, skill="casual", label="the heuristic",
                            compile_seconds=10),
    "expert": PolicySpec(".expert", EXPERT, skill="expert", label="the expert player",
                         compile_seconds=25),
    "search": PolicySpec(".search", SEARCH, label="the search player"),
    "omniscient": PolicySpec(".omniscient", OMNISCIENT, omniscient=True,
                             label="the omniscient player"),
    "belief": PolicySpec(".belief", BELIEF, label="the belief player", compile_seconds=80),
    "open_hands": PolicySpec(".open_hands", OPEN_HANDS, omniscient=True,
                             label="the open-hands player", compile_seconds=70),
}

#: the skill ladder: the level a designer asks for, and the player that plays it (read from
#: the registry's ``skill``)
SKILLS = {spec.skill: name for name, spec in POLICIES.items() if spec.skill}
#: the player every command, the Python API, the page and the notebooks speak for unless told
#: otherwise: the level a designer tunes for
DEFAULT_SKILL = "expert"


def compile_parts(policies=(), kernels=("engine",)):
    """The :class:`~slashersim.core.compiling.Part` objects a run needs: each kernel kind of
    ``kernels`` (``engine``, ``held``, ``rollouts``, ``record``) for each of ``policies`` (a
    policy with a fast path has kernels of its own), and the policies compiled apart; a
    Python player (anything not a ``str``) plays on a kernel of its own. Read from the
    registry, so a new player's entry is its part."""
    parts = []

    def add(part):
        if part not in parts:
            parts.append(part)

    for kind in kernels:
        kernel = KINDS[kind]
        for name in policies or ("",):
            if not isinstance(name, str):
                if kernel == "engine":
                    add(KERNELS["python"])
                continue
            spec = POLICIES.get(resolve(name))
            listed = isinstance(spec, PolicySpec)
            if listed and spec.fast and kernel != "record":
                add(_fast_part(resolve(name), kernel))
                continue
            add(KERNELS[kernel])
            if listed and not spec.fast:
                add(_policy_part(resolve(name)))
    return parts


def _fast_part(name, kernel):
    spec = POLICIES[name]
    label = f"the engine with {spec.label}" if kernel == "engine" else KERNELS[kernel].label
    function = "chunk" if kernel == "engine" else "rollouts"
    return Part(f"{kernel}_{name}", "kernels", f"{function}_{name}", label,
                spec.compile_seconds)


def _policy_part(name):
    spec = POLICIES[name]
    return Part(name, spec.module.rsplit(".", 1)[-1], spec.function,
                spec.label or f"the {name} player", spec.compile_seconds)


def compile_part(name):
    """The :class:`~slashersim.core.compiling.Part` named ``name`` (what a helper process
    compiles: :func:`slashersim.runner.kernels.compile_part`)."""
    if name in KERNELS:
        return KERNELS[name]
    kernel, _, policy = name.partition("_")
    if kernel in ("engine", "rollouts") and POLICIES.get(policy, PolicySpec("")).fast:
        return _fast_part(policy, kernel)
    if isinstance(POLICIES.get(name), PolicySpec) and not POLICIES[name].fast:
        return _policy_part(name)
    raise ValueError(f"no compile part {name!r}")


def resolve(name):
    """The policy a name stands for: a skill level (:data:`SKILLS`) or a policy name."""
    return SKILLS.get(name, name)


def skill_of(policy):
    """The skill level ``policy`` plays, or ``None``."""
    return next((level for level, p in SKILLS.items() if p == policy), None)


def policy_names():
    return tuple(POLICIES)


def unknown_policy(name):
    """The one-line refusal of a policy name that is neither registered nor a skill level,
    with the nearest valid name suggested."""
    close = difflib.get_close_matches(str(name), [*POLICIES, *SKILLS], 1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return (f"unknown policy {name!r}{hint}; expected one of: {', '.join(POLICIES)}, or a "
            f"skill level: {', '.join(SKILLS)}")


def _entry(name):
    try:
        return POLICIES[resolve(name)]
    except (KeyError, TypeError):
        raise ValueError(unknown_policy(name)) from None


def param_specs(name):
    """The :class:`Param` specs of policy ``name`` (pure: nothing is imported or compiled).

    A registry value that is already a compiled entry (anything with ``decide``, e.g. a test
    policy) has unbounded float parameters named by its ``param_names``."""
    entry = _entry(name)
    if isinstance(entry, PolicySpec):
        return tuple(entry.params)
    names = tuple(entry.param_names) or tuple(str(i) for i in range(len(entry.default_params)))
    return tuple(Param(n, float, -math.inf, math.inf, float(d))
                 for n, d in zip(names, entry.default_params))


@contextmanager
def registered(name, entry):
    """Within the ``with`` block, ``entry`` (a :class:`PolicySpec`, or an entry with its
    ``decide`` compiled already) is the player registered as ``name``; after it, the registry
    is as it was (a player that held the name before holds it again)."""
    with kept_registry():
        POLICIES[name] = entry
        yield name


@contextmanager
def kept_registry():
    """Within the ``with`` block the registry may change (a document registers a player of
    its own); after it, it is as it was."""
    before = dict(POLICIES)
    try:
        yield POLICIES
    finally:
        POLICIES.clear()
        POLICIES.update(before)


def is_omniscient(name):
    return bool(_entry(name).omniscient)


def param_vector(name, overrides=None):
    """The parameter vector of policy ``name``, its defaults with ``overrides`` applied.

    ``overrides`` maps a parameter name (or its index) to a value, a number or its text; each
    value is checked against the parameter's type and range (:meth:`Param.check`), so a bad
    value is refused before anything compiles. Returns ``ndarray(float64, (n_params,))``,
    read-only (a policy receives its parameters read-only: ``engine.interface.readonly``).
    """
    specs = param_specs(name)
    names = tuple(p.name for p in specs)
    params = defaults(specs)
    for key, value in (overrides or {}).items():
        if key in names:
            index = names.index(key)
        elif isinstance(key, (int, np.integer)) and not isinstance(key, bool) \
                or str(key).isdigit():
            index = int(key)
        else:
            index = -1
        if not 0 <= index < len(specs):
            raise ValueError(f"policy {name!r} has no parameter {key!r}; "
                             + (f"expected one of: {', '.join(names)}" if specs
                                else "it has none"))
        params[index] = specs[index].check(value, name)
    return _frozen(params)


def _frozen(params):
    params.flags.writeable = False
    return params


def check_param_vector(name, params):
    """``params`` as a read-only float64 vector (a copy) after checking its length and every
    entry's type and range against policy ``name``'s specs."""
    specs = param_specs(name)
    params = np.array(params, dtype=np.float64)
    if params.shape != (len(specs),):
        raise ValueError(f"policy {name!r} takes {len(specs)} parameters, got {params.size}")
    for p, v in zip(specs, params):
        p.check(float(v), name)
    return _frozen(params)


def get_policy(name):
    """The registry entry (:class:`Policy`) of policy ``name`` with its module imported; a
    clear error for an unknown name. Nothing is compiled here: the runner compiles what it
    plays (:mod:`slashersim.runner.kernels`)."""
    entry = _entry(name)
    if not isinstance(entry, PolicySpec):
        return entry
    return _imported(name, entry)


@cache
def _imported(name, entry):
    """Policy ``name`` of registry entry ``entry`` with its module imported, once per entry (a
    name registered anew imports anew; ``_imported.cache_clear()`` forgets them all)."""
    module = import_module(entry.module, __name__)
    return Policy(name, getattr(module, entry.function), param_vector(name), entry.omniscient,
                  tuple(p.name for p in entry.params))
