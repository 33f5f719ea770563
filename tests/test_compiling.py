"""The first run's compiling is never a silent wait: :class:`slashersim.core.compiling.Watch` says,
from numba's compiler events, which part compiles (part k of n) and the time so far, and how
long it took; the Python API reports it as the command line does."""
import ast
import io
import os
import subprocess
import sys
import time
import types

from numba.core import event
import pytest

from slashersim.core import compiling, numba_checks
from slashersim.core.compiling import Part
from slashersim.policies import compile_part, compile_parts

FIRST = Part("first", "parts_here", "first", "the first part", 1)
SECOND = Part("second", "parts_here", "second", "the second part", 1)


def fake_compile(name):
    """The start and end events numba sends when it compiles function ``name`` of module
    ``parts_here``."""
    fn = types.FunctionType((lambda: None).__code__, {}, name)
    fn.__module__ = "somewhere.parts_here"
    data = {"dispatcher": types.SimpleNamespace(py_func=fn)}
    return (event.Event("numba:compile", event.EventStatus.START, data),
            event.Event("numba:compile", event.EventStatus.END, data))


def test_the_watch_names_the_part_compiling_and_the_time_so_far():
    out = io.StringIO()
    w = compiling.Watch([FIRST, SECOND], out, every=3600).start()
    try:
        assert w.line() == "slashersim: compiling, 0 s so far"
        start, end = fake_compile("first")
        w._listener.notify(start)
        assert w.line() == "slashersim: compiling the first part (part 1 of 2), 0 s so far"
        w._listener.notify(end)
        start, end = fake_compile("second")
        w._listener.notify(start)
        assert w.line() == "slashersim: compiling the second part (part 2 of 2), 0 s so far"
        assert out.getvalue() == ""
        w._listener.notify(end)
        assert out.getvalue() == "slashersim: compiled in 0 s\n"
    finally:
        w.close()


def test_an_interrupted_compile_says_no_time_it_took():
    """numba sends the end of a compile that an interrupt (or an error) broke off as a failed
    event: the report then ends without "compiled in", which would say the part is ready."""
    out = io.StringIO()
    w = compiling.Watch([FIRST], out, every=3600).start()
    try:
        start, end = fake_compile("first")
        w._listener.notify(start)
        w._listener.notify(event.Event("numba:compile", event.EventStatus.END, end.data,
                                       exc_details=(KeyboardInterrupt, KeyboardInterrupt(),
                                                    None)))
        assert out.getvalue() == ""
        assert w._stopped.is_set()
        w._listener.notify(end)
        assert out.getvalue() == ""
    finally:
        w.close()


def test_an_interrupted_first_run_says_interrupted_not_compiled(tmp_path):
    """Ctrl-C during a first run's compiling: the command says it was interrupted, never
    that it compiled, and the part is still named as not compiled for the next run."""
    import signal
    env = {**os.environ, "SLASHERSIM_CACHE_DIR": str(tmp_path),
           "SLASHERSIM_COMPILE_PROCESSES": "1"}
    # a suite started in the background of a non-interactive shell ignores SIGINT, and so
    # would the command: it gets Ctrl-C's default back, as from a terminal
    p = subprocess.Popen([sys.executable, "-m", "slashersim", "simulate", "--skill", "novice",
                          "--games", "10"], env=env, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = p.stderr.readline()
    assert first.startswith("slashersim: compiling the engine with the baseline, first run only")
    time.sleep(2)
    p.send_signal(signal.SIGINT)
    rest = p.stderr.read()
    assert p.wait(timeout=60) == 130, rest
    assert "compiled in" not in rest and rest.rstrip().endswith("slashersim: interrupted")
    code = ("from slashersim.core import compiling; from slashersim.policies import "
            "compile_parts; print(compiling.message(compile_parts(['baseline']), loaded=False))")
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True).stdout
    assert again.startswith("slashersim: compiling the engine with the baseline, first run only")


