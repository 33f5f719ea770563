"""Presentation: the text of every answer, shared by the Python API, the command line and the
page.

Each function turns a JSON-ready result (a ``summary()``, an analysis' dict) into the lines a
reader sees; nothing here plays a game or reads a file. The API's ``repr`` of a result, the
command line's output and the page's tables use the same words and figures.
"""
import json
from pathlib import Path
import textwrap

from ..core.cards import CardError
from ..core.cards import load as load_cards
from ..core.config import GameConfig
from ..policies import skill_of, split_pair

#: how a table made from Python names its command
_FROM_PYTHON = "(from Python: slashersim.analysis.sweeps.run_sweep)"


def player_line(policy):
    """Who a result speaks for, as every answer's first line begins: ``expert player (policy
    expert)`` for a skill level's policy, ``policy search`` for any other; a mixed pair names
    both seats, ``novice (seat 0) + expert (seat 1) (policies baseline+expert)``."""
    sides = split_pair(policy)
    if sides is not None:
        return (" + ".join(f"{skill_of(p) or p} (seat {seat})" for seat, p in enumerate(sides))
                + f" (policies {policy})")
    skill = skill_of(policy)
    return f"{skill} player (policy {policy})" if skill else f"policy {policy}"


def policy_words(policy):
    """A policy's name with the skill level it plays, where that is another word:
    ``heuristic (casual)``, ``baseline (novice)``; ``expert`` and any other policy as named."""
    skill = skill_of(policy)
    return f"{policy} ({skill})" if skill and skill != policy else policy


def plural(n, word, words=None):
    """``1 trap``, ``3 traps``: a count and its noun, singular for one."""
    return f"{n} {word}" if n == 1 else f"{n} {words or word + 's'}"


#: the 95 % interval in plain words, as every legend first explains it
CI_WORDS = "95% CI: the range the true rate lies in, 19 times out of 20"


#: what every configuration's line shows; any other rule is named when it differs from the
#: edition's default (:func:`changed_rules`)
SHOWN_RULES = ("edition", "health", "hideaway", "cursed_object", "escapes_needed", "traps",
               "cards", "cards_sha256", "check_invariants")


def changed_rules(c):
    """``[(name, value)]`` of the rules of ``c`` (a ``describe()`` dict) that differ from its
    edition's defaults, other than those every line shows (:data:`SHOWN_RULES`)."""
    base = GameConfig(edition=c["edition"]).describe()
    return [(k, v) for k, v in c.items() if k not in SHOWN_RULES and k in base and v != base[k]]


def _rule_value(value):
    return json.dumps(value) if not isinstance(value, str) else value


def config_line(c):
    """A configuration's one-line description (``GameConfig.describe()`` in words); a card
    file that changes the printed cards comes first, with its hash and what it changes, and
    every other rule that differs from the edition's is named (``CHANGED RULES``), so an
    answer from changed rules is never read as the printed game's."""
    line = (f"{c['edition']} edition, health {c['health']}, hideaway "
            f"{'in' if c['hideaway'] else 'out'}, cursed object "
            f"{'in' if c['cursed_object'] else 'out'}, {plural(c['escapes_needed'], 'escape')}, "
            f"{plural(c['traps'], 'trap')}")
    if c.get("cards"):
        line = f"{cards_line(c['cards'], c.get('cards_sha256'))}; {line}"
    changed = changed_rules(c)
    if changed:
        line += "; CHANGED RULES " + ", ".join(f"{k}={_rule_value(v)}" for k, v in changed)
    return line


def area_names(c):
    """Each area's name in answers, as its card is titled (``Tent site``): the card in its
    place under the configuration ``c`` (a ``describe()`` dict), the printed card's unless a
    card file replaced it (JSON keeps the printed names as keys), then any card added."""
    try:
        cards = load_cards(c.get("cards"), c.get("cards_sha256"))
    except CardError:
        return _OwnNames(zip(load_cards().slots, load_cards().titles))
    return dict(zip(cards.slots, cards.titles))


class _OwnNames(dict):
    """Titles of the printed areas; any other area (of a card file that holds other cards by
    now) by its own name."""

    def __missing__(self, key):
        return key


def cards_line(path, sha256=None):
    """``CHANGED CARDS my.toml (sha256 …): cabins.breaks_on_trick, …``, then each of the card
    file's warnings (``; WARNING …``): the cards of that content (``sha256``), read once per
    process; when the file holds other content by now, the name and the hash the result was
    made with."""
    try:
        changed = load_cards(path, sha256)
    except CardError:
        return (f"CHANGED CARDS {Path(path).name} (sha256 {sha256[:12]}; the file holds "
                f"other cards now)")
    what = ", ".join(changed.changed) or "no rule"
    return f"CHANGED CARDS {changed.label}: {what}" + "".join(
        f"; WARNING {w}" for w in changed.warnings)


