"""What a Python player reaches besides its observation: its object, its class, and what its
code names at module level. Pure Python (nothing here compiles).

Each seat of each game plays a ``copy.deepcopy`` of a Python player, so what the object holds
is copied and what its code reaches outside the object is shared: module globals, the
attributes of the modules it names, class attributes, closures and defaults. Two things follow:

- a random generator of its own repeats its dice (each copy starts from the same state) or,
  shared, makes a game's dice depend on the games before it; :func:`refuse_own_generators`
  refuses either, naming where the generator sits and the observation's own stream;
- shared state is a channel between the seats that the object does not show: :func:`shared`
  lists it, for the hygiene checker to hold unchanged across a decision.

The code is read from its bytecode (the names a function loads as globals, the attribute
chains it follows from them, the modules it imports), so what it reaches by a computed name
(``getattr(random, name)``, ``sys.modules[...]``) or through a library's functions is not
seen.
"""
import builtins
from collections import deque
import dis
import functools
import random
import sys
import sysconfig
import types

import numpy as np

from ..core.errors import ConfigError

#: the generator types a player may not hold or reach (Python's and numpy's)
GENERATORS = (random.Random, np.random.Generator, np.random.RandomState, np.random.BitGenerator)
#: where a player takes its random numbers instead
OWN_STREAM = ("draw from the observation's own stream instead: rng.rand_below(obs.state, "
              "rng.POLICY, n), with from slashersim.engine import rng")
#: what :func:`shared` reads for a name that is not (yet) bound
MISSING = "<not bound>"
#: most objects :func:`refuse_own_generators` visits in a player's object
_MAX_VISITS = 100_000
_LIBRARIES = tuple(sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib",
                                                       "platlib"))
_NOT_OWN = frozenset(sys.stdlib_module_names) | {"slashersim", "numpy", "numba", "pandas"}


def policy_label(policy) -> str:
    """A name for ``policy`` in tables: its ``name`` attribute, else its class or function
    name."""
    if isinstance(policy, str):
        return policy
    name = getattr(policy, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(policy, "__name__", None) or type(policy).__name__


def generator_kind(obj) -> str | None:
    """``random.Random``, ``numpy.random.Generator``, ... for a random generator, else None."""
    if not isinstance(obj, GENERATORS):
        return None
    module = "numpy.random" if isinstance(obj, GENERATORS[1:]) else type(obj).__module__
    return f"{module}.{type(obj).__qualname__}"


def _is_code(obj):
    """A module, class, function or compiled function: code, not state."""
    return (isinstance(obj, (type, types.ModuleType, types.FunctionType, types.BuiltinMethodType,
                             types.MethodType, functools._lru_cache_wrapper))
            or hasattr(obj, "py_func"))


def _bound_to(obj):
    """The object a method is bound to (a generator for ``random.choice``), or None."""
    owner = getattr(obj, "__self__", None)
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType)) and owner is not None \
            and not isinstance(owner, (type, types.ModuleType)):
        return owner
    return None


def _is_own(fn):
    """A function of the player's own code: not of the standard library, an installed
    package, or this package."""
    module = getattr(fn, "__module__", None) or ""
    if module.partition(".")[0] in _NOT_OWN:
        return False
    path = getattr(sys.modules.get(module), "__file__", None)
    return path is None or not path.startswith(_LIBRARIES)


# --- the player's object --------------------------------------------------------------------------
def _function_parts(fn, path):
    code = fn.__code__
    for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
        yield _cell(cell), f"{path} (closure variable {name})"
    names = code.co_varnames[:code.co_argcount]
    defaults = fn.__defaults__ or ()
    for name, value in zip(names[len(names) - len(defaults):], defaults):
        yield value, f"{path} (default of {name})"
    for name, value in (fn.__kwdefaults__ or {}).items():
        yield value, f"{path} (default of {name})"


def _slots(obj):
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and hasattr(obj, slot):
                yield slot, getattr(obj, slot)


def _parts(obj, path):
    """``(value, path, shared)`` of what ``obj`` holds; ``shared``: not copied with it."""
    if isinstance(obj, dict):
        return [(v, f"{path}[{k!r}]", False) for k, v in obj.items()]
    if isinstance(obj, (list, tuple, deque)):
        return [(v, f"{path}[{i}]", False) for i, v in enumerate(obj)]
    if isinstance(obj, (set, frozenset)):
        return [(v, f"{path} (an element)", False) for v in obj]
    if isinstance(obj, np.ndarray):
        return [(v, f"{path} (an element)", False) for v in obj.flat] \
            if obj.dtype == object else []
    if isinstance(obj, functools.partial):
        return [(v, f"{path} (partial)", True)
                for v in (obj.func, *obj.args, *obj.keywords.values())]
    owner = _bound_to(obj)
    if owner is not None:
        return [(owner, path, False)]
    if isinstance(obj, types.FunctionType):
        return [(v, p, True) for v, p in _function_parts(obj, path)]
    if _is_code(obj) or isinstance(obj, (str, bytes, int, float, complex, range)):
        return []
    return [(v, f"{path}.{k}", False) for k, v in
            [*getattr(obj, "__dict__", {}).items(), *_slots(obj)]]


