"""Naive plain-Python reference model of The Slasher (the baseline and exerciser policies).

Written independently of the numba engine, from the rules (docs/rules.md), so that
the engine's statistics can be cross-checked against it.  Clarity over speed:
stdlib ``random.Random`` only, one function per rule.

Two fixed players: ``baseline`` and ``exerciser`` (docs/rules.md, "The reference players"; the
exerciser is the baseline plus the Flashlight, Cabins' extra card and Fire pit gifts of First Aid
kits).  Neither uses the play-phase item windows of ``item_timing = any_time`` (the instructions
default), and both always keep a keepable card, so the instructions' mandatory keep changes nothing
for them.

Public API::

    play_game(config, rng, policy="baseline") -> dict        # one game
    simulate(config, games, seed, policy="baseline") -> dict  # many games, aggregated

Conventions: the item deck is a list whose index 0 is the top card; the discard
pile is a list in the order cards were discarded (index 0 = earliest).
"""

import math
import random
import time

# --------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------

SUITS = ("white", "green", "yellow", "red")
NUMBER_CARDS = [(suit, rank) for suit in SUITS for rank in range(1, 6)]

AREAS = ("tent_site", "lodge", "lakeside", "hideaway", "cabins", "woodland", "fire_pit")
LV1_AREAS = ("tent_site", "lodge", "woodland")
LV2_AREAS = ("lakeside", "cabins", "fire_pit")

ESCAPE_ITEMS = ("map", "car_key", "gasoline", "bolt_cutters", "baseball_bat")
NORMAL_ITEMS = ("first_aid_small", "first_aid_large", "flashlight", "backpack",
                "lucky_charm", "walkie_talkie", "cursed_object")
KILLER = "killer"
JUNK = "junk"
JUNK_COUNT = 5

MAX_HEALTH = 7
TRICKS_PER_ROUND = 8

# red rank -> (knives, greens needed)
RED_TABLE = {1: (1, 1), 2: (1, 1), 3: (2, 2), 4: (2, 2), 5: (3, 3)}
WHITE_TURNED_RED = (1, 1)

# Baseline keep priority (lower is better); escape items all rank first. A First Aid kit ranks
# as a large one when it heals 2 or more, else as a small one (docs/cards.md, "Item kinds").
KEEP_PRIORITY = {name: 0 for name in ESCAPE_ITEMS}
KEEP_PRIORITY.update({"large": 1, "small": 2, "lucky_charm": 3,
                      "walkie_talkie": 4, "backpack": 5, "flashlight": 6})
PRINTED_HEAL = {"first_aid_small": 1, "first_aid_large": 2}

COLOUR_STEPS = ("red", "yellow", "green")  # one step "down" = towards red

DEFAULTS = {"edition": "rulebook", "health": 7, "hideaway": None, "cursed_object": True,
            "escapes_needed": 4, "traps": 3, "max_rounds": 200, "removed_areas": (),
            "cards": None}

POLICIES = ("baseline", "exerciser")
CURSED_EXTRA_DRAWS = 3
FLASHLIGHT_SEES = 3
#: item counts per game reported by ``play_game`` (all 0 under the baseline but used/kept)
ITEM_STAT_KEYS = ("flashlight_used", "cabins_extra_draws", "gifts", "killer_draws")


# --------------------------------------------------------------------------
# Configuration
# --------------------------------------------------------------------------

def normalise_config(config):
    """Fill in defaults; Hideaway defaults to off (rulebook) / on (instructions)."""
    unknown = set(config) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown config keys: {sorted(unknown)}")
    cfg = dict(DEFAULTS)
    cfg.update(config)
    if cfg["edition"] not in ("rulebook", "instructions"):
        raise ValueError(f"unknown edition {cfg['edition']!r}")
    if cfg["hideaway"] is None:
        cfg["hideaway"] = cfg["edition"] == "instructions"
    cfg["changed"], cfg["changed_items"], cfg["added"] = \
        read_cards(cfg["cards"]) if cfg["cards"] else ({}, {}, {})
    return cfg