def with_card_warnings(answer):
    """An answer (a JSON-ready dict with the ``describe()`` of its configuration, ``config``)
    with its card file's warnings beside it (``card_warnings``), when the file has any."""
    config = (answer.get("config") or {}) if isinstance(answer, dict) else {}
    try:
        warnings = load_cards(config["cards"], config.get("cards_sha256")).warnings \
            if config.get("cards") else ()
    except CardError:
        warnings = ()
    return {**answer, "card_warnings": list(warnings)} if warnings else answer


#: what the words of a simulation's answer mean, printed under it
SUMMARY_LEGEND = (
    "  win rate: the share of games the pair won; 95% CI: the range the true rate lies in, 19 "
    "times",
    "  out of 20. Killer's place: where the Killer lay in the first item deck, 1 = its top card.",
    "  traps per round: traps set off per round played in the area; lost here: games that "
    "ended",
    "  in a round played in that area, as shares of all games.",
)


def _rounds_line(by_round, games, indent, per_line=6):
    """``round 1 0.0012, 2 0.0321, ...`` up to the last round with a loss, wrapped."""
    shown = [(r, n) for r, n in by_round.items()]
    while shown and shown[-1][1] == 0:
        shown.pop()
    if not shown:
        return []
    cells = [f"{r} {n / games:.4f}" for r, n in shown]
    rows = [", ".join(cells[i:i + per_line]) for i in range(0, len(cells), per_line)]
    return [indent + ("in round " if i == 0 else " " * 9) + row + ("," if i < len(rows) - 1
                                                                   else "")
            for i, row in enumerate(rows)]


def why_lost_lines(s):
    """The block "why games are lost" of a ``summary()``: losses by health (the round the
    Killer took a last health in), by traps, and games with no end, as shares of all games
    (by area in the area table)."""
    g = s["games"]
    losses = s.get("losses")
    max_rounds = s["config"]["max_rounds"]
    traps = s["config"]["traps"]
    rows = [("the Killer took a player's last health", s["loss_health"],
             _rounds_line(losses["health_by_round"], g, "      ") if losses else []),
            (f"the {_ordinal(traps)} trap was set off", s["loss_traps"], []),
            (f"no end within {max_rounds:,} rounds", s["timeout"], [])]
    lines = ["  why games are lost (shares of all games)"]
    for label, share, detail in rows:
        lines += [f"    {label:<40} {share:.4f}", *detail]
    return lines


def _ordinal(n):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def format_summary(s):
    """The human-readable answer of a ``SimulationResult.summary()``: the win rate, why games
    are lost, the areas and the Killer's place, and a legend of the words."""
    lo, hi = s["win_ci"]
    g = s["games"]
    lines = [
        f"{player_line(s['policy'])}; {config_line(s['config'])}; {g:,} games, "
        f"seed {s['seed']}",
        "",
        f"  win rate          {s['win_rate']:.4f}   95% CI [{lo:.4f}, {hi:.4f}]",
        f"  rounds per game   {s['mean_rounds']:.2f}",
    ]
    if s.get("invariant_violations"):
        lines.append(f"  INVARIANT VIOLATIONS in {s['invariant_violations']:,} games: the figures "
                     f"are not trustworthy")
    if s.get("winnable"):
        lines += winnable_lines(s["winnable"])
    lines += ["", *why_lost_lines(s), ""]
    losses = s.get("losses")
    names = area_names(s["config"])
    width = max(12, *(len(n) for n in names.values()))
    lines.append(f"  {'area':<{width}} rounds played   traps per round"
                 + ("   lost here: by health   by traps" if losses else ""))
    for area, rate in s["trap_rate_by_area"].items():
        played = s["rounds_by_area"][area]
        line = (f"  {names[area]:<{width}} {played:>13,}   "
                f"{'-' if rate is None else format(rate, '.3f'):>15}")
        if losses and played:
            line += (f"   {losses['health_by_area'][area] / g:>20.4f}"
                     f"   {losses['traps_by_area'][area] / g:>8.4f}")
        elif losses:
            line += f"   {'-':>20}   {'-':>8}"
        lines.append(line)
    lines.append("")
    lines.append("  Killer's place   games      win rate")
    for k, (n, rate) in s["win_rate_by_killer_start"].items():
        lines.append(f"  {k:>14} {n:>8,}      {rate:.4f}")
    lines += ["", *SUMMARY_LEGEND,
              *(WINNABLE_LEGEND if s.get("winnable") else ()), "",
              f"  {s['elapsed_s']:.2f} s, {g / max(s['elapsed_s'], 1e-9):,.0f} games/s"]
    return "\n".join(lines)


