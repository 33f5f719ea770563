"""The ``slashersim`` command line: ``simulate``, ``luck``, ``compare``, ``sweep``, ``tune``,
``report``, ``info``, ``serve`` and ``bench``.

A thin layer over the public API (:mod:`slashersim.api`): each command reads the options that
:func:`.parser.parse` read whole, calls the API's function for its question, and presents the
answer (:mod:`slashersim.present.text`, :mod:`slashersim.present.figures`). It refuses bad input
with one line on stderr, naming every bad option, and exit status 2 before anything compiles or
plays; the checks are the ones the API runs (pure-Python ones from :mod:`slashersim.core.inputs`
and :class:`~slashersim.core.config.GameConfig`, the others through the API). The API is
imported inside each command, after the pure-Python checks (marked "after the checks"):
``--help`` and most refusals take a third of a second instead of the second it takes to load. A
run whose games broke an invariant of the rules exits with status 1.
"""
import _thread
from contextlib import contextmanager
import json
import os
from pathlib import Path
import sys
import threading
import time
from types import SimpleNamespace
from typing import NamedTuple

from ..api import checks
from ..core import compiling
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.inputs import (
    RULE_OPTIONS_ONLY,
    OutputLock,
    check_backend,
    check_output,
    check_positive,
    check_report_paths,
    parse_rules,
    parse_variant,
    same_path,
    write_atomic,
)
from ..core.presets import overrides
from ..core.progress import bar, duration, increments
from ..core.rules import DIFFICULTY_KNOBS as DEFAULT_TUNE_KNOBS
from ..policies import compile_parts
from ..policies.choice import (
    parse_names,
    parse_policy_list,
    parse_policy_params,
)
from ..present.text import (
    area_names,
    config_line,
    describe_winnable,
    format_bench,
    format_comparison,
    format_effects,
    format_info,
    format_killer_effects,
    format_policy_speeds,
    format_sources,
    format_summary,
    format_timeline,
    format_variants,
    format_why,
    format_win_probability,
    player_line,
    winnable_values,
    with_card_warnings,
)
from .parser import parse


def _param_values(args):
    """``(values, refused)``: the ``--policy-param NAME=VALUE`` options as ``{NAME: VALUE}``
    (the values are checked by the API), and the refusals of options not of that form."""
    values, refused = {}, []
    for item in args.policy_param:
        name, sep, value = item.partition("=")
        if not sep or not name:
            refused.append(f"policy parameter must be NAME=VALUE, got {item!r}")
        values[name] = value
    return values, refused


def params_from_args(args):
    """The policy's parameter vector with the ``--policy-param NAME=VALUE`` options applied,
    checked by the API (nothing is compiled)."""
    values, refused = _param_values(args)
    if refused:
        raise ConfigError(refused[0])
    return checks.policy_params(args.policy, values)[1]


def config_from_args(args):
    """The ``GameConfig`` named by the options of :func:`add_run_options`, checked by the API,
    which names every value refused; also checks ``--threads``. ``--difficulty`` sets the
    preset's knobs first; the options given explicitly override them (:func:`_override_notes`
    says so)."""
    values, refused = _config_values(args)
    return checks.every(*(lambda r=r: _refuse(r) for r in refused),
                        lambda: checks.config_of(None, values),
                        lambda: checks.check_threads(getattr(args, "threads", None)))[-2]


def _json(answer):
    """An answer as ``--json`` prints it: with its card file's warnings, if any."""
    return json.dumps(with_card_warnings(answer))


def _refuse(message):
    raise ConfigError(message)


def _config_values(args):
    """``(values, refused)``: the configuration's values as the options give them, and the
    refusals of ``--rule`` found on the way."""
    given = {"health": args.health, "hideaway": args.hideaway,
             "cursed_object": args.cursed_object, "escapes_needed": args.escapes_needed,
             "traps": args.traps}
    values = {"edition": args.edition, "max_rounds": args.max_rounds,
              **{k: v for k, v in given.items() if v is not None}}
    if getattr(args, "cards", None) is not None:
        values["cards"] = args.cards
    refused = []
    try:
        ruled = parse_rules(getattr(args, "rule", ()),
                            [k for k in GameConfig.knob_names() if k not in RULE_OPTIONS_ONLY])
    except ConfigError as e:
        refused.append(str(e))
        ruled = {}
    for name, value in ruled.items():
        option = "--" + name.replace("_", "-")
        if name in given and given[name] is not None:
            raise ConfigError(f"--rule {name}={_show(value)} and {option} {_show(given[name])} "
                              f"both set {name}; give one")
        if name == "max_rounds" and args.max_rounds != 200:
            raise ConfigError(f"--rule max_rounds={value} and --max-rounds {args.max_rounds} "
                              f"both set max_rounds; give one")
    values = {**values, **ruled}
    if args.difficulty is not None:
        values["difficulty"] = args.difficulty
    return values, refused


