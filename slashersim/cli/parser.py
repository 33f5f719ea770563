"""The command line's parser: every command, its options and their types.

Option values are parsed by the types here (counts, seeds, ports, game specs) and refused with
one line on stderr and exit status 2 by :class:`_Parser`; the commands themselves are in
:mod:`slashersim.cli`.
"""
import argparse
import re
import shlex

from .. import __version__
from ..core import rules
from ..core.errors import ConfigError, suggest
from ..core.inputs import SEED_LIMIT, check_count, check_seed, parse_games, parse_port
from ..core.rules import DIFFICULTY_KNOBS as DEFAULT_TUNE_KNOBS
from ..policies import DEFAULT_SKILL, PAIR, SKILLS, policy_names, resolve, split_pair


class Refused:
    """An option's value refused by its type or choices, held in its place until every option
    is read, so that one line names every refused value (:func:`refused_values`)."""

    def __init__(self, message, default):
        self.message = message
        self.default = default


def refused_values(args):
    """The messages of the option values refused while parsing ``args``; each refused value
    is replaced by its option's default, so that the command's own checks can still run."""
    found = []
    for name, value in vars(args).items():
        if isinstance(value, Refused):
            found.append(value.message)
            setattr(args, name, value.default)
        elif isinstance(value, list) and any(isinstance(v, Refused) for v in value):
            found += [v.message for v in value if isinstance(v, Refused)]
            setattr(args, name, [v for v in value if not isinstance(v, Refused)])
    return found


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line on stderr and exit status 2. Options are never abbreviated
    (``--game`` is not ``--games``), and a misspelt option or value gets the nearest valid one
    suggested. A bad value of an option is held (:class:`Refused`) rather than refused at
    once, so that one line can name every bad value."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def _get_values(self, action, arg_strings):
        try:
            return super()._get_values(action, arg_strings)
        except argparse.ArgumentError as e:
            if not action.option_strings:
                raise
            message = f"{e}{self._hint(str(e))}"
            return Refused(message, [] if isinstance(action.default, list) else action.default)

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}{self._hint(message)}\n")

    def _hint(self, message):
        unknown = re.match(r"unrecognized arguments: (.*)", message)
        if unknown:
            words = [w.split("=")[0] for w in unknown.group(1).split() if w.startswith("-")]
            return suggest(words[0], self._options()) if words else ""
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            return suggest(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        return ""

    def _options(self):
        """Every option string of this parser and of the commands below it."""
        out = []
        for action in self._actions:
            out += action.option_strings
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    out += sub._options()
        return list(dict.fromkeys(out))


def _option_type(read):
    """``read`` (text -> value) as an argparse type: its refusal, a ``ValueError`` with its
    one-line message, becomes argparse's."""
    def parse(text):
        try:
            return read(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return parse


def _integer(name, text):
    """``text`` as an integer; refused naming ``name`` (``None``: any integer)."""
    try:
        return int(text)
    except ValueError:
        what = f"{name} must be an integer" if name else "expected an integer"
        raise ConfigError(f"{what}, got {text!r}") from None


def _positive(name, high=SEED_LIMIT - 1):
    return _option_type(lambda text: check_count(name, _integer(name, text), high))


#: a games spec (``N`` or ``N,NAME=N,...``)
_games_spec = _option_type(parse_games)
#: any integer (its range is checked with the configuration)
_int = _option_type(lambda text: _integer(None, text))
#: a seed: an integer 0 <= S < 2**63, the same rule for every command and spec
_seed = _option_type(lambda text: check_seed(_integer("seed", text)))
_port = _option_type(parse_port)


def _float(name):
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number, got {text!r}") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise argparse.ArgumentTypeError(f"{name} must be a finite number, got {text!r}")
        return value
    return parse


def _seconds(name):
    """A time in seconds: a finite number, at least 0."""
    number = _float(name)

    def parse(text):
        value = number(text)
        if value < 0:
            raise argparse.ArgumentTypeError(f"{name} must be at least 0, got {text}")
        return value
    return parse


def _skill_level(text):
    """``--skill``'s value: a skill level, or a mixed pair of two (``novice+expert``: seat 0's
    level, then seat 1's), each refused with the allowed levels and the closest one."""
    sides = split_pair(text) or (str(text).strip(),)
    if len(sides) > 2:
        raise ConfigError(f"--skill {text!r} names {len(sides)} players; a pair is two, "
                          f"SEAT0+SEAT1, each one of: {', '.join(SKILLS)}")
    for seat, side in enumerate(sides):
        if side not in SKILLS:
            where = f" in seat {seat} of {text!r}" if len(sides) == 2 else ""
            what = f"unknown skill level {side!r}" if side else "no skill level"
            hint = suggest(side, list(SKILLS)) if side else ""
            raise ConfigError(f"{what}{where}{hint}; expected one of: "
                              f"{', '.join(SKILLS)}, or a pair of them such as novice{PAIR}expert")
    return PAIR.join(sides)


def _add_policy_option(parser, default=DEFAULT_SKILL):
    """``--policy NAME`` and its alias ``--skill LEVEL`` (novice, casual, expert); either may
    name a mixed pair, ``A+B`` (seat 0's player, then seat 1's)."""
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--policy", default=default,
                     help=f"player policy: {', '.join(policy_names())}, or a skill level "
                          f"(default {default}); baseline plays the novice, heuristic the "
                          f"casual player; a mixed pair is SEAT0{PAIR}SEAT1, e.g. "
                          f"baseline{PAIR}expert")
    who.add_argument("--skill", type=_option_type(_skill_level), default=None,
                     help="the player by skill: " + ", ".join(
                         f"{level} = {p}" for level, p in SKILLS.items())
                     + f" (the same as --policy NAME); a mixed pair is SEAT0{PAIR}SEAT1, "
                       f"e.g. novice{PAIR}expert")


def _add_output_options(parser, progress=True):
    """``--quiet`` (no progress, no compile message) and ``--progress`` / ``--no-progress``."""
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress bar and no compile message on stderr")
    if progress:
        parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                            help="progress bar on stderr (default: on a terminal)")