#: what the exact solver's lines of a simulation mean, under its legend when they are shown
WINNABLE_LEGEND = (
    "  could be won: the share of the first games that some play of both players, each seeing "
    "every",
    "  card, wins (the exact solver); at most: the same, counting the games the solver could "
    "not",
    "  decide in its time as winnable.",
)


def winnable_lines(w):
    """The exact solver's answer for the first games of a run (``Winnability.summary()``)."""
    lo, hi = w["ci"]
    ulo, uhi = w["upper_ci"]
    return [f"  could be won      {w['share']:.4f}   95% CI [{lo:.4f}, {hi:.4f}]   of the first "
            f"{w['games']:,} games: {w['winnable']:,} winnable, {w['unwinnable']:,} "
            f"unwinnable, {w['undecided']:,} undecided after {w['seconds']:g} s",
            f"  at most           {w['upper']:.4f}   95% CI [{ulo:.4f}, {uhi:.4f}]   counting "
            f"the undecided games as winnable"]


def describe_winnable(summary):
    """The exact solver's answer for one game (``Solution.summary()``) in one line of words:
    whether the game could have been won, and how the solver knows."""
    line, player = summary["line"], summary["player"]
    if summary["answer"] == "winnable":
        n, played = len(line), sum(r["played_by_player"] for r in line)
        if player and played == n:
            return f"winnable: the {player} player, seeing every card, wins it in {n} rounds"
        by = f", the {player} player's play from round {n - played + 1} on" if player else ""
        return (f"winnable: the solver's line wins it in {n} rounds (each player seeing every "
                f"card){by}")
    if summary["answer"] == "unwinnable":
        return "unwinnable: no play of both players, even seeing every card, wins it"
    return f"undecided: the solver ran out of its {summary['seconds']:.3g} s"


def winnable_values(r, key, column, labels=None):
    """The exact solver's answers for each row of a luck answer (``r[key][label]
    ["winnable"]``), as lines to append to its table; nothing when it was not asked."""
    rows = {k: p["winnable"] for k, p in r[key].items() if "winnable" in p}
    if not rows:
        return ""
    first = next(iter(rows.values()))
    lines = ["", "", f"  could it have been won? the first {first['games']:,} games of each, "
                 f"{first['seconds']:g} s per game", "",
             f"  {column:>12}   could be won   95% CI             winnable  unwinnable  "
             f"undecided"]
    for k, w in rows.items():
        lo, hi = w["ci"]
        name = (labels or {}).get(k, k)
        lines.append(f"  {name:>12}   {w['share']:>12.4f}   [{lo:.4f}, {hi:.4f}]   "
                     f"{w['winnable']:>8,}  {w['unwinnable']:>10,}  {w['undecided']:>9,}")
    lines += ["", "  could be won: the share of those games some play of both players, each "
                  "seeing every card,", "  wins (the exact solver; undecided games count as "
                  "not winnable)."]
    return "\n".join(lines)


def format_killer_effects(r):
    """The human-readable table of a ``killer_position_effects`` result."""
    n_pos = GameConfig.killer_slots(r["config"])
    over = f"positions 1..{n_pos}" if len(r["positions"]) == n_pos else \
        f"positions 1..{n_pos} (the same games as dealt, the Killer where the deck put it)"
    return format_effects(r, "positions", "killer start", "position", over) + (
        "\n  killer start: where the Killer lay in the first item deck, 1 = its top card")


def format_effects(r, key, column, unit, over, labels=None):
    """The human-readable table of a paired-effects result (``r[key]`` holds the rows,
    shown by ``labels[key]`` where given), with a legend of its words."""
    games = next(iter(r[key].values()))["games"]
    lines = [
        f"{player_line(r['policy'])}; {config_line(r['config'])}; {games:,} games per {unit}, "
        f"seed {r['seed']}",
        "",
        f"  {column:>12}      games   win rate   95% CI               effect   95% CI",
    ]
    for k, p in r[key].items():
        lo, hi = p["win_ci"]
        ci = p["effect_ci"]
        effect_ci = "-" if ci is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"
        name = (labels or {}).get(k, k)
        lines.append(f"  {name:>12} {p['games']:>10,}     {p['win_rate']:.4f}   "
                     f"[{lo:.4f}, {hi:.4f}]   {p['effect']:+.4f}   {effect_ci}")
    lines.append("")
    lines.append(f"  average over {over}: win rate {r['average']:.4f}")
    lines += ["", "  effect: how much this value moves the win rate: its win rate minus that "
              "average,", "  measured game by game on the same games (paired: the same deals "
              "with only this value", "  changed, so the rest of the luck cancels out).",
              f"  {CI_WORDS}."]
    return "\n".join(lines)