def test_the_watch_reports_while_it_waits_and_sees_real_compiles(tmp_path):
    module = tmp_path / "parts_here.py"
    module.write_text("from numba import njit\n\n@njit\ndef first(x):\n    return x + 1\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import parts_here
        out = io.StringIO()
        w = compiling.Watch([FIRST], out, every=0.001).start()
        time.sleep(0.05)
        assert parts_here.first(1) == 2
        w.close()
    finally:
        sys.path.remove(str(tmp_path))
    lines = out.getvalue().splitlines()
    assert lines[-1].startswith("slashersim: compiled in ")
    assert any(line.startswith("slashersim: compiling") and "s so far" in line
               for line in lines[:-1])


def test_an_api_call_reports_a_cold_kernel(monkeypatch, capsys):
    """A Python API run on a cold cache says what compiles (here the cache is made to look
    cold; nothing is really compiled twice)."""
    import slashersim
    compiling.enable(False, command=False)
    monkeypatch.setattr(compiling, "is_cached", lambda part: False)
    slashersim.simulate(policy="novice", games=20)
    err = capsys.readouterr().err
    assert err.startswith("slashersim: compiling the engine with the baseline, first run only")
    compiling.api_notes(False)
    try:
        slashersim.simulate(policy="novice", games=20)
        assert capsys.readouterr().err == ""
    finally:
        compiling.api_notes(True)


def _names(parts):
    return [p.name for p in parts]


def test_a_python_player_has_a_part_of_its_own():
    assert _names(compile_parts([object()])) == ["python"]
    assert _names(compile_parts(["expert", object()])) == ["engine", "expert", "python"]


def test_the_parts_come_from_the_registry():
    assert _names(compile_parts(["novice", "casual"], ["engine", "rollouts", "record"])) == [
        "engine_baseline", "engine", "heuristic", "rollouts_baseline", "rollouts", "record"]
    assert compile_parts(["expert"]) == [compile_part("engine"), compile_part("expert")]
    assert compile_part("engine_baseline").label == "the engine with the baseline"
    assert compile_part("search").label == "the search player"
    with pytest.raises(ValueError):
        compile_part("engine_expert")


def test_a_package_kernel_counts_as_cached(tmp_path, monkeypatch):
    """The expert is a package: numba caches its ``decide`` as ``__init__.decide`` in the
    package's cache folder, which counts as the expert's."""
    monkeypatch.setattr(compiling, "cache_dir", lambda: str(tmp_path))
    assert not compiling.is_cached(compile_part("expert"))
    folder = tmp_path / "numba-0" / "expert_0123abcd"
    folder.mkdir(parents=True)
    (folder / "__init__.decide-80.py311.nbi").write_bytes(b"")
    assert compiling.is_cached(compile_part("expert"))
    assert not compiling.is_cached(compile_part("search"))


# --- parts side by side in helper processes ---------------------------------------------------
#: fixed estimates (engine 45 s, expert 40, exerciser 5), so that the order tested does not
#: follow the measured ones (:func:`declared_only`)
ENGINE, EXPERT, EXERCISER = (compile_part(name)._replace(declared=seconds) for name, seconds in
                             (("engine", 45), ("expert", 40), ("exerciser", 5)))


@pytest.fixture(autouse=True)
def declared_only(request, monkeypatch):
    """The tests of the schedule and the message read the parts' declared seconds."""
    if "measured" not in request.node.name:
        monkeypatch.setattr(compiling, "measured_seconds", lambda: {})


def test_every_part_of_the_package_has_a_measured_compile_time():
    """The notice's estimate of each part the package's players and kernels compile is the
    one measured (``slashersim/data/compile_seconds.json``), not a figure written by hand."""
    import json

    from slashersim.policies import POLICIES, compile_parts
    made = json.loads(compiling.MEASURED.read_text())
    assert made["made_by"].startswith("python dev/benchmarks/compile_profile.py")
    parts = compile_parts([*POLICIES, object()], ["engine", "rollouts", "record"])
    assert {p.name for p in parts} <= set(made["seconds"])
    for part in parts:
        assert part.seconds == made["seconds"][part.name] > 0
    assert compile_part("expert")._replace(name="a_user_s_own").seconds == \
        compile_part("expert").declared


def test_parts_are_dealt_longest_first_to_the_least_loaded_process():
    assert compiling.schedule([EXPERT, ENGINE], 2) == [[ENGINE], [EXPERT]]
    assert compiling.schedule([EXERCISER, EXPERT, ENGINE], 2) == \
        [[ENGINE], [EXPERT, EXERCISER]]
    assert compiling.schedule([EXPERT, ENGINE], 1) == [[ENGINE, EXPERT]]
    assert compiling.schedule([EXPERT], 4) == [[EXPERT]]


def test_the_announcement_says_how_many_processes_and_the_longest_wait(monkeypatch):
    monkeypatch.setattr(compiling, "is_cached", lambda part: False)
    line = compiling.message([ENGINE, EXPERT, EXERCISER], workers=2, loaded=False)
    assert line.startswith("slashersim: compiling the engine, the expert player and the "
                           "exerciser player in 2 processes, first run only, about 45 s on an "
                           "idle machine")
    assert "processes" not in compiling.message([ENGINE, EXPERT], workers=1)
    # on a busy machine the estimate is said to be an idle machine's, not promised
    line = compiling.message([ENGINE, EXPERT, EXERCISER], workers=2, loaded=True)
    assert "other work is keeping the cores busy, so it takes longer than the 45 s it takes " \
        "on an idle machine" in line


def test_the_processes_follow_the_environment(monkeypatch):
    monkeypatch.setenv("SLASHERSIM_COMPILE_PROCESSES", "1")
    assert compiling.processes() == 1
    monkeypatch.setenv("SLASHERSIM_COMPILE_PROCESSES", "nonsense")
    assert compiling.processes() >= 1


def test_helpers_run_side_by_side_and_a_failed_part_is_left_to_the_command(tmp_path):
    def command(part):
        code = (f"import time; t = time.time(); time.sleep(0.4); "
                f"open({str(tmp_path / part.name)!r}, 'w').write(f'{{t}} {{time.time()}}'); "
                f"raise SystemExit({int(part.name == 'exerciser')})")
        return [sys.executable, "-c", code]
    out = io.StringIO()
    parts = [ENGINE, EXPERT, EXERCISER]
    w = compiling.Watch(parts, out, every=3600).start()
    try:
        failed = compiling.compile_apart(parts, 2, w, command=command)
    finally:
        w.close()
    assert failed == [EXERCISER]
    (a0, a1), (b0, b1) = (map(float, (tmp_path / p).read_text().split())
                          for p in ("engine", "expert"))
    assert a0 < b1 and b0 < a1                  # the two ran at the same time
    assert w.started == [ENGINE, EXPERT, EXERCISER]
    assert w.done == {ENGINE, EXPERT} and out.getvalue() == ""   # not finished yet
    w.end(EXERCISER)                            # the command compiled it itself
    assert out.getvalue().startswith("slashersim: compiled in ")


def test_the_watch_names_every_part_compiling_side_by_side():
    w = compiling.Watch([ENGINE, EXPERT], io.StringIO(), every=3600)
    w.begin(ENGINE)
    w.begin(EXPERT)
    assert w.line() == ("slashersim: compiling the engine and the expert player "
                        "(parts 1-2 of 2), 0 s so far")


def test_a_helper_compiles_its_part_into_the_cache(tmp_path):
    env = {**os.environ, "SLASHERSIM_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    subprocess.run([sys.executable, "-c", compiling.HELPER.format(part="exerciser")], env=env,
                   check=True, timeout=600)
    assert list(tmp_path.rglob("exerciser.decide-*.nbi"))


def _index(path, signatures):
    """A numba cache index file holding ``signatures`` (its format: a pickled version, then
    the pickled stamp and overloads)."""
    import pickle
    overloads = {(sig, ("magic",)): f"data-{i}" for i, sig in enumerate(signatures)}
    with open(path, "wb") as f:
        pickle.dump("0.0", f)
        f.write(pickle.dumps(((0.0, 0), overloads)))


def test_a_function_compiled_again_for_a_literal_is_found():
    from numba import types as nt
    arr = nt.int64[::1]
    compiled = [("items.use_items", (arr, nt.int64)), ("items.use_items", (arr, nt.literal(0))),
                ("items.use_items", (arr, nt.Omitted(0))),
                ("game.play_block", (arr, nt.int64)), ("game.play_block", (arr, nt.uint64)),
                ("deal.once", (arr, nt.int64)), ("deal.once", (nt.float64[::1], nt.int64)),
                ("deal.same", (arr, nt.int64)), ("deal.same", (arr, nt.int64)),
                ("numba.cpython.hashing.process_return", (nt.int64,)),
                ("numba.cpython.hashing.process_return", (nt.uint64, nt.literal(0)))]
    found = numba_checks.repeated_compilations(compiled)
    assert sorted(found) == ["game.play_block", "items.use_items"]
    assert len(found["items.use_items"]) == 3


def test_the_compile_log_names_what_numba_compiles():
    import numba
    import numpy as np

    @numba.njit
    def twice(a, k):
        return a[k]

    @numba.njit
    def caller(a, n):
        return twice(a, 0) + twice(a, n)

    with numba_checks.compile_log() as log:
        caller(np.zeros(3), 1)
    found = numba_checks.repeated_compilations(log)
    assert [name.rsplit(".", 1)[-1] for name in found] == ["twice"]


def test_a_cached_function_with_two_signatures_is_found(tmp_path, monkeypatch):
    from numba import types as nt
    monkeypatch.setattr(compiling, "cache_dir", lambda: str(tmp_path))
    arr = nt.int64[::1]
    _index(tmp_path / "items.use_items-1.py311.nbi", [(arr, nt.int64), (arr, nt.literal(0))])
    _index(tmp_path / "deal.once-1.py311.nbi", [(arr, nt.int64)])
    assert list(numba_checks.cached_twice()) == ["items.use_items-1.py311.nbi"]


def test_the_warm_up_compiled_each_function_once_per_signature(request):
    """The parts the suite's workers compiled before their first test (conftest's warm-up)
    typed each function once: no literal constant, omitted default or unsigned loop index
    made numba compile a function again."""
    log = getattr(request.config, "slashersim_compiled", None)
    if not log:
        pytest.skip("this worker's warm-up compiled nothing (the cache was warm)")
    assert numba_checks.repeated_compilations(log) == {}


def test_no_function_in_the_cache_has_two_signatures():
    """The race-free cache: a function generic in the player is cached only inside its
    kernels, every other one with its one signature (see ``numba_checks.cached_twice``)."""
    from slashersim.runner.kernels import compile_part
    compile_part("engine")
    assert numba_checks.cached_twice() == {}


def test_a_recorder_around_a_policy_is_loaded_from_the_cache_in_a_later_process(tmp_path):
    """A closure over a policy (the solver's and the hygiene checker's recorders) is keyed by
    what its cells hold, not by their per-process bytes: a second process loads it."""
    code = ("from numba.core import event\n"
            "from slashersim.runner.recorded import _recorder\n"
            "from slashersim.policies import get_policy\n"
            "names = []\n"
            "class L(event.Listener):\n"
            "    def on_start(self, e): names.append(e.data['dispatcher'].py_func.__qualname__)\n"
            "    def on_end(self, e): pass\n"
            "with event.install_listener('numba:compile', L()):\n"
            "    _recorder(get_policy('exerciser').decide, 0)\n"
            "print(sum('record' in n for n in names))\n")
    env = {**os.environ, "SLASHERSIM_CACHE_DIR": str(tmp_path)}
    compiled = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                               text=True, check=True).stdout.split()[-1] for _ in range(2)]
    assert compiled == ["1", "0"]


