"""Policies, registered by name without compiling them.

The registry below is pure Python: the command line reads policy names, parameter specs and
defaults from it to check its input before anything compiles. :func:`get_policy` imports a
policy's module only when games are about to be played. Adding a policy means one module that
defines ``decide(decision, player, arg, st, params)`` (``engine.interface`` documents the decisions)
and one line in ``POLICIES``; a policy with parameters lists them there as :class:`Param`
specs (the built-in ones live in :mod:`.params`).

Wherever a player is named, a *mixed pair* may be: ``SEAT0+SEAT1`` (``novice+expert``, or the
tuple ``("novice", "expert")``), seat 0's player then seat 1's. Its name resolves side by side
(:func:`resolve`: ``baseline+expert``; a pair of one player, ``expert+expert``, is that player),
its parameters are seat 0's then seat 1's, named ``seat0.NAME`` and ``seat1.NAME``
(:func:`param_specs`), it is omniscient if either member is, and its ``decide`` is a
:class:`Pair` of the members' functions, which the runner compiles into one policy that asks
each seat's own player (:func:`slashersim.runner.kernels.as_function`).
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


class Pair(NamedTuple):
    """The ``decide`` of a mixed pair (:func:`get_policy` of ``A+B``): the members' policy
    functions and how many parameters seat 0's takes. Pure data: the runner compiles it into
    one policy function that asks seat 0's player for seat 0 and seat 1's for seat 1, each with
    its own slice of the parameters (:func:`slashersim.runner.kernels.as_function`)."""

    seat0: Callable             #: seat 0's policy function
    seat1: Callable             #: seat 1's policy function
    n0: int                     #: the length of seat 0's parameter vector


#: what joins a mixed pair's players in its name: seat 0's, then seat 1's (``novice+expert``)
PAIR = "+"

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
            sides = split_pair(resolve(name))
            if sides is not None:
                # a pair plays on the function-pointer kernels, each member compiled apart
                add(KERNELS[kernel])
                for side in sides:
                    if isinstance(POLICIES.get(side), PolicySpec):
                        add(_policy_part(side))
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
    if isinstance(POLICIES.get(name), PolicySpec):
        return _policy_part(name)   # a fast player's own function: a member of a pair
    raise ValueError(f"no compile part {name!r}")


def pair_name(policy):
    """``policy`` with a pair given as a tuple or list of two names (``("novice", "expert")``)
    joined into its name (``"novice+expert"``); anything else unchanged."""
    if isinstance(policy, (tuple, list)) and policy and all(isinstance(p, str) for p in policy):
        return PAIR.join(policy)
    return policy


def split_pair(name):
    """The players' names of a pair name (``"a+b"`` -> ``("a", "b")``, each stripped), or
    ``None`` for one player's name (nothing is checked: :func:`check_pair`)."""
    name = pair_name(name)
    if isinstance(name, str) and PAIR in name:
        return tuple(side.strip() for side in name.split(PAIR))
    return None


def resolve(name):
    """The policy a name stands for: a skill level (:data:`SKILLS`) or a policy name; a pair's
    each side so (``novice+expert`` -> ``baseline+expert``), and a pair of one player that
    player (``expert+expert`` -> ``expert``); a pair that is not two registered players stays as
    given, for its check to refuse (:func:`check_pair`). A tuple is joined first."""
    name = pair_name(name)
    if split_pair(name) is None:
        return SKILLS.get(name, name) if isinstance(name, str) else name
    try:
        sides = check_pair(name)
    except ValueError:
        return name                 # refused as given (check_pair) where it is checked
    return sides[0] if sides[0] == sides[1] else PAIR.join(sides)


def is_pair(name):
    """Whether ``name`` names a mixed pair of two registered players (after :func:`resolve`:
    ``expert+expert`` is the expert, no pair)."""
    name = resolve(name)
    if split_pair(name) is None:
        return False
    try:
        check_pair(name)
    except ValueError:
        return False
    return True