def _held(policy):
    """``(path, generator, shared)`` of the first generator ``policy``'s object holds (its
    attributes, their attributes, items and closures, its classes' attributes), or None."""
    policy = _object(policy)
    if isinstance(policy, types.FunctionType):
        return _first_generator([(v, p, True) for v, p in
                                 _function_parts(policy, policy_label(policy))], policy)
    return _first_generator(_parts(policy, "self") + [
        (v, f"{cls.__qualname__}.{name} (class attribute)", True)
        for cls, name, v in _state_of(_classes(policy))], policy)


def _first_generator(todo, *skip):
    """``(path, generator, shared)`` of the first generator found from ``todo``'s ``(value,
    path, shared)`` (breadth first), or None."""
    todo, seen = deque(todo), {id(s) for s in skip}
    while todo and len(seen) < _MAX_VISITS:
        obj, path, shared = todo.popleft()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if generator_kind(obj):
            return path, obj, shared
        todo.extend((v, p, shared or s) for v, p, s in _parts(obj, path))
    return None


def _classes(policy):
    """The player's classes (its class and their bases, not Python's own), none for a
    function."""
    if isinstance(policy, (types.FunctionType, type)):
        return []
    return [c for c in type(policy).__mro__
            if c.__module__.partition(".")[0] not in sys.stdlib_module_names]


def _object(policy):
    """The object that answers: a bound method's object (copied with it), else ``policy``."""
    return policy.__self__ if isinstance(policy, types.MethodType) else policy


def _state_of(classes):
    """``(cls, name, value)`` of the state ``classes`` hold (not their code)."""
    for cls in classes:
        for name, value in vars(cls).items():
            if not (name.startswith("__") and name.endswith("__")) and not _is_code(value) \
                    and not isinstance(value, (staticmethod, classmethod, property)):
                yield cls, name, value