def all_areas(cfg):
    """The printed areas, then the cards the card file adds beside them."""
    return AREAS + tuple(cfg["added"])


# --------------------------------------------------------------------------
# Card files: a changed area card, read by this model's own small interpreter
# --------------------------------------------------------------------------

def read_cards(path):
    """``({area: {key: value}}, {item: {key: value}}, {added area: level})`` of a card file
    (docs/cards.md); the expressions become functions of an environment dict, built here from
    Python's parse tree alone."""
    import ast
    import tomllib
    with open(path, "rb") as f:
        data = tomllib.load(f)
    changed, added = {}, {}
    for area, keys in data.get("area", {}).items():
        if "replaces" in keys:           # a new card in a printed one's place starts blank
            area = keys["replaces"]
            keys = {**NEW_CARD, **keys}
        elif keys.get("added"):          # so does one beside them, in Lv.2 unless it says
            added[area] = keys.get("level", 2)
            keys = {**NEW_CARD, **keys}
        changed[area] = {k: (_compile(ast.parse(v, mode="eval").body)
                             if k.startswith("breaks_") else v) for k, v in keys.items()}
    return changed, data.get("item", {}), added


def item_number(game, item, key, printed):
    """An item card's number: the card file's when it changes it."""
    return game.cfg["changed_items"].get(item, {}).get(key, printed)


#: a new area card's rules and effects before its file states them: none
NEW_CARD = {"breaks_on_trick": "false", "breaks_on_tricks_won": "false", "white_shift": 0,
            "greens_removed": 0, "draw_reduction": 0, "extra_draw": False, "killer": "damage",
            "gifts": False}


def _compile(node):
    """A function ``env -> value`` for one node of an expression."""
    import ast
    import operator as op
    if isinstance(node, ast.Constant):
        return lambda env: node.value
    if isinstance(node, ast.Name):
        fixed = {"true": True, "false": False, "True": True, "False": False}
        return (lambda env: fixed[node.id]) if node.id in fixed else (lambda env: env[node.id])
    if isinstance(node, ast.Attribute):
        inner = _compile(node.value)
        return lambda env: inner(env)[node.attr]
    if isinstance(node, ast.Call):
        fn = {"abs": abs, "min": min, "max": max, "len": len}[node.func.id]
        args = [_compile(a) for a in node.args]
        return lambda env: fn(*(a(env) for a in args))
    if isinstance(node, ast.BinOp):
        fn = {ast.Add: op.add, ast.Sub: op.sub, ast.Mult: op.mul, ast.FloorDiv: op.floordiv,
              ast.Mod: op.mod}[type(node.op)]
        left, right = _compile(node.left), _compile(node.right)
        return lambda env: fn(left(env), right(env))
    if isinstance(node, ast.BoolOp):
        parts = [_compile(v) for v in node.values]
        if isinstance(node.op, ast.And):
            return lambda env: all(p(env) for p in parts)
        return lambda env: any(p(env) for p in parts)
    if isinstance(node, ast.UnaryOp):
        inner = _compile(node.operand)
        if isinstance(node.op, ast.Not):
            return lambda env: not inner(env)
        return lambda env: -inner(env)
    if isinstance(node, ast.Compare):
        fns = {ast.Eq: op.eq, ast.NotEq: op.ne, ast.Lt: op.lt, ast.LtE: op.le, ast.Gt: op.gt,
               ast.GtE: op.ge, ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
        terms = [_compile(node.left)] + [_compile(c) for c in node.comparators]
        ops = [fns[type(o)] for o in node.ops]

        def compare(env):
            values = [t(env) for t in terms]
            return all(o(a, b) for o, a, b in zip(ops, values, values[1:]))
        return compare
    if isinstance(node, ast.IfExp):
        test, body, other = _compile(node.test), _compile(node.body), _compile(node.orelse)
        return lambda env: body(env) if test(env) else other(env)
    if isinstance(node, (ast.Tuple, ast.List)):
        parts = [_compile(e) for e in node.elts]
        return lambda env: tuple(p(env) for p in parts)
    raise ValueError(f"not in the card language: {ast.dump(node)}")


def changed(cfg, area, key, default):
    """The value of ``key`` on ``area``'s card: the card file's when it changes it."""
    return cfg["changed"].get(area, {}).get(key, default)


def _card_view(card, trump):
    return {"rank": card[1], "suit": card[0], "trump": card[0] == trump}


def trick_view(lead, follow, winning, trump):
    """What a card's trick rule sees (docs/cards.md)."""
    losing = follow if winning == lead else lead
    return {"lead": _card_view(lead, trump), "follow": _card_view(follow, trump),
            "won": _card_view(winning, trump), "lost": _card_view(losing, trump),
            "leader_won": winning == lead, "trump": trump, "ranks": (lead[1], follow[1]),
            "suits": (lead[0], follow[0])}


class Game:
    """Mutable state of one game."""

    def __init__(self, cfg, rng, policy="baseline"):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}")
        self.cfg = cfg
        self.rng = rng
        self.exerciser = policy == "exerciser"
        self.used = {}                # item -> times used (a Cursed Object: drawn)
        self.kept = {}                # item -> times kept
        self.cabins_extra_draws = 0
        self.gifts = 0
        self.killer_draws = 0
        self.rulebook = cfg["edition"] == "rulebook"
        self.health = [cfg["health"], cfg["health"]]
        self.traps = 0
        self.held = [[], []]          # items held by each player
        self.discard = []
        self.junk_aside = 0 if self.rulebook else JUNK_COUNT
        self.killer_drawn_this_round = False
        self.traps_by_area = {a: 0 for a in all_areas(cfg)}
        self.rounds_by_area = {a: 0 for a in all_areas(cfg)}
        self.deck, self.killer_start = build_item_deck(cfg, rng)
        self.area_deck, self.arrows, self.area_cycle = build_areas(cfg, rng)
        self.last_trick_winner = 0


