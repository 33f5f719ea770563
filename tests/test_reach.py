"""A Python player's random numbers come from its observation's own stream: a generator of its
own, held in its object or reached by its code, is refused before anything plays, in one line
naming where it sits (``slashersim.policies.reach``); and what its code reaches beyond its
object is listed for the hygiene checker."""
import copy
import random

import numpy as np
import pytest

import slashersim
from slashersim.core.errors import ConfigError
from slashersim.engine import rng
from slashersim.policies.reach import MISSING, refuse_own_generators, shared

STREAM = ("draw from the observation's own stream instead: rng.rand_below(obs.state, "
          "rng.POLICY, n), with from slashersim.engine import rng")

DICE = random.Random(7)
BOX = {"dice": [np.random.default_rng(1)]}
TABLE = {}


class OwnDice:
    """The section-7 baseline's card play with a generator of its own."""

    name = "own dice"

    def __init__(self):
        self.rng = random.Random(7)

    def act(self, obs):
        return self.rng.choice(obs.legal)


class Helper:
    def __init__(self):
        self.dice = [np.random.default_rng(3)]


class Nested:
    def __init__(self):
        self.helper = Helper()

    def act(self, obs):
        return obs.legal[0]


class Slotted:
    __slots__ = ("gen",)

    def __init__(self):
        self.gen = np.random.RandomState(1)

    def act(self, obs):
        return obs.legal[0]


class BitsOnly:
    def __init__(self):
        self.bits = {"pcg": np.random.PCG64(5)}

    def act(self, obs):
        return obs.legal[0]


class InItsClass:
    rng = random.Random(3)

    def act(self, obs):
        return self.rng.choice(obs.legal)


class SystemDice:
    def __init__(self):
        self.dice = random.SystemRandom()

    def act(self, obs):
        return self.dice.choice(obs.legal)


class InItsDefault:
    def act(self, obs, dice=random.Random(2)):  # noqa: B008 (the trap under test)
        return dice.choice(obs.legal)


def python_random(obs):
    return random.choice(obs.legal)


def numpy_random(obs):
    return obs.legal[np.random.randint(len(obs.legal))]


def module_dice(obs):
    return DICE.choice(obs.legal)


def _pick(legal):
    return legal[int(BOX["dice"][0].integers(len(legal)))]


def through_a_helper(obs):
    return _pick(obs.legal)


def imports_it_inside(obs):
    from random import randrange
    return obs.legal[randrange(len(obs.legal))]


def closed_over():
    dice = random.Random(1)

    def act(obs):
        return dice.choice(obs.legal)
    return act


def own_stream(obs):
    return obs.legal[rng.rand_below(obs.state, rng.POLICY, len(obs.legal))]


class Fair:
    """Reads the observation and module constants, writes nothing but its memory."""

    name = "fair"
    LEADS = (0, 1)

    def act(self, obs):
        from slashersim.core import rules
        if obs.kind == "play_card" and obs.led is None:
            obs.memory[0] += 1
            return max(obs.legal)
        return obs.legal[len(rules.SUIT_NAMES) % len(obs.legal)]


def test_copies_of_a_player_with_its_own_generator_roll_the_same_dice():
    """The trap: each seat of each game plays a deep copy, and every copy starts its
    generator from the same state."""
    player = OwnDice()
    legal = tuple(range(8))
    rolls = [[copy.deepcopy(player).act(type("O", (), {"legal": legal})) for _ in range(5)]
             for _ in range(3)]
    assert rolls[0] == rolls[1] == rolls[2]


def test_a_generator_in_the_object_is_refused_in_one_line():
    with pytest.raises(ConfigError) as e:
        slashersim.simulate(policy=OwnDice(), games=5)
    assert str(e.value) == (
        "player own dice holds a random generator at self.rng (random.Random): each seat of "
        "each game plays its own copy of the player, so every copy rolls the same dice; "
        + STREAM)