def _cell(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return MISSING


# --- what its code names --------------------------------------------------------------------------
def _methods(classes):
    out = []
    for cls in classes:
        for value in vars(cls).values():
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if isinstance(value, property):
                out += [f for f in (value.fget, value.fset) if f is not None]
            elif isinstance(value, types.FunctionType):
                out.append(value)
    return out


def _functions_of(policy):
    """The functions that answer for ``policy``: the function itself, or its classes' methods
    (and a function held as its ``act``)."""
    if isinstance(policy, types.FunctionType):
        return [policy]
    if isinstance(policy, functools.partial):
        return _functions_of(policy.func)
    act = getattr(policy, "__dict__", {}).get("act")
    return _methods(_classes(policy)) + ([act] if isinstance(act, types.FunctionType) else [])


def _codes(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _chains(code):
    """The attribute chains ``code`` follows from a global or a module it imports:
    ``(start, names)``, ``start`` a global's name or a module."""
    local, chain, fromlist, full, module, pending = {}, None, None, "", None, None
    for ins in dis.get_instructions(code):
        op, arg = ins.opname, ins.argval
        if chain is not None and op in ("LOAD_ATTR", "LOAD_METHOD", "STORE_ATTR"):
            chain[1].append(arg)
            if op != "STORE_ATTR":
                continue
        if chain is not None:
            yield chain[0], tuple(chain[1])
            chain = None
            if op == "STORE_ATTR":
                continue
        if op in ("LOAD_GLOBAL", "LOAD_NAME"):
            chain = (arg, [])
        elif op == "STORE_GLOBAL":
            yield arg, ()
        elif op == "LOAD_FAST" and arg in local:
            chain = (local[arg][0], list(local[arg][1]))
        elif op == "LOAD_CONST":
            fromlist = arg
        elif op == "IMPORT_NAME":
            full = arg
            module = sys.modules.get(arg if fromlist else arg.partition(".")[0])
            pending = None if module is None else (module, ())
        elif op == "IMPORT_FROM":
            if fromlist:
                pending = None if module is None else (module, (arg,))
            else:
                pending = (sys.modules[full], ()) if full in sys.modules else None
        elif op in ("STORE_FAST", "STORE_NAME"):
            if pending is not None:
                local[arg] = pending
            else:
                local.pop(arg, None)
            pending = None
    if chain is not None:
        yield chain[0], tuple(chain[1])


def _resolve(scope, start, names):
    """``(key, value)`` at the end of a chain of modules: the first object that is not a
    module (the one a method is bound to), :data:`MISSING` for a name not bound yet; ``(None,
    None)`` for a module or a builtin."""
    if isinstance(start, str):
        here = scope.get("__name__", "?")
        if start not in scope:
            return (None, None) if hasattr(builtins, start) else (f"{here}.{start}", MISSING)
        value, key = scope[start], f"{here}.{start}"
    else:
        value, key = start, start.__name__
    for name in names:
        if not isinstance(value, types.ModuleType):
            break
        key = f"{value.__name__}.{name}"
        value = getattr(value, name, MISSING)
    if isinstance(value, types.ModuleType):
        return None, None
    owner = _bound_to(value)
    return key, value if owner is None else owner


def _read(scope, start, names):
    return _resolve(scope, start, names)[1]


def _defaults(fn):
    return fn.__defaults__, fn.__kwdefaults__


def _class_reader(cls, name):
    return vars(cls).get(name, MISSING)


def shared(policy):
    """What ``policy``'s code reaches beyond its object and its observation: ``[(what,
    read), ...]``, ``read()`` giving its value now (:data:`MISSING` for a global not bound
    yet). Read from the functions that answer for it, and the functions and classes of its
    own code they name: each global they name and each module attribute they follow
    (``global mod.NOTES``; ``global random.choice`` is the generator behind it), the
    attributes of its classes, and the closures and defaults of those functions (a function
    player's own are part of its object)."""
    policy = _object(policy)
    found = {}

    def add_classes(classes):
        for cls, name, _ in _state_of(classes):
            found.setdefault(f"class attribute {cls.__qualname__}.{name}",
                             functools.partial(_class_reader, cls, name))

    add_classes(_classes(policy))
    todo, done = _functions_of(policy), set()
    while todo:
        fn = todo.pop()
        if id(fn) in done:
            continue
        done.add(id(fn))
        if fn is not policy and (fn.__defaults__ or fn.__kwdefaults__):
            found.setdefault(f"defaults of {fn.__qualname__}", functools.partial(_defaults, fn))
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            if fn is not policy:
                found.setdefault(f"closure variable {fn.__qualname__}.{name}",
                                 functools.partial(_cell, cell))
            if isinstance(_cell(cell), types.FunctionType) and _is_own(_cell(cell)):
                todo.append(_cell(cell))
        for code in _codes(fn.__code__):
            for start, names in _chains(code):
                key, value = _resolve(fn.__globals__, start, names)
                if key is None or (_is_code(value) and not _is_own(value)):
                    continue
                if isinstance(value, types.FunctionType):
                    todo.append(value)
                elif isinstance(value, type):
                    classes = [c for c in value.__mro__ if c is not object]
                    todo += _methods(classes)
                    add_classes(classes)
                elif not _is_code(value):
                    found.setdefault(f"global {key}",
                                     functools.partial(_read, fn.__globals__, start, names))
    return list(found.items())


# --- the refusal ----------------------------------------------------------------------------------
def refuse_own_generators(policy):
    """Refuse (:class:`ConfigError`, one line) a Python player that holds a random generator
    in its object or reaches one through its code (a module's, a class attribute, Python's
    shared one behind ``random.random``, numpy's behind ``np.random.rand``): copied with
    the player, each seat of each game rolls the same dice; shared, a game's dice depend on
    the games played before it; the system's (``random.SystemRandom``) follow no seed. A
    registered name passes."""
    if isinstance(policy, str):
        return
    held = _held(policy)
    if held is None:
        roots = []
        for what, read in shared(policy):
            how, _, name = what.rpartition(" ")
            if how == "defaults of":            # read is partial(_defaults, the function)
                roots += [(v, p, True) for v, p in _function_parts(read.args[0], name)
                          if "(default of " in p]
            else:
                roots.append((read(), name if how == "global" else f"{name} ({how})", True))
        held = _first_generator(roots)
    if held is None:
        return
    path, generator, is_shared = held
    label = policy_label(policy)
    kind = generator_kind(generator)
    where = f"{path[:-1]}, {kind})" if path.endswith(")") else f"{path} ({kind})"
    if isinstance(generator, random.SystemRandom):
        raise ConfigError(f"player {label} uses the system's randomness at {where}, "
                          f"which no run seed repeats, so no game of it can be replayed; "
                          f"{OWN_STREAM}")
    if is_shared:
        raise ConfigError(f"player {label} uses a random generator at {where} that "
                          f"every seat and game shares, so a game's dice depend on the games "
                          f"played before it; {OWN_STREAM}")
    raise ConfigError(f"player {label} holds a random generator at {where}: each seat "
                      f"of each game plays its own copy of the player, so every copy rolls "
                      f"the same dice; {OWN_STREAM}")