# --------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------

def item_cards(cfg):
    """The 12 item cards, less the Cursed Object when the config removes it."""
    cards = list(ESCAPE_ITEMS) + list(NORMAL_ITEMS)
    if not cfg["cursed_object"]:
        cards.remove("cursed_object")
    return cards


def build_item_deck(cfg, rng):
    """Item deck (index 0 = top) and the Killer's 1-based starting position.

    rulebook: shuffled items, first ceil(n/2) form the top group, the Killer is
    inserted uniformly among the ceil(n/2)+1 positions of that group.
    instructions: items and Killer fully shuffled.
    """
    cards = item_cards(cfg)
    rng.shuffle(cards)
    if cfg["edition"] == "rulebook":
        top_size = math.ceil(len(cards) / 2)
        cards.insert(rng.randrange(top_size + 1), KILLER)
    else:
        cards.append(KILLER)
        rng.shuffle(cards)
    return cards, cards.index(KILLER) + 1


def area_pool(cfg):
    """Area cards in play for this config (``removed_areas`` and Hideaway left out)."""
    return [a for a in all_areas(cfg) if (a != "hideaway" or cfg["hideaway"])
            and a not in cfg["removed_areas"]]


def build_areas(cfg, rng):
    """Return (rulebook area deck, rulebook arrows, instructions 4-card cycle)."""
    if cfg["edition"] == "rulebook":
        pool = area_pool(cfg)
        added = cfg["added"]
        lv1 = [a for a in LV1_AREAS if a in pool] \
            + [a for a in added if added[a] == 1 and a in pool]
        lv2 = [a for a in LV2_AREAS if a in pool] + (["hideaway"] if cfg["hideaway"] else []) \
            + [a for a in added if added[a] == 2 and a in pool]
        rng.shuffle(lv1)
        rng.shuffle(lv2)
        arrows = {a: rng.randrange(2) for a in area_pool(cfg)}
        return lv1 + lv2, arrows, None
    pool = area_pool(cfg)
    rng.shuffle(pool)
    return None, None, pool[:4]