def format_sources(r):
    """The human-readable table of a ``variance_sources`` result."""
    first = next(iter(r["shares"].values()))
    lines = [f"{player_line(r['policy'])}; {config_line(r['config'])}; {first['games']:,} games "
             f"per held set, in groups of {r['repeats']} sharing it, seed {r['seed']}", "",
             f"  {'stream':<8} {'first-order share':>17}   95% CI              "
             f"{'total share':>11}   95% CI"]
    for name, v in r["shares"].items():
        (a, b), (c, d) = v["first_ci"], v["total_ci"]
        lines.append(f"  {name:<8} {v['first']:>17.4f}   [{a:+.4f}, {b:+.4f}]   "
                     f"{v['total']:>11.4f}   [{c:.4f}, {d:.4f}]")
    lines += ["", f"  sum of first-order shares {r['sum_first']:.4f}; decided only by streams "
                  f"together {r['interactions']:.4f}; sum of total shares {r['sum_total']:.4f}",
              "", *SOURCES_LEGEND]
    return "\n".join(lines)


#: what the words of ``luck sources`` mean, printed under it
SOURCES_LEGEND = (
    "  stream: one of the game's sources of chance: deal (each round's cards and trump), items "
    "(the",
    "  item deck), areas (the area order and arrows), policy (the players' own random "
    "choices).",
    "  first-order share: the part of the win-or-lose variation that stream decides on its "
    "own;",
    "  total share: all it takes part in deciding, alone or together with other streams.",
    "  95% CI: the range the true share lies in, 19 times out of 20.",
)

def format_ci(ci, signed=False):
    """``[low, high]`` to 4 decimals (signed for differences); ``-`` for ``None``."""
    if ci is None:
        return "-"
    f = "+.4f" if signed else ".4f"
    return f"[{ci[0]:{f}}, {ci[1]:{f}}]"


def played_areas(result):
    """The areas some compared policy played a round in, in area order."""
    areas = dict.fromkeys(a for row in result["policies"] for a in row["rounds_by_area"])
    return [a for a in areas if any(row["rounds_by_area"].get(a) for row in result["policies"])]


def format_comparison(r, config_line):
    """The human-readable tables of a :func:`compare_policies` result; ``config_line`` is the
    configuration's one-line description."""
    width = max(12, *(len(row["label"]) for row in r["policies"]))
    players = ", ".join(_player_label(row) for row in r["policies"])
    lines = [f"players {players}; {config_line}; seed {r['seed']}", "",
             f"  {'policy':<{width}} {'games':>10}   win rate   95% CI             "
             f"lost: health  lost: traps   no end"]
    for row in r["policies"]:
        lines.append(f"  {row['label']:<{width}} {row['games']:>10,}     {row['win_rate']:.4f}"
                     f"   {format_ci(row['win_ci'])}       {row['loss_health']:.4f}"
                     f"       {row['loss_traps']:.4f}   {row['timeout']:.4f}")
    if r["pairs"]:
        pw = max(len("b - a"), *(len(p["b"]) + len(p["a"]) + 3 for p in r["pairs"]))
        lines += ["", "  paired difference of win rates on the games both played",
                  f"  {'b - a':<{pw}} {'games':>10}   difference   95% CI"
                  f"               unpaired 95% CI"]
        for p in r["pairs"]:
            lines.append(f"  {p['b'] + ' - ' + p['a']:<{pw}} {p['games']:>10,}"
                         f"      {p['difference']:+.4f}   {format_ci(p['difference_ci'], True)}"
                         f"   {format_ci(p['unpaired_ci'], True)}")
    areas = played_areas(r)
    names = area_names(r["config"])
    lines += ["", "  traps set off per round played, by area",
              f"  {'policy':<{width}} " + " ".join(f"{names[a]:>9}" for a in areas)]
    for row in r["policies"]:
        rates = row["trap_rate_by_area"]
        lines.append(f"  {row['label']:<{width}} " + " ".join(
            f"{'-' if rates[a] is None else format(rates[a], '.3f'):>9}" for a in areas))
    lines += ["", *comparison_legend(r["config"], bool(r["pairs"]))]
    return "\n".join(lines)