def test_a_shared_generator_is_refused_in_one_line():
    with pytest.raises(ConfigError) as e:
        slashersim.simulate(policy=module_dice, games=5)
    assert str(e.value) == (
        f"player module_dice uses a random generator at {__name__}.DICE (random.Random) that "
        "every seat and game shares, so a game's dice depend on the games played before it; "
        + STREAM)


def test_the_systems_randomness_is_refused_in_one_line():
    with pytest.raises(ConfigError) as e:
        slashersim.simulate(policy=SystemDice(), games=5)
    assert str(e.value) == (
        "player SystemDice uses the system's randomness at self.dice (random.SystemRandom), "
        "which no run seed repeats, so no game of it can be replayed; " + STREAM)


@pytest.mark.parametrize("player,where", [
    (Nested(), "at self.helper.dice[0] (numpy.random.Generator): each seat"),
    (Slotted(), "at self.gen (numpy.random.RandomState): each seat"),
    (BitsOnly(), "at self.bits['pcg'] (numpy.random.PCG64): each seat"),
    (InItsClass(), "at InItsClass.rng (class attribute, random.Random) that every seat"),
    (python_random, "at random.choice (random.Random) that every seat"),
    (numpy_random, "at numpy.random.randint (numpy.random.RandomState) that every seat"),
    (through_a_helper, f"at {__name__}.BOX['dice'][0] (numpy.random.Generator) that every"),
    (imports_it_inside, "at random.randrange (random.Random) that every seat"),
    (closed_over(), "at act (closure variable dice, random.Random) that every seat"),
    (OwnDice().act, "at self.rng (random.Random): each seat"),
    (InItsDefault(), "at InItsDefault.act (default of dice, random.Random) that every"),
], ids=["nested", "slots", "bit generator", "class attribute", "random module", "np.random",
        "helper's global", "imported inside", "closure", "bound method", "method's default"])
def test_every_place_a_generator_sits_is_named(player, where):
    with pytest.raises(ConfigError, match="^player ") as e:
        refuse_own_generators(player)
    assert where in str(e.value) and str(e.value).endswith(STREAM)
    assert "\n" not in str(e.value)


def test_every_run_of_a_python_player_refuses_it_before_it_plays():
    """The API's runs, the runner and a game played step by step."""
    from slashersim.runner import simulate
    player = OwnDice()
    calls = [lambda: slashersim.simulate(policy=player, games=5),
             lambda: slashersim.compare(policies=[player, "novice"], games=5),
             lambda: simulate(policy=player, games=5),
             lambda: slashersim.Game(seed=1, game=0).play(player)]
    for call in calls:
        with pytest.raises(ConfigError, match="holds a random generator at self.rng"):
            call()


def test_players_drawing_from_their_own_stream_play():
    r = slashersim.simulate(policy=own_stream, games=20, seed=5)
    again = slashersim.simulate(policy=own_stream, games=20, seed=5)
    assert r.games == 20 and r.wins == again.wins
    assert slashersim.simulate(policy=Fair(), games=20).games == 20
    refuse_own_generators("expert")


def test_what_a_players_code_shares_beyond_its_object():
    """Module globals its functions name (through its helpers, and through modules to the
    object a method is bound to), its classes' attributes, a global bound only later."""
    def notes(obs):
        global LATER
        LATER = obs.hand
        TABLE[obs.player] = obs.hand
        return _pick(obs.legal) if DICE else obs.legal[0]
    reach = dict(shared(notes))
    assert set(reach) == {f"global {__name__}.LATER", f"global {__name__}.TABLE",
                          f"global {__name__}.DICE", f"global {__name__}.BOX"}
    assert reach[f"global {__name__}.LATER"]() is MISSING
    assert reach[f"global {__name__}.TABLE"]() is TABLE
    assert dict(shared(python_random))["global random.choice"]() is random.choice.__self__
    assert set(dict(shared(Fair()))) == {"class attribute Fair.name", "class attribute Fair.LEADS",
                                         "global slashersim.core.rules.SUIT_NAMES"}