def next_area(game, round_no):
    """Area card for this round (round_no is 1-based)."""
    if not game.rulebook:
        return game.area_cycle[(round_no - 1) % len(game.area_cycle)]
    if not game.area_deck:
        game.area_deck = area_pool(game.cfg)
        game.rng.shuffle(game.area_deck)
    return game.area_deck.pop(0)


def round_leader(game, area, round_no):
    """rulebook: the area's arrow; instructions: P0 first, then last trick's winner."""
    if game.rulebook:
        return game.arrows[area]
    return 0 if round_no == 1 else game.last_trick_winner


def deal(rng):
    """Shuffle the 20 number cards: two hands of 8 and the trump suit."""
    cards = list(NUMBER_CARDS)
    rng.shuffle(cards)
    hands = [cards[0:8], cards[8:16]]
    trump_deck = cards[16:20]
    return hands, trump_deck[0][0]


# --------------------------------------------------------------------------
# Play phase
# --------------------------------------------------------------------------

def legal_cards(hand, led_suit):
    """Cards the follower may play: the led suit if held, else anything."""
    follow = [c for c in hand if c[0] == led_suit]
    return follow if follow else list(hand)


def trick_winning_card(lead, follow, trump):
    """Highest trump if any; else the higher card of the led suit; else the lead."""
    trumps = [c for c in (lead, follow) if c[0] == trump]
    if trumps:
        return max(trumps, key=lambda c: c[1])
    if follow[0] == lead[0]:
        return max(lead, follow, key=lambda c: c[1])
    return lead


def breached_in_trick(area, lead, follow, winning_card, tricks_won, cfg=None, trump=None):
    """Area rules checked after every trick: the trick's own rule, and the Hideaway's on the
    tricks won (a card file's changed rule in place of either)."""
    mine = (cfg or {}).get("changed", {}).get(area, {})
    if "breaks_on_trick" in mine:
        by_trick = mine["breaks_on_trick"](trick_view(lead, follow, winning_card, trump))
    else:
        by_trick = printed_trick_rule(area, lead, follow, winning_card)
    t0, t1 = tricks_won
    if "breaks_on_tricks_won" in mine:
        by_count = mine["breaks_on_tricks_won"]({"tricks0": t0, "tricks1": t1, "played": t0 + t1,
                                                 "last": t0 + t1 == TRICKS_PER_ROUND})
    else:
        by_count = area == "hideaway" and t0 > 0 and t1 > 0
    return bool(by_trick or by_count)


def printed_trick_rule(area, lead, follow, winning_card):
    """The printed cards' rules on one trick."""
    if area == "lakeside":
        return abs(lead[1] - follow[1]) > 2
    if area == "cabins":
        return lead[1] + follow[1] > 7
    if area == "woodland":
        return {lead[0], follow[0]} == {"white", "red"}
    if area == "fire_pit":
        return winning_card[1] == 4
    return False


def breached_after_round(area, tricks_won, cfg=None):
    """Tent site / Lodge, checked after trick 8 (both counts share parity)."""
    if "breaks_on_tricks_won" in (cfg or {}).get("changed", {}).get(area, {}):
        return False                       # a changed rule is asked after every trick
    if area == "tent_site":
        return tricks_won[0] % 2 == 1
    if area == "lodge":
        return tricks_won[0] % 2 == 0
    return False


def set_off_trap(game, area):
    """One trap for this round's breach; True if that loses the game."""
    game.traps += 1
    game.traps_by_area[area] += 1
    return game.traps >= game.cfg["traps"]


def play_phase(game, area, leader):
    """Play 8 random legal tricks. Returns (cards won per player, lost_to_traps)."""
    rng = game.rng
    hands, trump = deal(rng)
    won = [[], []]
    tricks_won = [0, 0]
    breached = False
    for _ in range(TRICKS_PER_ROUND):
        follower = 1 - leader
        lead = rng.choice(hands[leader])
        hands[leader].remove(lead)
        follow = rng.choice(legal_cards(hands[follower], lead[0]))
        hands[follower].remove(follow)
        winning = trick_winning_card(lead, follow, trump)
        winner = leader if winning == lead else follower
        won[winner] += [lead, follow]
        tricks_won[winner] += 1
        if not breached and breached_in_trick(area, lead, follow, winning, tricks_won,
                                              game.cfg, trump):
            breached = True
            if set_off_trap(game, area):
                return won, True
        leader = winner
    game.last_trick_winner = leader
    if not breached and breached_after_round(area, tricks_won, game.cfg):
        if set_off_trap(game, area):
            return won, True
    return won, False