def _override_notes(args):
    """A note for each option given explicitly over a ``--difficulty`` preset's knob."""
    if getattr(args, "difficulty", None) is None:
        return []
    return _override_lines(overrides(_config_values(args)[0]))


def _override_lines(found):
    """The notes of the options given over a preset's knobs
    (:class:`~slashersim.core.presets.Override`): an explicit option wins."""
    return [f"note: --{o.knob.replace('_', '-')} {_show(o.value)} overrides difficulty "
            f"{o.difficulty}'s {o.knob} {_show(o.preset)} (an explicit option wins over a "
            f"preset)" for o in found]


def _checked(args, *tests, refused=()):
    """The results of ``tests`` (callables, the API's checks), run in turn; when any refuses,
    one line names every refusal, with the option values refused while parsing
    (``args.refused``, then ``refused``), not only the first. Every command of the run options
    (``gathers``) starts with it."""
    found = [*getattr(args, "refused", ()), *refused]
    return checks.every(*(lambda r=r: _refuse(r) for r in found), *tests)[len(found):]


def _show(value):
    return str(value).lower() if isinstance(value, bool) else str(value)


def _start(args, policies=(), kernels=("engine",), notes=()):
    """After the checks, before the first game: print the notes (an option overriding a
    preset), and allow the compile message (not with ``--quiet``) for what the command will
    play."""
    for note in [*_override_notes(args), *notes]:
        print(f"slashersim: {note}", file=sys.stderr)
    compiling.enable(_shown(args).notice, compile_parts(policies, kernels))


class _Shown(NamedTuple):
    """What a command shows on stderr: the compile ``notice`` and a progress ``bar``."""

    notice: bool
    bar: bool


def _shown(args):
    """Not with ``--quiet``; the bar on a terminal unless ``--no-progress``."""
    quiet = getattr(args, "quiet", False)
    return _Shown(not quiet, not quiet and getattr(args, "progress", None) is not False)


def _bar(args, total, unit="game", long=False):
    """The command's progress bar (:func:`_shown`); a ``long`` command off a terminal prints a
    line of progress and time left every minute."""
    return bar(total, enabled=_shown(args).bar, unit=unit, lines_every=60 if long else None)


@contextmanager
def _counted_bar(args, unit="game"):
    """A ``progress(done, total)`` callback for a command whose total the API knows only once
    it plays (``luck timeline``: the play-outs of the replayed game); its bar (:func:`_bar`)
    starts at the first call."""
    shown, done = [], [0]

    def progress(n, total):
        if not shown:
            shown.append(_bar(args, total, unit=unit).__enter__())
        if n > done[0]:
            shown[0].update(n - done[0])
            done[0] = n
    try:
        yield progress
    finally:
        if shown:
            shown[0].__exit__(None, None, None)


#: games from which a command counts as long and estimates its time before it plays
LONG_GAMES = 10_000


def _estimate(args, what, runs):
    """Before a long command plays (:data:`LONG_GAMES` games or more): its games and the time
    they should take here, from each player's speed measured now; ``runs`` holds
    ``(config, policy, params, games)``."""
    if getattr(args, "quiet", False) or sum(r[3] for r in runs) < LONG_GAMES:
        return
    from .. import api  # after the checks
    speeds, seconds = {}, 0.0
    for config, policy, params, games in runs:
        if policy not in speeds:
            speeds[policy] = api.games_per_second(config, policy, params, args.threads)
        seconds += games / speeds[policy]
    rates = ", ".join(f"{policy} {speed:,.0f}" for policy, speed in speeds.items())
    print(f"slashersim: {what} plays {sum(r[3] for r in runs):,} games: expect about "
          f"{duration(seconds)} (games/s measured just now: {rates})", file=sys.stderr,
          flush=True)