def _allowed():
    return f"{', '.join(POLICIES)}, or a skill level: {', '.join(SKILLS)}"


def check_pair(name):
    """The two policies of pair ``name`` (resolved), after checking it: exactly two sides,
    neither empty nor itself a pair, each a registered policy or skill level; else a one-line
    ``ValueError`` naming the bad value and the allowed ones. Nothing is imported."""
    given = pair_name(name)
    sides = split_pair(given)
    if sides is None:
        raise ValueError(f"{given!r} is not a pair; a pair is SEAT0+SEAT1, each one of: "
                         f"{_allowed()}")
    if len(sides) != 2:
        raise ValueError(f"a pair is two players, SEAT0+SEAT1, got {given!r} "
                         f"({len(sides)} players); each one of: {_allowed()}")
    for seat, side in enumerate(sides):
        if not side:
            raise ValueError(f"pair {given!r} has no player in seat {seat}; expected "
                             f"SEAT0+SEAT1 (e.g. novice+expert), each one of: {_allowed()}")
        if resolve(side) not in POLICIES:
            close = difflib.get_close_matches(side, [*POLICIES, *SKILLS], 1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"unknown policy {side!r} in seat {seat} of pair {given!r}{hint}; "
                             f"expected one of: {_allowed()}")
    return tuple(resolve(side) for side in sides)


def seats_of(name):
    """The policy of each seat of ``name``: ``(a, b)`` for a pair, ``(name, name)`` for one
    player (resolved; pairs checked)."""
    name = resolve(name)
    return check_pair(name) if split_pair(name) is not None else (name, name)


def skill_of(policy):
    """The skill level ``policy`` plays, or ``None``."""
    return next((level for level, p in SKILLS.items() if p == policy), None)


def policy_names():
    return tuple(POLICIES)


def unknown_policy(name):
    """The one-line refusal of a policy name that is neither registered nor a skill level,
    with the nearest valid name suggested (a pair's refusal names its bad side)."""
    if split_pair(name) is not None:
        try:
            check_pair(name)
        except ValueError as e:
            return str(e)
    close = difflib.get_close_matches(str(name), [*POLICIES, *SKILLS], 1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return (f"unknown policy {name!r}{hint}; expected one of: {', '.join(POLICIES)}, or a "
            f"skill level: {', '.join(SKILLS)}")


def _entry(name):
    if split_pair(resolve(name)) is not None:
        raise ValueError(f"{name!r} is a pair")
    try:
        return POLICIES[resolve(name)]
    except (KeyError, TypeError):
        raise ValueError(unknown_policy(name)) from None


def param_specs(name):
    """The :class:`Param` specs of policy ``name`` (pure: nothing is imported or compiled).

    A registry value that is already a compiled entry (anything with ``decide``, e.g. a test
    policy) has unbounded float parameters named by its ``param_names``. A pair's are seat 0's
    then seat 1's, named ``seat0.NAME`` and ``seat1.NAME``."""
    if split_pair(resolve(name)) is not None:
        return tuple(p._replace(name=f"seat{seat}.{p.name}")
                     for seat, side in enumerate(check_pair(name)) for p in param_specs(side))
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
    """Whether ``name`` reads hidden information (a yardstick); a pair does if either of its
    players does."""
    if split_pair(resolve(name)) is not None:
        return any(is_omniscient(side) for side in check_pair(name))
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
    plays (:mod:`slashersim.runner.kernels`). A pair's ``decide`` is a :class:`Pair` of its
    players' functions."""
    if split_pair(resolve(name)) is not None:
        members = [get_policy(side) for side in check_pair(name)]
        specs = param_specs(name)
        return Policy(resolve(name), Pair(members[0].decide, members[1].decide,
                                          len(members[0].default_params)),
                      _frozen(np.concatenate([m.default_params for m in members])),
                      any(m.omniscient for m in members), tuple(p.name for p in specs))
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