# --------------------------------------------------------------------------
# Item phase: sorting the won cards
# --------------------------------------------------------------------------

def white_colour(health, edition, area, cfg=None):
    """Colour a won white card takes, from health at the start of the item phase."""
    if edition == "rulebook":
        colour = "green" if health >= 6 else "yellow" if health >= 3 else "red"
    else:
        colour = "green" if health >= 7 else "yellow" if health >= 4 else "red"
    step = COLOUR_STEPS.index(colour)
    shift = {"lodge": -1, "woodland": 1}.get(area, 0)
    shift = changed(cfg, area, "white_shift", shift) if cfg else shift
    return COLOUR_STEPS[min(2, max(0, step + shift))]


def sort_won_cards(won, health, edition, area, cfg=None):
    """Return (greens, yellows, reds) where reds is a list of (knives, needed)."""
    greens, yellows, reds = 0, 0, []
    for suit, rank in won:
        colour = white_colour(health, edition, area, cfg) if suit == "white" else suit
        if colour == "green":
            greens += 1
        elif colour == "yellow":
            yellows += 1
        elif suit == "red":
            reds.append(RED_TABLE[rank])
        else:
            reds.append(WHITE_TURNED_RED)
    return greens, yellows, reds


def lakeside_removal(greens, area, cfg=None):
    """Lakeside: remove 2 greens (1 if only 1); a card file may change any area's count."""
    removed = 2 if area == "lakeside" else 0
    return max(0, greens - (changed(cfg, area, "greens_removed", removed) if cfg else removed))


def remaining_knives(greens, reds):
    """Spend greens on reds so that the fewest knives remain (0/1 knapsack)."""
    best = [0] * (greens + 1)    # best[g] = most knives nullified with g greens
    for knives, needed in reds:
        for g in range(greens, needed - 1, -1):
            best[g] = max(best[g], best[g - needed] + knives)
    return sum(k for k, _ in reds) - best[greens]


def draw_count(yellows, area, cfg=None):
    """n = yellows (1 with none); Tent site: yellows - 1, 0 when yellows <= 1."""
    cut = 1 if area == "tent_site" else 0
    cut = changed(cfg, area, "draw_reduction", cut) if cfg else cut
    return max(0, (yellows if yellows > 0 else 1) - cut)


# --------------------------------------------------------------------------
# Item phase: items and drawing
# --------------------------------------------------------------------------

def count(table, item):
    table[item] = table.get(item, 0) + 1


def use_item(game, player, item):
    """Spend a held item: discard pile (rulebook) or out of the game (instructions)."""
    count(game.used, item)
    game.held[player].remove(item)
    if game.rulebook:
        game.discard.append(item)


def use_lucky_charms(game, order):
    """Start of the item phase: any holder (leader first) uses charms while traps > 0."""
    for p in order:
        while game.traps > 0 and "lucky_charm" in game.held[p]:
            use_item(game, p, "lucky_charm")
            game.traps -= 1


def heal_of(game, kit):
    return item_number(game, kit, "heal", PRINTED_HEAL[kit])


def kit_size(game, kit):
    """'large' for a kit that heals 2 or more, else 'small'."""
    return "large" if heal_of(game, kit) >= 2 else "small"


def aid_kits(game, player):
    """``(large, small)``: the first kit of each size the player holds (in card order: the
    Small kit's card before the Large one's), or None."""
    kits = [k for k in PRINTED_HEAL if k in game.held[player]]
    large = next((k for k in kits if kit_size(game, k) == "large"), None)
    small = next((k for k in kits if kit_size(game, k) == "small"), None)
    return large, small