def _wrote(path, what="file"):
    """Name on stderr a file the command wrote."""
    print(f"slashersim: wrote {what} {path}", file=sys.stderr)


def _violations(n, total, what="games"):
    """Exit status 1 and one line when ``n`` of ``total`` games broke an invariant."""
    if not n:
        return 0
    print(f"slashersim: error: {n:,} of {total:,} {what} broke an invariant of the rules (a "
          f"broken policy or engine bug); the figures above are not trustworthy",
          file=sys.stderr)
    return 1


def _check_png(args, inputs=()):
    """``--png``: a writable file path, checked before anything plays."""
    if getattr(args, "png", None):
        check_output(args.png, "--png", inputs=inputs)


def _save_png(path, fig):
    write_atomic(path, lambda f: fig.savefig(f, format="png"), mode="wb")
    _wrote(path, "figure")


def _check_record(args):
    """``--record N --record-out FILE``: both or neither, N a game of the run, FILE writable."""
    if (args.record is None) != (args.record_out is None):
        raise ConfigError("--record N and --record-out FILE.json go together")
    if args.record is not None:
        if not 0 <= args.record < args.games:
            raise ConfigError(f"--record must be 0..{args.games - 1} (a game of the run), "
                              f"got {args.record}")
        check_output(args.record_out, "--record-out")


def cmd_simulate(args):
    values, refused = _config_values(args)
    params, wrong = _param_values(args)
    shown = _shown(args)
    kernels = ["engine", "record"] if args.record is not None else ["engine"]
    _, run = _checked(args, lambda: _check_record(args), lambda: checks.simulate_inputs(
        policy=args.policy, games=args.games, seed=args.seed, threads=args.threads,
        params=params, winnable=args.winnable, winnable_seconds=args.winnable_seconds,
        kernels=kernels, **values), refused=[*refused, *wrong])
    for note in _override_lines(run.overrides):
        print(f"slashersim: {note}", file=sys.stderr)
    compiling.enable(shown.notice, run.parts)
    from .. import api  # after the checks
    if args.record is not None:
        rec = api.record(run.config, policy=run.policy, game=args.record, seed=run.seed,
                         params=run.params, winnable_seconds=None if args.winnable is None
                         else args.winnable_seconds)
        write_atomic(args.record_out, lambda f: json.dump(rec, f, indent=1))
        print(f"game record of game {args.record} ({rec['outcome']}, {rec['rounds']} rounds) "
              f"written to {args.record_out}", file=sys.stderr)
        if "winnable" in rec:
            print(f"game {args.record}: {describe_winnable(rec['winnable'])}", file=sys.stderr)
    with bar(run.games, enabled=shown.bar) as b:
        result = api.simulate(run.config, policy=run.policy, games=run.games, seed=run.seed,
                              threads=run.threads, progress=increments(b.update),
                              params=run.params)
    summary = result.summary()
    if args.winnable is not None:
        n = min(run.winnable, run.games)
        with bar(n, enabled=shown.bar) as b:
            summary["winnable"] = api.winnable(
                run.config, games=n, seed=run.seed, seconds=args.winnable_seconds,
                progress=increments(b.update)).summary()
    print(_json(summary) if args.json else format_summary(summary))
    return _violations(summary["invariant_violations"], summary["games"])


def _playouts_need_equity(args):
    if args.playouts is not None and not args.equity:
        raise ConfigError(f"--playouts {args.playouts} counts the play-outs of --equity, which "
                          f"was not asked for: add --equity or leave --playouts out")