def add_run_options(parser, games_help="games to play (default 100000)", policy=True,
                    games_type=None, policy_default=DEFAULT_SKILL):
    """Add the configuration, policy, games, seed and threads options shared by the commands
    that play games, so that ``simulate``, ``luck`` and ``compare`` read the same configuration
    alike. ``policy=False`` leaves out ``--policy``; ``games_type`` parses ``--games``."""
    parser.add_argument("--edition", default="rulebook", choices=rules.EDITION_NAMES,
                        help="rule edition (default: rulebook)")
    parser.add_argument("--difficulty", default=None, metavar="NAME",
                        help="a difficulty preset of the edition (easy, normal, hard, "
                             "nightmare); options given explicitly override it")
    parser.add_argument("--health", type=_int, default=None,
                        help="starting health 1..7 (default 7)")
    parser.add_argument("--hideaway", action=argparse.BooleanOptionalAction, default=None,
                        help="Hideaway in the area deck (default: off for rulebook, "
                             "on for instructions)")
    parser.add_argument("--cursed-object", action=argparse.BooleanOptionalAction, default=None,
                        help="Cursed Object in the item deck (default: in)")
    parser.add_argument("--escapes-needed", type=_int, default=None,
                        help="escape items needed to win, 1..5 (default 4)")
    parser.add_argument("--traps", type=_int, default=None,
                        help="traps that lose the game, 1..4 (default 3)")
    parser.add_argument("--max-rounds", type=_int, default=200,
                        help="rounds before a game ends as a timeout (default 200)")
    parser.add_argument("--cards", default=None, metavar="FILE",
                        help="a card file that changes the printed area cards (docs: "
                             "'Your own card'); every answer then names it and its hash")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="set any rule (repeatable), e.g. item_timing=any_time, "
                             "keep_optional=false, red_knives=[1,1,2,2,3]: every [choice] and "
                             "knob of the rules page; the answer's first line names each rule "
                             "that differs from the edition's")
    if policy:
        _add_policy_option(parser, policy_default)
        parser.add_argument("--policy-param", action="append", default=[], metavar="NAME=VALUE",
                            help="set one of the policy's parameters (repeatable), "
                                 "e.g. lead_samples=32 for the expert")
    parser.add_argument("--games", type=games_type or _positive("games"), default=100_000,
                        help=games_help)
    parser.add_argument("--seed", type=_seed, default=0,
                        help="run seed, 0 <= S < 2**63 (default 0)")
    parser.add_argument("--threads", type=_positive("threads"), default=None,
                        help="worker threads (default: all cores)")
    _add_output_options(parser)
    parser.set_defaults(gathers=True)


def parse(argv):
    """The command line ``argv`` read whole, so that the commands only read what it gives:
    the options, with a skill level resolved to the policy it stands for (``policy``), the
    command line as typed (``command_line``) and the messages of the values refused while
    reading it (``refused``, see :func:`refused_values`)."""
    args = build_parser().parse_args(argv)
    args.refused = tuple(refused_values(args))
    if getattr(args, "skill", None):
        args.policy = resolve(args.skill)
    if getattr(args, "policy", None):
        args.policy = resolve(args.policy)
    args.command_line = "slashersim " + shlex.join(argv)
    return args