def use_first_aid(game, player):
    """Baseline: a large kit while health <= 5, then a small one while health <= 6."""
    while True:
        large, small = aid_kits(game, player)
        kit = large if large and game.health[player] <= 5 else \
            small if small and game.health[player] <= 6 else None
        if kit is None:
            return
        use_item(game, player, kit)
        game.health[player] = min(MAX_HEALTH, game.health[player] + heal_of(game, kit))


def draw_items(game, n):
    """Draw n cards from the top, stopping on the Killer or an empty deck.

    A Cursed Object counts as a draw, leaves the game and adds 3 mandatory draws.
    Returns (drawn cards in draw order, killer_drawn).
    """
    drawn = []
    remaining = n
    while remaining > 0 and game.deck:
        card = game.deck.pop(0)
        remaining -= 1
        if card == KILLER:
            return drawn, True
        if card == "cursed_object":
            count(game.used, card)
            remaining += item_number(game, "cursed_object", "extra_draws", CURSED_EXTRA_DRAWS)
            continue
        drawn.append(card)
    return drawn, False


def killer_attack(game, player, knives, area):
    """Damage 1 + remaining knives (Hideaway: health to 0), floored at 0."""
    killer = changed(game.cfg, area, "killer", "all_health" if area == "hideaway" else "damage")
    if killer == "all_health":
        game.health[player] = 0
    else:
        game.health[player] = max(0, game.health[player] - 1 - knives)


def return_killer(game, drawn):
    """Where the Killer and this turn's drawn cards go.

    rulebook: to the discard pile; reshuffled at cleanup.
    instructions: at once deck + discard + drawn + Killer + 1 Junk (if any) shuffled.
    """
    if game.rulebook:
        game.discard += drawn + [KILLER]
        game.killer_drawn_this_round = True
        return
    game.deck += game.discard + drawn + [KILLER]
    game.discard = []
    if game.junk_aside > 0:
        game.junk_aside -= 1
        game.deck.append(JUNK)
    game.rng.shuffle(game.deck)


def team_escape_items(game):
    """Distinct escape items held by the two players together."""
    return {c for hand in game.held for c in hand if c in ESCAPE_ITEMS}


def choose_picks(game, drawn, use_backpack):
    """Baseline keep: best 1 (best 2 with a Backpack) keepable drawn cards."""
    keepable = [(KEEP_PRIORITY[kit_size(game, c) if c in PRINTED_HEAL else c], i, c)
                for i, c in enumerate(drawn) if c != JUNK]
    keepable.sort()
    count = 2 if use_backpack else 1
    return [c for _, _, c in keepable[:count]]


def walkie_talkie_target(game, picks):
    """Earliest-discarded escape item the team lacks, if no pick is an escape item."""
    if any(c in ESCAPE_ITEMS for c in picks):
        return None
    lacking = set(ESCAPE_ITEMS) - team_escape_items(game)
    for card in game.discard:
        if card in lacking:
            return card
    return None


def keep_items(game, player, drawn, had_backpack, had_walkie):
    """Keep per baseline policy; the rest go to the discard pile. True on a win, checked after
    every keep: the pick that wins ends the keep (no second pick, no Walkie-talkie)."""
    keepable_count = sum(1 for c in drawn if c != JUNK)
    use_backpack = had_backpack and keepable_count >= 2
    picks = choose_picks(game, drawn, use_backpack)
    if use_backpack:
        use_item(game, player, "backpack")
    need = game.cfg["escapes_needed"]
    team = team_escape_items(game)
    won = False
    for n, card in enumerate(picks):
        if card in ESCAPE_ITEMS:
            team = team | {card}
        if len(team) >= need:
            picks = picks[:n + 1]
            won = True
            break
    rest = list(drawn)
    for c in picks:
        rest.remove(c)
    if had_walkie and not won:
        target = walkie_talkie_target(game, picks)
        if target is not None:
            game.discard.remove(target)
            if picks:
                rest.append(picks[0])      # replaced first pick is discarded
                picks = [target] + picks[1:]
            else:
                picks = [target]
            use_item(game, player, "walkie_talkie")
    game.discard += rest
    for card in picks:
        game.held[player].append(card)
        count(game.kept, card)
    return len(team_escape_items(game)) >= need