def _player_label(row):
    """A compared row's label as the first line names it: the skill level with its policy
    (``novice (baseline)``), a policy with its skill level (``heuristic (casual)``)."""
    label, policy = row["label"], row["policy"]
    if label.partition("#")[0] != policy:
        return f"{label} ({policy})"
    skill = skill_of(policy)
    return f"{label} ({skill})" if skill and skill != policy else label


def comparison_legend(c, pairs):
    """What the words of a comparison mean, printed under it (``c``: its ``describe()``)."""
    lines = [f"  win rate: the share of games won; {CI_WORDS}.",
             f"  lost: health: the Killer took a player's last health; lost: traps: the "
             f"{_ordinal(c['traps'])} trap was set off;",
             f"  no end: no end within {c['max_rounds']:,} rounds (shares of all games)."]
    if pairs:
        lines += ["  paired: both players played the very same games (the same deals and "
                  "decks), so the luck",
                  "  of the cards cancels out of their difference. difference: b's win rate "
                  "minus a's, with its",
                  "  95% CI; unpaired: the wider interval two runs on different games would "
                  "give."]
    return lines

def _verdict(ci):
    """Plain words for an interval of a difference."""
    if ci is None:
        return "too few games to tell"
    if ci[0] > 0:
        return "yes"
    if ci[1] < 0:
        return "no, less"
    return "no clear difference"


def format_variants(r, config_line):
    """The human-readable answer of a :func:`compare_variants` result: each player's win rate
    under the rules as set, the change each variant makes to it, and whether a variant helps
    one player more than another; every figure on the same games. ``config_line`` is the
    base configuration's one-line description."""
    players = r["players"]
    variants = [v["label"] for v in r["variants"]]
    vw = max(len("rules as set"), *(len(v) for v in variants))
    cw = 27
    base = {row["player"]: row for row in r["rows"] if row["rules"] not in variants}
    change = {(c["variant"], c["player"]): c for c in r["changes"]}
    games = ", ".join(f"{p} {base[p]['games']:,}" for p in players)
    lines = [f"players {', '.join(players)}; {config_line}; seed {r['seed']}; games per "
             f"player and rules: {games}", ""]
    for v in r["variants"]:
        lines.append(f"  variant {v['label']!r}: " + ", ".join(
            _variant_cards(v["config"]) if k == "cards" else f"{k}={_rule_value(x)}"
            for k, x in v["changes"].items()))
    lines += ["", "  win rate, and how much each variant changes it (same games)",
              f"  {'rules':<{vw}} " + " ".join(f"{p:>{cw}}" for p in players),
              f"  {'rules as set':<{vw}} " + " ".join(
                  f"{base[p]['win_rate']:>{cw}.4f}" for p in players)]
    for v in variants:
        cells = [f"{change[v, p]['difference']:+.4f} "
                 f"{format_ci(change[v, p]['difference_ci'], True)}" for p in players]
        lines.append(f"  {v:<{vw}} " + " ".join(f"{cell:>{cw}}" for cell in cells))
    if r["contrasts"]:
        lines += ["", "  does a variant help one player more than another? (the difference of "
                  "their changes, same games)"]
        for c in r["contrasts"]:
            lines.append(f"  {c['variant']:<{vw}} helps {c['b']} more than {c['a']}? "
                         f"{_verdict(c['difference_ci'])}: {c['difference']:+.4f} "
                         f"{format_ci(c['difference_ci'], True)}")
    lines += ["", "  A change is the variant's win rate minus the win rate under the rules as "
              "set, game by game", "  on the same games; in brackets, its 95% CI: the range the "
              "true change lies in,", "  19 times out of 20."]
    return "\n".join(lines)


def _variant_cards(c):
    """A variant's cards in words: the printed cards, or the card file with its hash and what
    it changes."""
    return cards_line(c["cards"], c["cards_sha256"]) if c.get("cards") else "the printed cards"


def show(value):
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)