def cmd_why(args):
    from .. import api  # its checks are the API's
    params, wrong = _param_values(args)
    cards = [args.cards] if args.cards else []
    playouts = api.WHY_PLAYOUTS if args.playouts is None else args.playouts
    config, inputs, _, _, _ = _checked(
        args, lambda: config_from_args(args),
        lambda: api.why_inputs(config_from_args(args), policy=args.policy, games=args.games,
                               seed=args.seed, budget=args.budget, where=args.where,
                               workers=args.workers, threads=args.threads, params=params,
                               playouts=playouts),
        lambda: _playouts_need_equity(args),
        lambda: _check_png(args, inputs=cards),
        lambda: args.games_out and check_output(args.games_out, "--games-out", inputs=cards),
        refused=wrong)
    if args.png and args.games_out and same_path(args.png, args.games_out):
        raise ConfigError(f"--png and --games-out name the same file {args.png!r}")
    _start(args, [args.policy, "belief", "expert", "omniscient"], ["engine", "record"])
    with _counted_bar(args, unit="game" if args.equity else "lost game") as progress:
        r = api.why(config, policy=args.policy, games=args.games, seed=args.seed,
                    budget=args.budget, where=args.where, workers=args.workers,
                    threads=args.threads, params=inputs[8], ceilings=args.ceilings,
                    equity=args.equity, playouts=playouts, progress=progress)
    s = r.summary()
    if args.games_out:
        write_atomic(args.games_out, lambda f: r.table.to_csv(f, index=False))
        _wrote(args.games_out, "table")
    if args.png:
        from ..present.figures import hazard_figure  # after the checks
        _save_png(args.png, hazard_figure([s], config_line(s["config"])))
    print(_json(s) if args.json else format_why(s))
    return 0


def cmd_luck_killer(args):
    from .. import api  # its checks are the API's
    positions = None if args.all else [args.position]
    config, params, _, _, total = _checked(
        args, lambda: config_from_args(args), lambda: params_from_args(args),
        lambda: _check_png(args),
        lambda: checks.winnable_inputs(args.winnable, args.winnable_seconds),
        lambda: api.luck_games("killer", config_from_args(args), games=args.games,
                               values=positions, winnable=args.winnable))
    _start(args, [args.policy])
    with _bar(args, total) as b:
        r = api.luck(config, policy=args.policy, games=args.games, seed=args.seed,
                     threads=args.threads, positions=positions, params=params,
                     progress=increments(b.update), winnable=args.winnable,
                     winnable_seconds=args.winnable_seconds).summary()
    if args.png:
        from ..present.figures import effects_figure  # after the checks
        _save_png(args.png, effects_figure(r, "positions", "Killer's starting position",
                                           config_line(r["config"])))
    print(_json(r) if args.json else format_killer_effects(r) +
          winnable_values(r, "positions", "killer start"))
    return _violations(r["invariant_violations"], total)


def cmd_luck_fact(args, fact=None, player=0):
    from .. import api  # its checks are the API's
    fact = fact or args.luck_command
    values = None if args.all else [args.value]
    config, params, _, _, total = _checked(
        args, lambda: config_from_args(args), lambda: params_from_args(args),
        lambda: _check_png(args),
        lambda: checks.winnable_inputs(args.winnable, args.winnable_seconds),
        lambda: api.luck_games(fact, config_from_args(args), games=args.games, values=values,
                               player=player, winnable=args.winnable))
    _start(args, [args.policy])
    with _bar(args, total) as b:
        r = api.luck_fact(fact, config, policy=args.policy, games=args.games, seed=args.seed,
                          threads=args.threads, values=values, player=player,
                          progress=increments(b.update), params=params,
                          winnable=args.winnable, winnable_seconds=args.winnable_seconds)
    if args.png:
        from ..present.figures import effects_figure  # after the checks
        words = {"area": "first area card", "trump": "first trump suit",
                 "yellows": f"yellows in player {player}'s first hand"}[fact]
        _save_png(args.png, effects_figure(r, "values", words, config_line(r["config"])))
    if args.json:
        print(_json(r))
    elif fact == "yellows":
        column = f"P{args.player} yellows"
        print(format_effects(r, "values", column, "value",
                             "all counts, weighted by their chances") +
              winnable_values(r, "values", column))
    else:
        column = "first area" if fact == "area" else "first trump"
        labels = area_names(r["config"]) if fact == "area" else None
        print(format_effects(r, "values", column, "value", "all values", labels) +
              winnable_values(r, "values", column, labels))
    return _violations(r["invariant_violations"], total)


def cmd_luck_yellows(args):
    return cmd_luck_fact(args, "yellows", args.player)