def test_a_recorder_s_cache_key_follows_its_cells():
    from slashersim.engine.lazy import _describe
    from slashersim.policies import baseline, exerciser
    assert _describe(baseline.decide) == _describe(baseline.decide)
    assert _describe(baseline.decide) != _describe(exerciser.decide)
    assert _describe(3) != _describe(4)
    anything = object()
    assert _describe(anything) != _describe(anything)


# --- the cache's key: what compiled code can reach ----------------------------------------------
_JIT_DECORATORS = {"njit", "jit", "cfunc", "intrinsic", "lazy_njit", "closure_njit", "overload",
                   "register_jitable"}


def _module_name(path, root):
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_names(tree, module, is_package, modules):
    """Each name a module binds by an import of this package -> the module it comes from."""
    package = module if is_package else module.rsplit(".", 1)[0]
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] \
                if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            if not source.startswith("slashersim"):
                continue
            for alias in node.names:
                whole = f"{source}.{alias.name}"
                names[alias.asname or alias.name] = whole if whole in modules else source
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("slashersim"):
                    names[alias.asname or alias.name.split(".")[0]] = alias.name
    return names


def _is_jit(decorator):
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
    return name in _JIT_DECORATORS


def kernel_reach(root):
    """The modules of the package at ``root`` that compiled code can reach: each module that
    defines a numba function, each module whose names those functions read, and (for constants
    computed from another module) what those modules import in turn."""
    modules = {_module_name(p, root): p for p in root.rglob("*.py")}
    reach, todo = set(), []
    for name, path in modules.items():
        tree = ast.parse(path.read_text())
        jitted = [f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.ClassDef))
                  and any(_is_jit(d) for d in f.decorator_list)]
        jitted += [c for c in ast.walk(tree) if isinstance(c, ast.Call) and _is_jit(c.func)]
        if not jitted:
            continue
        reach.add(name)
        imported = _imported_names(tree, name, path.name == "__init__.py", modules)
        for f in jitted:
            for node in ast.walk(f):
                if isinstance(node, ast.Name) and node.id in imported:
                    todo.append(imported[node.id])
    while todo:
        name = todo.pop()
        if name in reach or name not in modules:
            continue
        reach.add(name)
        path = modules[name]
        todo += _imported_names(ast.parse(path.read_text()), name, path.name == "__init__.py",
                                modules).values()
    return reach