def build_parser():
    parser = _Parser(prog="slashersim",
                     description="Monte Carlo difficulty analysis for The Slasher.")
    parser.add_argument("--version", action="version", version=f"slashersim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sim = sub.add_parser("simulate", help="play N games of one configuration")
    add_run_options(sim)
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--record", type=_int, default=None, metavar="N",
                     help="also write the game record of game N (0-based) to --record-out")
    sim.add_argument("--record-out", default=None, metavar="FILE.json",
                     help="where --record writes the game record (JSON)")
    _add_winnable_options(sim, "each of the run's first N games (default 200), and the "
                               "game of --record,", ", e.g. --winnable 5")

    luck = sub.add_parser("luck", help="how much of the result the cards decide")
    luck_sub = luck.add_subparsers(dest="luck_command", required=True, parser_class=_Parser)
    killer = luck_sub.add_parser("killer", help="win rate, and how much it moves the "
                                                "win rate (effect), by the Killer's starting "
                                                "position in the first item deck")
    add_run_options(killer, games_help="games per position (default 100000)")
    where = killer.add_mutually_exclusive_group(required=True)
    where.add_argument("--position", type=_int, metavar="K",
                       help="one position, 1 = top (the average still plays every position)")
    where.add_argument("--all", action="store_true", help="every position")
    killer.add_argument("--json", action="store_true", help="print one JSON object")
    _add_png_option(killer, "the effects with their intervals")
    _add_winnable_options(killer, "the first N games (default 200) of each position")
    for fact, what in (("area", "the first area card"), ("trump", "round 1's trump suit")):
        fp = luck_sub.add_parser(fact, help=f"win rate, and how much it moves the win rate "
                                                f"(effect), by {what}")
        add_run_options(fp, games_help="games per value (default 100000)")
        where = fp.add_mutually_exclusive_group(required=True)
        where.add_argument("--value", metavar="NAME",
                           help="one value (the average still plays every value)")
        where.add_argument("--all", action="store_true", help="every value")
        fp.add_argument("--json", action="store_true", help="print one JSON object")
        _add_png_option(fp, "the effects with their intervals")
        _add_winnable_options(fp, "the first N games (default 200) of each value")
    yellows = luck_sub.add_parser("yellows", help="win rate, and how much it moves the "
                                                  "win rate (effect), by the number of "
                                                  "yellows in a player's first hand")
    add_run_options(yellows, games_help="games per value (default 100000)")
    where = yellows.add_mutually_exclusive_group(required=True)
    where.add_argument("--value", metavar="Y", help="one count 0..5 (the average still plays "
                                                    "every count)")
    where.add_argument("--all", action="store_true", help="every count 0..5")
    yellows.add_argument("--player", type=_int, choices=(0, 1), default=0,
                         help="whose first hand (default 0; the partner's count stays free)")
    yellows.add_argument("--json", action="store_true", help="print one JSON object")
    _add_png_option(yellows, "the effects with their intervals")
    _add_winnable_options(yellows, "the first N games (default 200) of each count")

    state = luck_sub.add_parser("state", help="win probability of a described position")
    state.add_argument("file", help="the position, a JSON file (schema: docs/reference/"
                                      "formats.md, 'Position files')")
    _add_rollout_options(state, 20_000)

    tl = luck_sub.add_parser("timeline", help="win probability before and after each random "
                                              "event of a recorded game")
    tl.add_argument("file", help="a game record written by simulate --record-out")
    tl.add_argument("--png", default=None, metavar="OUT.png", help="also plot it")
    _add_rollout_options(tl, 4000, policy=False)
    _add_winnable_options(tl, "the recorded game", count=False)

    sources = luck_sub.add_parser("sources", help="how much of the win-or-lose variation "
                                                  "each source of chance decides")
    add_run_options(sources, games_help="games per stream (default 160000)")
    sources.set_defaults(games=160_000)
    sources.add_argument("--repeats", type=_positive("repeats"), default=8,
                         help="games per group sharing the held stream (default 8)")
    sources.add_argument("--json", action="store_true", help="print one JSON object")

    why = sub.add_parser("why", help="why and where games are lost: the decision that lost "
                                     "each game, and the hazard by round")
    add_run_options(why, games_help="games to play (default 1000); each lost one is walked "
                                    "back by the exact solver")
    why.set_defaults(games=1000)
    why.add_argument("--where", default=None, metavar="CONDITION",
                     help="ask about some of the games only, a condition on the games' "
                          "columns, e.g. \"round == 2\" (lost in round 2) or "
                          "\"killer_start == 2\" (the Killer second in the item deck)")
    why.add_argument("--budget", type=_positive("--budget"), default=4000, metavar="N",
                     help="rounds the solver may expand per game before the game counts as "
                          "undecided (default 4000)")
    why.add_argument("--workers", type=_positive("--workers"), default=None,
                     help="processes that walk the lost games back (default: up to 2, one for "
                          "fewer than 8); the answer does not depend on it")
    why.add_argument("--ceilings", action="store_true",
                     help="also play the same games with belief and open_hands, the "
                          "ceilings beside the profile")
    why.add_argument("--equity", action="store_true",
                     help="also see every game with the future unknown: its luck by kind of "
                          "chance and its decisions' cost, by play-outs (about a second a "
                          "game for the expert)")
    why.add_argument("--playouts", type=_positive("--playouts"), default=None, metavar="N",
                     help="with --equity: play-outs per estimate (default 64)")
    why.add_argument("--json", action="store_true", help="print one JSON object")
    why.add_argument("--games-out", default=None, metavar="FILE.csv",
                     help="also write one row per game (its record and its fatal decision)")
    _add_png_option(why, "the hazard by round")

    compare = sub.add_parser("compare", help="policies side by side on the same games")
    compare.add_argument("--policies", default=",".join(SKILLS), metavar="A,B,...",
                         help=f"comma-separated policies or skill levels: "
                              f"{', '.join(policy_names())}, {', '.join(SKILLS)} (default "
                              f"{','.join(SKILLS)}; baseline plays the novice, heuristic the "
                              f"casual player); a row is labelled as its player is "
                              f"named; a policy named twice is two settings of it (rows NAME, "
                              f"NAME#2)")
    add_run_options(compare, policy=False, games_type=_games_spec,
                    games_help="games per policy, N or N,NAME=N,... (default 100000)")
    compare.add_argument("--policy-param", action="append", default=[],
                         metavar="POLICY.NAME=VALUE",
                         help="a policy parameter (repeatable); POLICY may be a row "
                              "label, e.g. heuristic#2.damage=3 sets only the second heuristic")
    compare.add_argument("--variant", action="append", default=[],
                         metavar="'NAME: RULE=VALUE, ...'",
                         help="a rule variant (repeatable), e.g. 'no cursed object: "
                              "cursed_object=false': every player also plays it on the same "
                              "games, and the answer gives how much it changes each player's "
                              "win rate and whether it helps one player more than another")
    compare.add_argument("--json", action="store_true", help="print one JSON object")
    _add_png_option(compare, "the win rates and the differences on the same games, with "
                             "their intervals")

    sweep = sub.add_parser("sweep", help="play every cell of a TOML grid spec into a table")
    sweep.add_argument("spec", help="the sweep spec (TOML)")
    sweep.add_argument("--out", required=True,
                       help="output parquet file, e.g. results/NAME.parquet")
    sweep.add_argument("--csv", action="store_true", help="also write the table as CSV")
    sweep.add_argument("--restart-changed", action="store_true",
                       help="resuming an interrupted sweep: play anew the cells whose rules "
                            "changed since (a card file edited); without it, such a resume is "
                            "refused")
    sweep.add_argument("--threads", type=_positive("threads"), default=None,
                       help="worker threads (default: all cores)")
    _add_output_options(sweep)
    sweep.add_argument("--backend", choices=("local", "dask"), default=None,
                       help="where the chunks are played: this process (local, the default) "
                            "or dask.distributed (dask)")
    sweep.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="dask scheduler of an existing cluster, e.g. tcp://HOST:8786 "
                            "(implies --backend dask)")
    sweep.add_argument("--workers", type=_positive("workers"), default=None,
                       help="worker processes of the local dask cluster, 1..the cores of this "
                            "machine (default: all cores; implies --backend dask)")
    sweep.set_defaults(gathers=True)

    tune = sub.add_parser("tune", help="find knob settings whose win rate meets a target")
    tune.add_argument("--target", type=_float("target"), required=True,
                      help="wanted win rate, e.g. 0.30")
    _add_policy_option(tune)
    tune.add_argument("--edition", default="rulebook", choices=rules.EDITION_NAMES)
    tune.add_argument("--knobs", default=None,
                      help=f"comma-separated knobs to search (default: "
                           f"{','.join(DEFAULT_TUNE_KNOBS)}, less those fixed)")
    tune.add_argument("--fix", action="append", default=[], metavar="NAME=VALUE",
                      help="hold a knob or rule at a value while the others are searched "
                           "(repeatable), e.g. hideaway=true")
    tune.add_argument("--tolerance", type=_float("tolerance"), default=0.02,
                      help="the 95%% interval must lie within target +- this (default 0.02)")
    tune.add_argument("--stages", default="20000,200000,1000000",
                      help="games per candidate after each stage (default 20000,200000,1000000)")
    tune.add_argument("--keep", type=_positive("keep"), default=12,
                      help="candidates kept for each next stage (default 12)")
    tune.add_argument("--seed", type=_seed, default=0, help="run seed, 0 <= S < 2**63")
    tune.add_argument("--threads", type=_positive("threads"), default=None)
    tune.add_argument("--top", type=_positive("top"), default=10, help="rows to print")
    tune.add_argument("--json", action="store_true")
    _add_output_options(tune)
    tune.set_defaults(gathers=True)

    report = sub.add_parser("report", help="figures and report.md from a sweep table")
    report.add_argument("table", help="a sweep table, .parquet or .csv")
    report.add_argument("--out", required=True, help="output folder, e.g. results/NAME/")
    report.add_argument("--heatmap", default=None, metavar="X,Y",
                        help="the two knobs of the heatmap (default: the first two that vary)")
    report.add_argument("--title", default=None)

    info = sub.add_parser("info", help="how a sweep table was made (its provenance)")
    info.add_argument("table", help="a sweep table, .parquet or .csv (with its .csv.json)")
    info.add_argument("--json", action="store_true", help="print the provenance as JSON")

    serve = sub.add_parser("serve", help="the difficulty explorer: a page in the browser "
                                         "(needs the extra slashersim[web])")
    serve.add_argument("--port", type=_port, default=None,
                       help="the port on localhost to serve the page on (default 5006)")
    serve.add_argument("--open", action="store_true",
                       help="also open the page in the default browser")
    serve.add_argument("--cards", default=None, metavar="FILE",
                       help="a card file every answer of the page plays (docs: 'Your own "
                            "card'); the precomputed grid, of the printed game, is then off")

    bench = sub.add_parser("bench", help="measure engine speed and memory")
    bench.add_argument("--policy", default="baseline",
                       help="the player whose games are timed (default baseline, the novice "
                            "player: the engine's own speed, the cheapest player)")
    bench.add_argument("--games", type=_positive("games"), default=2_000_000)
    bench.add_argument("--policies", metavar="A,B,...|all", default=None,
                       help="instead: the speed table of these policies (all: every registered "
                            "one), each sized to take about --seconds on one thread")
    bench.add_argument("--seconds", type=_float("seconds"), default=2.0,
                       help="with --policies: seconds per timed one-thread run (default 2)")
    bench.add_argument("--json", action="store_true")
    _add_output_options(bench, progress=False)
    return parser