def format_info(info):
    """The provenance of :func:`table_info` as text: what made the table, from what, and the
    full configuration of its cells (the values every cell shares once, then per cell only the
    values that differ)."""
    p = info["provenance"]
    sw = p.get("software") or {}
    git = sw.get("git")
    git_text = "not a git checkout" if not git else \
        f"git {git['commit']}" + (" (with uncommitted changes)" if git.get("dirty") else "")
    cells = p.get("cells") or []
    policies = p.get("policies") or []
    lines = [f"{info['path']}: sweep table, format {info['format']}, {info['rows']:,} rows "
             f"({len(cells)} cells x {len(policies)} policies)",
             f"  made by      slashersim {sw.get('slashersim')}, {git_text}",
             f"               sources sha1 {sw.get('source_sha1')}; python {sw.get('python')}, "
             f"numpy {sw.get('numpy')}, numba {sw.get('numba')}",
             f"  created      {p.get('created')}",
             f"  command      {p.get('command') or _FROM_PYTHON}"]
    if p.get("spec_file"):
        lines.append(f"  spec file    {p['spec_file']}")
    spec = p.get("spec") or {}
    sweep = spec.get("sweep", {})
    lines += [f"  seed         {p.get('seed')}",
              f"  games        {p.get('games', 0):,} per cell and policy"
              + (f" (chunks of {sweep['chunk_games']:,})" if "chunk_games" in sweep else "")]
    lines += _card_file_lines(cells)
    for pol in policies:
        params = ", ".join(f"{k}={show(v)}" for k, v in pol.get("params", {}).items())
        lines.append(f"  policy       {policy_words(pol['name'])}"
                     + (" (omniscient: sees every card)" if pol.get("omniscient") else "")
                     + (f": {params}" if params else ": no parameters"))
    if spec.get("axes"):
        lines.append("  axes         " + "; ".join(f"{k} = {show(v)}"
                                                   for k, v in spec["axes"].items()))
    if spec.get("base"):
        lines.append("  base         " + "; ".join(f"{k} = {show(v)}"
                                                   for k, v in spec["base"].items()))
    configs = [c.get("config", {}) for c in cells]
    if configs:
        keys = list(dict.fromkeys(k for c in configs for k in c))
        same = [k for k in keys if all(json.dumps(c.get(k)) == json.dumps(configs[0].get(k))
                                       for c in configs)]
        differ = [k for k in keys if k not in same]
        lines.append("  configuration of every cell, resolved (set or not):")
        width = max(len(k) for k in keys)
        lines += [f"    {k:<{width}} = {show(configs[0].get(k))}" for k in same]
        if differ:
            lines.append("  per cell, the values that differ:")
            for c in cells:
                lines.append(f"    cell {c.get('cell')}: " + ", ".join(
                    f"{k}={show(c.get('config', {}).get(k))}" for k in differ))
    return "\n".join(lines)

def _card_file_lines(cells):
    """One line per card file a table's cells were played under: its name, the SHA-256 of the
    content played, the cells and what it changes; the printed cards when no cell names one."""
    files = {}
    for c in cells:
        cards = c.get("cards")
        if cards:
            key = (cards["file"], cards["sha256"])
            files.setdefault(key, (cards.get("changed", []), []))[1].append(c.get("cell"))
    if not files:
        return ["  cards        printed"]
    return [f"  card file    {file}, sha256 {sha} (cells {', '.join(map(str, where))}): "
            f"{', '.join(changed) or 'no rule changed'}"
            for (file, sha), (changed, where) in files.items()]


def format_bench(b):
    lines = [
        f"{player_line(b['policy'])}; {b['games']:,} games per run, best of {b['repeats']} "
        f"(the compiled game code loaded at import; warm-up call {b['warmup_s']:.2f} s)",
        f"  1 thread : {b['games_per_s_1_thread']:>12,.0f} games/s",
        f"  {b['threads']} threads: {b['games_per_s_all_threads']:>12,.0f} games/s "
        f"({b['games_per_s_per_core_all_threads']:,.0f} per core)",
        f"  peak traced memory: {b['peak_traced_bytes_small_run'] / 2**20:.1f} MiB for "
        f"{b['games'] // 10:,} games, {b['peak_traced_bytes_large_run'] / 2**20:.1f} MiB for "
        f"{b['games']:,} games",
        f"  peak resident memory of the process: {b['max_rss_bytes'] / 2**20:.0f} MiB",
    ]
    return "\n".join(lines)