def test_the_cache_key_covers_every_module_compiled_code_can_reach():
    from slashersim.core.provenance import PACKAGE_DIR, kernel_sources
    keyed = {_module_name(p, PACKAGE_DIR) for p in kernel_sources()}
    reach = kernel_reach(PACKAGE_DIR)
    assert {"slashersim.engine.game", "slashersim.core.layout", "slashersim.core.rules",
            "slashersim.policies.expert.rollouts", "slashersim.runner.kernels"} <= reach
    assert reach - keyed == set(), "add these to provenance.KERNEL_SOURCES"


def test_an_edit_outside_the_kernels_keeps_the_cache_and_one_inside_starts_a_new_one(tmp_path):
    """The cache folder is named after the kernels' sources: an edit of the command line or the
    page keeps every compiled kernel; an edit of the engine starts a fresh cache."""
    import shutil

    from slashersim.core.provenance import PACKAGE_DIR, kernel_digest
    copy = tmp_path / "slashersim"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = kernel_digest(copy)
    assert before == kernel_digest(PACKAGE_DIR)
    for edited in ("cli/__init__.py", "serve/app.py", "analysis/report.py", "api/calls.py",
                   "present/text.py", "core/config.py"):
        path = copy / edited
        path.write_text(path.read_text() + "\n# an edit\n")
    assert kernel_digest(copy) == before
    path = copy / "engine" / "tricks.py"
    path.write_text(path.read_text() + "\n# an edit\n")
    assert kernel_digest(copy) != before