def cmd_luck_state(args):
    params = params_from_args(args)
    checks.check_threads(args.threads)
    _start(args, [args.policy], ["rollouts"])
    from .. import api  # after the checks; it reads and checks the position
    with _bar(args, args.games, unit="play-out") as b:
        r = api.luck_state(args.file, policy=args.policy, games=args.games, seed=args.seed,
                           threads=args.threads, params=params, progress=increments(b.update))
    print(_json(r) if args.json else format_win_probability(r))
    return 0


def cmd_luck_timeline(args):
    checks.check_threads(args.threads)
    checks.winnable_inputs(None, args.winnable_seconds)
    from .. import api  # it reads and checks the record
    record = api.read_record(args.file)
    _check_png(args, inputs=[args.file])
    _start(args, [record.policy], ["engine", "record", "rollouts"])
    with _counted_bar(args, unit="play-out") as progress:
        t = api.luck_timeline(record, games=args.games, seed=args.seed, threads=args.threads,
                              progress=progress, winnable_seconds=args.winnable_seconds
                              if args.winnable else None)
    if args.png:
        from ..present.figures import timeline_figure  # after the checks
        _save_png(args.png, timeline_figure(t))
    if args.json:
        print(_json(t))
        return 0
    print(format_timeline(t))
    return 0


def cmd_luck_sources(args):
    from .. import api  # its checks are the API's
    config, params, total = _checked(
        args, lambda: config_from_args(args), lambda: params_from_args(args),
        lambda: api.luck_games("sources", games=args.games, repeats=args.repeats))
    _start(args, [args.policy], ["engine", "held"])
    _estimate(args, "luck sources", [(config, args.policy, params, total)])
    with _bar(args, total, long=True) as b:
        r = api.luck_sources(config, policy=args.policy, games=args.games, repeats=args.repeats,
                             seed=args.seed, threads=args.threads,
                             progress=increments(b.update), params=params)
    print(_json(r) if args.json else format_sources(r))
    return _violations(r["invariant_violations"], total)


def cmd_luck(args):
    return {"killer": cmd_luck_killer, "area": cmd_luck_fact, "trump": cmd_luck_fact,
            "yellows": cmd_luck_yellows, "state": cmd_luck_state,
            "timeline": cmd_luck_timeline, "sources": cmd_luck_sources}[args.luck_command](args)


def _names(option, text):
    """The comma-separated policy names or skill levels of ``option``
    (:func:`.policies.choice.parse_names`)."""
    return parse_names(text, option)


def cmd_compare(args):
    from .. import api  # its checks are the API's
    names, config, params = _checked(args, lambda: _names("--policies", args.policies),
                                     lambda: config_from_args(args),
                                     lambda: parse_policy_params(args.policy_param))
    games = api.compare_games(names, args.games, params)
    known = [k for k in GameConfig.knob_names() if k not in RULE_OPTIONS_ONLY]
    variants = {}
    for text in args.variant:
        name, changes = parse_variant(text, known)
        if name in variants:
            raise ConfigError(f"--variant {name!r} is given twice")
        variants[name] = changes
    if variants:
        api.check_variants(config, variants)
    _check_png(args)
    _start(args, names)
    if variants:
        return _compare_variants(args, config, names, params, variants, games)
    with _bar(args, games) as b:
        r = api.compare(config, policies=names, games=args.games, seed=args.seed,
                        threads=args.threads, params=params,
                        progress=increments(b.update)).summary()
    if args.png:
        from ..present.figures import comparison_figure  # after the checks
        _save_png(args.png, comparison_figure(r, config_line(r["config"])))
    print(_json(r) if args.json else format_comparison(r, config_line(r["config"])))
    return _violations(sum(row["invariant_violations"] for row in r["policies"]), games)


def _compare_variants(args, config, names, params, variants, games):
    from .. import api  # after the checks
    with _bar(args, games * (len(variants) + 1)) as b:
        r = api.compare(config, policies=names, games=args.games, seed=args.seed,
                        threads=args.threads, params=params, variants=variants,
                        progress=increments(b.update)).summary()
    if args.png:
        from ..present.figures import variants_figure  # after the checks
        _save_png(args.png, variants_figure(r, config_line(r["config"])))
    print(_json(r) if args.json else format_variants(r, config_line(r["config"])))
    return _violations(sum(row["invariant_violations"] for row in r["rows"]),
                       games * (len(variants) + 1))