# --------------------------------------------------------------------------
# The exerciser's items (docs/rules.md, "The exerciser player")
# --------------------------------------------------------------------------

def use_flashlight(game, player, n):
    """Exerciser: before its draw (after First Aid), with n >= 1 and a non-empty deck.

    It sees the top min(3, deck) cards. With the Killer among them they all go under the
    deck as a block in the order seen (the former top card the first of them to come up);
    otherwise back on top, the escape items the team lacks first, then the rest, each group
    in the order seen. The Flashlight is spent either way.
    """
    if "flashlight" not in game.held[player] or n < 1 or not game.deck:
        return
    seen = game.deck[:FLASHLIGHT_SEES]
    rest = game.deck[len(seen):]
    use_item(game, player, "flashlight")
    if KILLER in seen:
        game.deck = rest + seen
        return
    lacking = set(ESCAPE_ITEMS) - team_escape_items(game)
    first = [c for c in seen if c in lacking]
    then = [c for c in seen if c not in lacking]
    game.deck = first + then + rest


def cabins_extra_draw(game, area):
    """Exerciser: Cabins' optional card, always taken when the deck has one; it is a draw
    like any other (a Cursed Object adds its 3). Returns (drawn cards, killer_drawn)."""
    extra = changed(game.cfg, area, "extra_draw", area == "cabins")
    if not game.exerciser or not extra or not game.deck:
        return [], False
    game.cabins_extra_draws += 1
    return draw_items(game, 1)


def fire_pit_gifts(game, order):
    """Exerciser, one Fire pit gift window: each player in draw order whose health is
    strictly above the partner's gives the partner every First Aid kit it holds (large ones
    first); nothing else is ever given."""
    for p in order:
        while game.health[p] > game.health[1 - p]:
            large, small = aid_kits(game, p)
            kit = large or small
            if kit is None:
                break
            game.held[p].remove(kit)
            game.held[1 - p].append(kit)
            game.gifts += 1


def item_turn(game, player, area, won, start_health):
    """One player's item-phase turn. Returns 'win', 'loss_health' or None."""
    edition = game.cfg["edition"]
    greens, yellows, reds = sort_won_cards(won, start_health, edition, area, game.cfg)
    greens = lakeside_removal(greens, area, game.cfg)
    knives = remaining_knives(greens, reds)
    n = draw_count(yellows, area, game.cfg)
    use_first_aid(game, player)
    if game.exerciser:
        use_flashlight(game, player, n)
    had_backpack = "backpack" in game.held[player]
    had_walkie = "walkie_talkie" in game.held[player]
    drawn, killer = draw_items(game, n)
    if not killer:
        extra, killer = cabins_extra_draw(game, area)
        drawn += extra
    if killer:
        game.killer_draws += 1
        killer_attack(game, player, knives, area)
        return_killer(game, drawn)
        return "loss_health" if game.health[player] == 0 else None
    if keep_items(game, player, drawn, had_backpack, had_walkie):
        return "win"
    return None


def item_phase(game, area, leader, won):
    """Lucky Charms, then each player's turn, round leader first; with the exerciser in the
    Fire pit, a gift window before each turn and one after both (none after a turn that
    ends the game)."""
    order = [leader, 1 - leader]
    start_health = list(game.health)
    use_lucky_charms(game, order)
    gifts = game.exerciser and changed(game.cfg, area, "gifts", area == "fire_pit")
    for p in order:
        if gifts:
            fire_pit_gifts(game, order)
        result = item_turn(game, p, area, won[p], start_health[p])
        if result:
            return result
    if gifts:
        fire_pit_gifts(game, order)
    return None


def cleanup(game):
    """rulebook: after a Killer draw, discard + remaining deck shuffled together."""
    if game.rulebook and game.killer_drawn_this_round:
        game.deck += game.discard
        game.discard = []
        game.rng.shuffle(game.deck)
    game.killer_drawn_this_round = False


