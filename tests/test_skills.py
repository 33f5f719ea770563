"""The skill ladder: novice = baseline, casual = heuristic, expert = expert, wherever a player
is named; the expert is the default of every command that plays (but ``bench``, which times
the engine)."""
import pytest

from slashersim.analysis.sweeps import parse_spec
from slashersim.cli.parser import build_parser, parse
from slashersim.policies import SKILLS, policy_names, resolve, skill_of


def parsed(*argv):
    return parse(list(argv))


def test_every_level_names_a_registered_policy():
    assert SKILLS == {"novice": "baseline", "casual": "heuristic", "expert": "expert"}
    for level, policy in SKILLS.items():
        assert policy in policy_names() and resolve(level) == policy
        assert skill_of(policy) == level
    assert resolve("search") == "search" and skill_of("search") is None


@pytest.mark.parametrize("argv, policy", [
    (("simulate",), "expert"),
    (("luck", "trump", "--all"), "expert"),
    (("simulate", "--skill", "casual"), "heuristic"),
    (("simulate", "--policy", "novice"), "baseline"),
    (("luck", "killer", "--all"), "expert"),
    (("luck", "area", "--all"), "expert"),
    (("luck", "yellows", "--all"), "expert"),
    (("luck", "sources"), "expert"),
    (("luck", "state", "x.json"), "expert"),
    (("luck", "killer", "--all", "--skill", "novice"), "baseline"),
    (("tune", "--target", "0.3"), "expert"),
    (("tune", "--target", "0.3", "--skill", "casual"), "heuristic"),
])
def test_skill_options_and_defaults(argv, policy):
    assert parsed(*argv).policy == policy


def test_compare_plays_every_skill_level_by_default():
    assert parsed("compare").policies == "novice,casual,expert"


def test_compare_and_sweep_take_levels():
    assert parsed("compare", "--policies", "novice,casual,expert").policies == \
        "novice,casual,expert"                         # rows keep the levels' names
    spec = parse_spec({"sweep": {"games": 10, "policies": ["novice", "expert"]}})
    assert spec.policies == ("baseline", "expert")


def test_help_says_the_default_is_the_expert(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["luck", "killer", "--help"])
    assert "(default expert)" in " ".join(capsys.readouterr().out.split())
