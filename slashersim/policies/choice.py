"""A user's choice of policies and their parameters, checked against the registry: a policy
or skill name, a parameter mapping or vector, the command line's lists and ``POLICY.NAME=VALUE``
items. Pure Python: nothing is imported or compiled, and every refusal is one line
(:class:`~slashersim.core.errors.ConfigError`)."""
from collections.abc import Mapping

from ..core.errors import ConfigError
from . import (
    SKILLS,
    check_param_vector,
    pair_name,
    param_specs,
    param_vector,
    policy_names,
    resolve,
)
from .reach import refuse_own_generators


def check_policy(policy):
    """A skill level as the policy it stands for, a policy name checked against the registry
    (nothing is imported or compiled); anything that is not a ``str`` (a Python player) is
    returned unchanged, unless it holds or reaches a random generator of its own
    (:func:`~slashersim.policies.reach.refuse_own_generators`). A mixed pair, ``"A+B"`` or
    ``("A", "B")``, is checked side by side and returned as its name (``baseline+expert``)."""
    policy = pair_name(policy)
    if not isinstance(policy, str):
        refuse_own_generators(policy)
        return policy
    name = resolve(policy)
    param_specs(name)
    return name


def check_params(policy, params):
    """A policy's parameters: a mapping of names (or indices) to values over its defaults, or
    its whole vector, each value checked against its type and range; ``None`` passes, and
    anything given with a Python player is passed through."""
    policy = pair_name(policy)
    if params is None or not isinstance(policy, str):
        return params
    if isinstance(params, Mapping):
        return param_vector(policy, params)
    return check_param_vector(policy, params)


def parse_policy_params(items):
    """``["POLICY.NAME=VALUE", ...]`` as ``{policy: {name: value}}``, each policy name,
    parameter name, type and range checked. ``POLICY`` may be a row label, ``heuristic#2``,
    to set the second heuristic row apart from the first."""
    out = {}
    for item in items or ():
        head, sep, value = item.partition("=")
        policy, dot, name = head.partition(".")
        if not (sep and dot and policy and name):
            raise ConfigError(f"policy parameter must be POLICY.NAME=VALUE, got {item!r}")
        out.setdefault(policy, {})[name] = value
        param_vector(policy.partition("#")[0], {name: value})
    return {policy: {name: float(v) for name, v in over.items()} for policy, over in out.items()}


def parse_names(text, option="policies"):
    """The comma-separated policy names or skill levels of ``text`` (``option`` names it in
    a refusal), each registered; an empty name (``expert,,casual``) is refused by position."""
    names = [p.strip() for p in str(text).split(",")]
    if not any(names):
        raise ConfigError(f"{option} needs at least one policy, got {text!r}; expected some "
                          f"of: {', '.join(policy_names())}, or a skill level: "
                          f"{', '.join(SKILLS)}")
    if "" in names:
        raise ConfigError(f"{option} {text!r} has an empty name at position "
                          f"{names.index('') + 1}; expected comma-separated names such as "
                          f"{','.join(SKILLS)}")
    for name in names:
        param_specs(name)
    return names


def parse_policy_list(text, option="policies"):
    """The policies of ``text``: ``all`` (every registered policy), or comma-separated policy
    names or skill levels (:func:`parse_names`), each as the policy it stands for."""
    if str(text).strip() == "all":
        return list(policy_names())
    return [resolve(name) for name in parse_names(text, option)]