# --------------------------------------------------------------------------
# Whole games
# --------------------------------------------------------------------------

def play_game(config, rng, policy="baseline"):
    """Play one game with ``policy`` (baseline or exerciser); see the module docstring."""
    cfg = normalise_config(config)
    game = Game(cfg, rng, policy)
    outcome = "timeout"
    rounds = 0
    for round_no in range(1, cfg["max_rounds"] + 1):
        rounds = round_no
        area = next_area(game, round_no)
        game.rounds_by_area[area] += 1
        leader = round_leader(game, area, round_no)
        won, lost = play_phase(game, area, leader)
        if lost:
            outcome = "loss_traps"
            break
        result = item_phase(game, area, leader, won)
        if result:
            outcome = result
            break
        cleanup(game)
    return {"outcome": outcome, "rounds": rounds,
            "traps_by_area": game.traps_by_area, "rounds_by_area": game.rounds_by_area,
            "killer_start": game.killer_start,
            "used": dict(game.used), "kept": dict(game.kept),
            "flashlight_used": game.used.get("flashlight", 0),
            "cabins_extra_draws": game.cabins_extra_draws, "gifts": game.gifts,
            "killer_draws": game.killer_draws}


def simulate(config, games, seed, policy="baseline"):
    """Play `games` games from one Random(seed) and aggregate the results.

    ``per_game`` holds, for the rounds, each of ``ITEM_STAT_KEYS`` and ``used_<item>`` /
    ``kept_<item>`` of every item card, the list of per-game values (for means and their
    standard errors); ``used`` / ``kept`` total the items.
    """
    rng = random.Random(seed)
    totals = {"games": games, "wins": 0, "loss_health": 0, "loss_traps": 0, "timeout": 0}
    traps_by_area = {a: 0 for a in AREAS}
    rounds_by_area = {a: 0 for a in AREAS}
    ks_games, ks_wins = {}, {}
    total_rounds = 0
    per_game = {key: [] for key in ("rounds",) + ITEM_STAT_KEYS}
    used, kept = {}, {}
    for _ in range(games):
        r = play_game(config, rng, policy)
        for key in ("rounds",) + ITEM_STAT_KEYS:
            per_game[key].append(r[key])
        for item in ESCAPE_ITEMS + NORMAL_ITEMS:
            per_game.setdefault(f"used_{item}", []).append(r["used"].get(item, 0))
            per_game.setdefault(f"kept_{item}", []).append(r["kept"].get(item, 0))
        for total, mine in ((used, r["used"]), (kept, r["kept"])):
            for item, n in mine.items():
                total[item] = total.get(item, 0) + n
        key = "wins" if r["outcome"] == "win" else r["outcome"]
        totals[key] += 1
        total_rounds += r["rounds"]
        for a in r["traps_by_area"]:
            traps_by_area[a] = traps_by_area.get(a, 0) + r["traps_by_area"][a]
            rounds_by_area[a] = rounds_by_area.get(a, 0) + r["rounds_by_area"][a]
        k = r["killer_start"]
        ks_games[k] = ks_games.get(k, 0) + 1
        ks_wins[k] = ks_wins.get(k, 0) + (r["outcome"] == "win")
    totals["mean_rounds"] = total_rounds / games if games else 0.0
    totals["traps_by_area"] = traps_by_area
    totals["rounds_by_area"] = rounds_by_area
    totals["killer_start_games"] = dict(sorted(ks_games.items()))
    totals["killer_start_wins"] = dict(sorted(ks_wins.items()))
    totals["per_game"] = per_game
    totals["used"] = used
    totals["kept"] = kept
    return totals


if __name__ == "__main__":
    GAMES = 2000
    for policy in POLICIES:
        for edition in ("rulebook", "instructions"):
            t0 = time.perf_counter()
            res = simulate({"edition": edition}, GAMES, seed=12345, policy=policy)
            ms = (time.perf_counter() - t0) * 1000 / GAMES
            print(policy, edition, f"{ms:.2f} ms/game")
            for key, value in res.items():
                if key != "per_game":
                    print(f"  {key}: {value}")