def _backend_choice(args):
    """The name of the sweep backend that ``--backend``, ``--threads``, ``--scheduler`` and
    ``--workers`` ask for, checked (nothing is started)."""
    return check_backend(args.backend, args.threads, args.scheduler, args.workers)


def _sweep_outputs(args, api):
    """``--out`` (and with ``--csv`` its CSV beside it), checked writable, not in use and none
    of the files the sweep reads (its spec and card files); then whether its checkpoints may be
    resumed under the rules of now."""
    try:
        spec = api.load_spec(args.spec)
    except ConfigError:
        spec = None                  # refused by the spec's own check
    inputs = [args.spec] if spec is None else api.sweep_inputs(spec, args.spec)
    out = check_output(args.out, "--out", inputs=inputs)
    OutputLock(out).check()
    if args.csv:
        csv = out.with_suffix(".csv")
        if csv.resolve() == out.resolve():
            raise ConfigError(f"--csv writes {str(csv)!r}, which is --out itself; give --out "
                              f"a .parquet name")
        check_output(csv, "--csv (the table as CSV)", inputs=inputs)
    if spec is not None:
        api.resume_check(spec, out, args.restart_changed)
    return out


def cmd_sweep(args):
    from .. import api  # its checks are the API's
    spec, out, _, name = _checked(
        args, lambda: api.load_spec(args.spec), lambda: _sweep_outputs(args, api),
        lambda: checks.check_threads(args.threads), lambda: _backend_choice(args))
    backend = api.sweep_backend(name, threads=args.threads, scheduler=args.scheduler,
                                workers=args.workers)
    _start(args, list(spec.policies), ["engine"] if name == "local" else (), spec.notes())
    total = spec.n_cells * sum(spec.games_of(p) for p in spec.policies)
    if name == "local":
        first = next(iter(api.sweep_cells(spec)))[1]
        _estimate(args, "the sweep", [(first, p, None, spec.n_cells * spec.games_of(p))
                                      for p in spec.policies])
    with _bar(args, total, long=True) as b:
        def cells(done, total):
            b.set_postfix_str(f"{done}/{total} cells", refresh=False)

        try:
            df = api.play_sweep(spec, out, threads=args.threads, progress=increments(b.update),
                                csv=args.csv, backend=backend, command=args.command_line,
                                spec_file=args.spec, cells=cells,
                                restart_changed=args.restart_changed)
        except KeyboardInterrupt:
            folder = api.checkpoint_dir(out)
            kept = len(list(folder.glob("*.npy")))
            print(f"slashersim: interrupted; {kept} finished chunks kept in "
                  f"{folder}: run the same command to resume", file=sys.stderr)
            return 130
    each = ", ".join(f"{p} {spec.games_of(p):,}" for p in spec.policies) \
        if spec.policy_games else f"{spec.games:,}"
    print(f"{len(df)} rows ({spec.n_cells} cells x {len(spec.policies)} policies, "
          f"{each} games each) written to {Path(args.out)}")
    _wrote(Path(args.out), "table")
    if args.csv:
        _wrote(Path(args.out).with_suffix(".csv"), "table")
    bad = df[df["invariant_violations"] > 0]
    return _violations(int(bad["invariant_violations"].sum()), int(df["games"].sum()))


def _int_list(name, text):
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise ConfigError(f"{name} must be comma-separated integers, got {text!r}") from None


def _tune_knobs(args, fixed, api):
    """The knobs ``tune`` searches: ``--knobs``, or the difficulty knobs less those fixed."""
    if args.knobs is None:
        knobs = tuple(k for k in DEFAULT_TUNE_KNOBS if k not in fixed)
    else:
        knobs = tuple(k.strip() for k in args.knobs.split(",") if k.strip())
        for k in knobs:
            if k in fixed:
                raise ConfigError(f"--fix {k} and --knobs {k}: a knob is either searched or "
                                  f"fixed")
    api.check_knobs(knobs)
    return knobs


def _stages_or_none(text):
    try:
        return _int_list("stages", text)
    except ConfigError:
        return None