def format_policy_speeds(rows):
    """The table of a non-empty list of :func:`policy_speed` results; a target counts as met
    when both the one-thread rate and the all-threads rate per core reach it."""
    threads = rows[0]["threads"]
    lines = [f"games per second at default parameters, best of {rows[0]['repeats']} "
             f"(rulebook defaults; {threads} threads = all cores)",
             f"  {'policy':<18} {'games':>10} {'warm-up s':>10} {'1 thread':>12} "
             f"{f'{threads} threads':>12} {'per core':>12} {'target/core':>12}  verdict"]
    for b in rows:
        target = b["target_per_core"]
        verdict = "-" if target is None else ("met" if b["target_met"] else "NOT met")
        lines.append(f"  {policy_words(b['policy']):<18} {b['games']:>10,} "
                     f"{b['warmup_s']:>10.2f} "
                     f"{b['games_per_s_1_thread']:>12,.0f} {b['games_per_s_all_threads']:>12,.0f} "
                     f"{b['games_per_s_per_core_all_threads']:>12,.0f} "
                     f"{'-' if target is None else format(target, ','):>12}  {verdict}")
    lines += ["", "  policy: the player, with the skill level it plays in brackets; warm-up s: the "
              "first call,", "  which loads the compiled game code; per core: the all-threads "
              "rate divided by the cores;", "  target/core: the speed the player is meant to "
              "reach per core; verdict: whether both rates reach it."]
    return "\n".join(lines)


def format_win_probability(r):
    """The human-readable answer of ``luck state`` (:func:`analysis.playouts.win_probability`)."""
    lo, hi = r["win_ci"]
    c = r["config"]
    return "\n".join([
        f"{player_line(r['policy'])}; {config_line(c)}; {r['games']:,} play-outs, "
        f"seed {r['seed']}", "",
        f"  win probability   {r['win_rate']:.4f}   95% CI [{lo:.4f}, {hi:.4f}]",
        f"  lost by health    {r['loss_health']:.4f}   (the Killer took a player's last health)",
        f"  lost by traps     {r['loss_traps']:.4f}   (the {_ordinal(c['traps'])} trap was set "
        f"off)",
        f"  no end            {r['timeout']:.4f}   (within {c['max_rounds']:,} rounds)", "",
        "  win probability: the share of play-outs (games played on from this position) won;",
        f"  {CI_WORDS}."])


def format_timeline(t):
    """The human-readable table of a luck timeline (:func:`analysis.playouts.timeline`)."""
    p0 = t["start"]
    lines = [f"{player_line(t['policy'])}; {config_line(t['config'])}; game {t['game']} of seed "
             f"{t['seed']}, {t['outcome']}; {t['games']:,} play-outs per position", "",
             f"  {'event':<58} {'before':>7} {'after':>7} {'swing':>7}",
             f"  {'start: a fresh game':<58} {'':>7} {p0['win_rate']:>7.4f}"]
    for e in t["events"]:
        lines.append(f"  {e['label'][:58]:<58} {e['before']:>7.4f} {e['after']:>7.4f} "
                     f"{e['swing']:>+7.4f}")
    top = sorted(t["events"], key=lambda e: -abs(e["swing"]))[:3]
    lines += ["", "  largest swings: " + "; ".join(f"{e['label']} ({e['swing']:+.3f})"
                                                 for e in top)]
    if "winnable" in t:
        lines += ["", f"  could it have been won? {describe_winnable(t['winnable'])}"]
    lines += ["", "  before, after: the chance to win just before and just after the event, "
              "from play-outs", "  (games played on from there); swing: after minus before. "
              "R2: round 2; P0, P1:",
              "  the two players; tricks 5-3: the tricks P0 and P1 won in the round."]
    return "\n".join(lines)


#: what the words of a ``why`` answer mean, printed under it
WHY_LEGEND = (
    "  Each lost game is walked back by the exact solver, which sees every card still to come:",
    "  the point of no return is the last position from which some line of play still wins,",
    "  and the decision taken there is the fatal decision. The best fair player (belief, who",
    "  sees only what that seat saw) is then asked the same decision: avoidable if its answer",
    "  keeps the game winnable, hindsight if it loses too. A chance event never passes the",
    "  point: every card was fixed from the start.",
    "  hazard: of the games still winnable at the start of a round (or of the rounds played in",
    "  an area), the share lost during it. Seats 0 and 1 are the two players (P0 and P1 of a",
    f"  game record). {CI_WORDS}.",
)


def _pct_ci(share, lo, hi):
    return f"{share:7.4f}   [{lo:.4f}, {hi:.4f}]"