def _add_winnable_options(parser, which, example="", count=True):
    """``--winnable [N]`` (or, without ``count``, a flag) and ``--winnable-seconds``: the
    exact solver on ``which`` games."""
    if count:
        parser.add_argument("--winnable", type=_positive("--winnable"), nargs="?", const=200,
                            default=None, metavar="N",
                            help=f"also decide exactly whether {which} could have been won"
                                 f"{example}")
    else:
        parser.add_argument("--winnable", action="store_true",
                            help=f"also decide exactly whether {which} could have been won, "
                                 f"and how")
    parser.add_argument("--winnable-seconds", type=_seconds("--winnable-seconds"), default=10.0,
                        metavar="S",
                        help="with --winnable: seconds per game before it counts as undecided "
                             "(default 10)")


def _add_png_option(parser, what):
    parser.add_argument("--png", default=None, metavar="OUT.png",
                        help=f"also draw {what} into this PNG file")


def _add_rollout_options(parser, games, policy=True):
    """``--policy`` (default expert), ``--games`` (play-outs per position), ``--seed``,
    ``--threads``, ``--json`` of the commands that play positions out."""
    if policy:
        _add_policy_option(parser)
        parser.add_argument("--policy-param", action="append", default=[], metavar="NAME=VALUE",
                            help="set one of the policy's parameters (repeatable)")
    parser.add_argument("--games", type=_positive("games"), default=games,
                        help=f"play-outs per position (default {games})")
    parser.add_argument("--seed", type=_seed, default=0,
                        help="play-out seed, 0 <= S < 2**63 (default 0)")
    parser.add_argument("--threads", type=_positive("threads"), default=None,
                        help="worker threads (default: all cores)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    _add_output_options(parser)