def cmd_tune(args):
    from .. import api  # its checks are the API's

    def fixed_rules():
        return parse_rules(args.fix, [k for k in GameConfig.knob_names()
                                      if k not in RULE_OPTIONS_ONLY])

    _, fixed, stages, _, _ = _checked(
        args, lambda: checks.check_policy(args.policy), fixed_rules,
        lambda: _int_list("stages", args.stages), lambda: checks.check_threads(args.threads),
        lambda: api.check_search(args.target, args.tolerance, _stages_or_none(args.stages),
                                 args.keep))
    knobs, base = _checked(args, lambda: _tune_knobs(args, fixed, api),
                           lambda: GameConfig(edition=args.edition, **fixed))
    _start(args, [args.policy])
    planned = api.tune_games(knobs, stages, args.keep)
    _estimate(args, "tune", [(base, args.policy, None, planned)])
    with _bar(args, planned, long=True) as b:
        df = api.tune(args.target, base, policy=args.policy, knobs=knobs,
                      tolerance=args.tolerance, stages=stages, keep=args.keep, seed=args.seed,
                      threads=args.threads, progress=increments(b.update))
    top = df.head(args.top)
    if args.json:
        print(top.to_json(orient="records"))
    else:
        held = "".join(f", {k} held at {_show(v)}" for k, v in fixed.items())
        print(f"{player_line(args.policy)}; {args.edition} edition{held}: settings nearest win "
              f"rate {args.target:.3f} (95% interval within +-{args.tolerance}), best first")
        print(top.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        print(f"\n  distance: how far the win rate is from {args.target:.3f}; meets_target: its "
              f"95% interval lies within +-{args.tolerance} of it;\n  changes: how many of the "
              f"searched knobs differ from the {args.edition} edition's own settings (fewer "
              f"is nearer the printed game).")
    return _violations(df.attrs.get("invariant_violations", 0), int(df["games"].sum()))


def cmd_report(args):
    check_report_paths(args.table, args.out)
    knobs = None
    if args.heatmap:
        knobs = tuple(k.strip() for k in args.heatmap.split(","))
        if len(knobs) != 2:
            raise ConfigError(f"--heatmap needs two knobs X,Y, got {args.heatmap!r}")
    from .. import api  # after the checks
    path = api.report(args.table, args.out, heatmap=knobs, title=args.title,
                      wrote=lambda p: _wrote(p, "report" if p.suffix == ".md" else "figure"))
    print(f"report written to {path}")
    return 0


def cmd_info(args):
    from .. import api  # the table is read by the API
    info = api.table_info(args.table)
    print(json.dumps(info, indent=1) if args.json else format_info(info))
    return 0


def cmd_bench(args):
    check_positive("seconds", args.seconds)
    if args.policies is not None:
        names = parse_policy_list(args.policies, "--policies")
        _start(args, names)
        from .. import api  # after the checks
        rows = api.policy_speeds(names, seconds=args.seconds)
        print(json.dumps(rows) if args.json else format_policy_speeds(rows))
        return 0
    checks.check_policy(args.policy)
    _start(args, [args.policy])
    from .. import api  # after the checks
    b = api.bench(args.policy, games=args.games)
    print(json.dumps(b) if args.json else format_bench(b))
    return 0


def cmd_serve(args):
    from ..serve import WEB_EXTRA, web_available  # after the checks
    from ..serve.settings import DEFAULT_PORT, check_port_free  # after the checks
    port = check_port_free(DEFAULT_PORT if args.port is None else args.port)
    if args.cards is not None:
        GameConfig(cards=args.cards).resolved()
    if not web_available():
        raise ConfigError(WEB_EXTRA)
    from ..serve.app import serve  # after the checks
    serve(port, open_browser=args.open, cards=args.cards)
    # the server runs until Ctrl-C, which Panel catches to stop it
    print("slashersim: interrupted", file=sys.stderr)
    return 130


COMMANDS = {"simulate": cmd_simulate, "luck": cmd_luck, "why": cmd_why, "compare": cmd_compare,
            "sweep": cmd_sweep, "bench": cmd_bench, "tune": cmd_tune, "report": cmd_report,
            "info": cmd_info, "serve": cmd_serve}


#: the options (``args`` attributes) that name a file a command reads, as refusals name them
_INPUTS = (("cards", "--cards"), ("spec", "the spec"), ("file", "the file"),
           ("table", "the table"))
#: the options that name a file a command writes, and the suffix its format needs
_OUTPUTS = (("png", "--png", ".png"), ("record_out", "--record-out", None),
            ("out", "--out", None))


def _variant_cards(texts):
    """The card files named by ``--variant`` texts (``cards=FILE``)."""
    found = []
    for text in texts:
        head, sep, rest = text.partition(":")
        for item in (rest if sep and "=" not in head else text).split(","):
            name, sep, value = item.partition("=")
            value = value.strip().strip("\"'")
            if sep and name.strip() == "cards" and value and value != "printed":
                found.append(value)
    return found


def check_files(args):
    """Refuse, before anything runs, an output that is one of the command's inputs (the same
    path, or the same file under another name), two outputs that are one file, and a figure
    whose name says another format than the one written."""
    inputs = [(option, getattr(args, attr)) for attr, option in _INPUTS
              if isinstance(getattr(args, attr, None), str)]
    inputs += [("--variant", path) for path in _variant_cards(getattr(args, "variant", []))]
    outputs = [(option, getattr(args, attr), suffix) for attr, option, suffix in _OUTPUTS
               if isinstance(getattr(args, attr, None), str) and getattr(args, attr).strip()]
    for option, path, suffix in outputs:
        for what, other in inputs:
            if same_path(path, other):
                raise ConfigError(f"{option} {path!r} is the input file {other!r} ({what}); "
                                  f"choose another output")
        if suffix and Path(path).suffix.lower() != suffix and not Path(path).is_dir():
            raise ConfigError(f"{option} {path!r} writes a {suffix[1:].upper()} image: give it a "
                              f"name ending in {suffix}")
    for i, (option, path, _) in enumerate(outputs):
        for other, second, _ in outputs[i + 1:]:
            if same_path(path, second):
                raise ConfigError(f"{option} {path!r} and {other} {second!r} name one file; "
                                  f"give each its own")


def main(argv=None):
    """Run the command line; returns the exit status: 0, 1 (games broke an invariant), 2 (bad
    input, one line on stderr), 130 (interrupted) or 141 (stdout closed, e.g. by ``head``)."""
    args = parse(sys.argv[1:] if argv is None else list(argv))
    try:
        if args.refused and not getattr(args, "gathers", False):
            raise ConfigError("; ".join(args.refused))
        check_files(args)
        with _ctrl_c_kept() as ctrl_c:
            try:
                return COMMANDS[args.command](args) or 0
            except Exception as e:
                if ctrl_c.pressed:
                    raise KeyboardInterrupt from e
                raise
    except (ConfigError, ValueError) as e:
        print(f"slashersim: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("slashersim: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 141
    except OSError as e:
        where = f" {e.filename!r}" if getattr(e, "filename", None) else ""
        print(f"slashersim: error: cannot write or read{where}: {e.strerror or e}",
              file=sys.stderr)
        return 2
    finally:
        compiling.enable(False, command=False)


@contextmanager
def _ctrl_c_kept():
    """Ctrl-C that lands while a compiled library calls back into Python (numba's compiler
    handing an object file over to be cached) cannot stop the callback: Python would print it
    as an "exception ignored", with a traceback, and the compile would go on or fail later.
    Inside the block such an interrupt is kept (``pressed``) and raised in the main thread a
    moment later, once the callback has returned; an error that follows it is the interrupt's."""
    state = SimpleNamespace(pressed=False, delivered=False, open=True)
    lock = threading.Lock()
    previous = sys.unraisablehook

    def deliver():
        with lock:
            if state.open:
                state.delivered = True
                _thread.interrupt_main()

    def hook(unraisable):
        if issubclass(unraisable.exc_type, KeyboardInterrupt):
            state.pressed = True
            threading.Timer(0.05, deliver).start()
        else:
            previous(unraisable)
    sys.unraisablehook = hook
    try:
        yield state
    finally:
        with lock:
            state.open = False
        sys.unraisablehook = previous
    if state.delivered:             # raised at the next bytecode: let it come here
        for _ in range(100):
            time.sleep(0.01)
    if state.pressed:
        raise KeyboardInterrupt


def _silence_stdout():
    """After the reader of stdout went away: send what is left of it nowhere, so that the
    interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