#: the legend of the luck-and-play table (``why --equity``)
EQUITY_LEGEND = (
    "  With the future unknown: the players' chance of winning is estimated along each game by",
    "  their own play-outs, with what they could not know redrawn. luck: the change a chance",
    "  event made; cost: the best answer's chance less the given answer's (a small negative",
    "  cost is the play-outs' noise). Per game the start plus all luck less all costs is the",
    "  outcome (1 won, 0 lost). mean: per game; share: the part of the outcome's variance from",
    "  game to game it explains (the shares add up to 1). The start is the same chance for",
    "  every game and \"no chance event\" is no event: their shares are the estimates' noise.",
    "  A decision is valued by its best answer, so the luck before it counts the chance of",
    "  playing it best: a weak player's luck means run high and its costs take that back.",
)


def _equity_lines(e):
    words = {"start": "the chance at the start", "decisions": "the play (minus the costs)",
             "luck: none": "no chance event (noise)", "luck: killer": "luck of the Killer"}
    lines = ["", f"  {'luck and play (the future unknown)':<40}  mean    share     95% CI"]
    for r in e["sources"]:
        name = words.get(r["source"], r["source"].replace("luck: ", "luck of the "))
        share = "      -" if r["share"] is None else \
            f"{r['share']:7.4f}   [{r['low']:.4f}, {r['high']:.4f}]"
        lines.append(f"  {name:<40}{r['mean']:+7.4f}  {share}")
    lines.append(f"  play-outs: {e['estimate']} per estimate, {e['choose']} per answer to "
                 f"pick the best")
    if any(r["share"] is None for r in e["sources"]):
        lines.append("  shares: none, every game asked about ended the same way")
    return lines + ["", *EQUITY_LEGEND]


def format_why(s):
    """The human-readable answer of a ``WhyResult.summary()``: the profile, the fatal
    decisions, the hazard by round and by area, the ceilings, and a legend."""
    asked = f"{s['asked']:,} of {s['games']:,} games (where {s['where']})" if s["where"] \
        else f"{s['games']:,} games"
    lines = [f"{player_line(s['policy'])}; {config_line(s['config'])}; {asked}, "
             f"seed {s['seed']}", "",
             f"  {'why the games were lost':<34} games    share     95% CI"]
    words = {"won": "won", "deal": "lost at the deal", "avoidable": "lost: a fair pair could "
             "avoid it", "hindsight": "lost: only hindsight could", "undecided": "undecided"}
    for r in s["profile"]:
        lines.append(f"  {words[r['verdict']]:<34}{r['games']:>6,}  "
                     + _pct_ci(r["share"], r["ci_low"], r["ci_high"]))
    c = s.get("ceilings") or {}
    if c:
        lines += ["", f"  {'ceilings on the same games':<34}      win rate     95% CI"]
        w = c["winnable"]
        lines.append(f"  {'winnable (exact solver)':<34}      "
                     + _pct_ci(w["share"], *w["ci"]) + f"   (undecided as winnable: "
                     f"{w['upper']:.4f})")
        for name in ("belief", "open_hands"):
            lines.append(f"  {name:<34}      " + _pct_ci(c[name]["win_rate"], *c[name]["ci"]))
    if s["decisions"]:
        lines += ["", f"  {'the fatal decisions':<40} games   share of these   a fair pair "
                      f"avoids"]
        for d in s["decisions"]:
            seat = "" if d["seat"] is None else f", seat {int(d['seat'])}"
            what = f"{d['kind']} ({d['part'].replace('_', ' ')}{seat})"
            lines.append(f"  {what:<40}{d['games']:>6,}   {d['share']:>14.4f}   "
                         f"{d['avoidable']:>16,}")
    lines += ["", "  hazard by round                at risk    lost   hazard     95% CI"]
    for r in s["hazard_by_round"]:
        lines.append(f"  round {r['round']:<24} {r['at_risk']:>7,} {r['lost']:>7,}  "
                     + _pct_ci(r["hazard"], r["ci_low"], r["ci_high"]))
    names = area_names(s["config"])
    lines += ["", "  hazard by area                 rounds    lost   hazard     95% CI"]
    for r in s["hazard_by_area"]:
        lines.append(f"  {names.get(r['area'], r['area']):<30} {r['rounds_at_risk']:>7,} "
                     f"{r['lost']:>7,}  " + _pct_ci(r["hazard"], r["ci_low"], r["ci_high"]))
    if s.get("equity"):
        lines += _equity_lines(s["equity"])
    parts = "parts of a round: " + "; ".join(f"{k.replace('_', ' ')} = {v}"
                                             for k, v in s["legend"]["parts"].items())
    lines += ["", *WHY_LEGEND,
              *textwrap.wrap(f"{parts}. Solver budget: {s['budget']:,} rounds searched per "
                             f"game.", 90, initial_indent="  ", subsequent_indent="  ")]
    return "\n".join(lines)
