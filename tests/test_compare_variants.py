"""Rules against rules (``compare --variant``, ``slashersim.compare(variants=...)``): every
player plays the rules as set and each variant on the same games; the changes and their
differences are those of the games themselves."""
import json

from helpers import ROOT, run_main
import pytest

import slashersim
from slashersim.analysis.compare import compare_variants
from slashersim.core.config import GameConfig
from slashersim.core.inputs import parse_variant
from slashersim.core.stats import mean_interval
from slashersim.runner import simulate

VARIANTS = {"no cursed object": {"cursed_object": False},
            "any time": {"item_timing": "any_time"}}


def wins(config, policy, games, seed):
    r = simulate(config, policy, games=games, seed=seed, keep_records=True)
    return (r.records["outcome"] == "win").to_numpy().astype(int)


def test_the_changes_are_the_paired_differences_of_the_same_games():
    base = GameConfig(health=5)
    r = compare_variants(base, ["novice", "casual"], VARIANTS, games=400, seed=3,
                         chunk_size=150)
    per = {}
    for player, policy in (("novice", "baseline"), ("casual", "heuristic")):
        per[player, "as set"] = wins(base, policy, 400, 3)
        for name, changes in VARIANTS.items():
            per[player, name] = wins(base.replace(**changes), policy, 400, 3)
    for c in r["changes"]:
        d = per[c["player"], c["variant"]] - per[c["player"], "as set"]
        assert (c["difference"], c["difference_ci"]) == \
            mean_interval(int(d.sum()), int((d * d).sum()), 400)
        assert c["win_rate_variant"] == per[c["player"], c["variant"]].mean()
    for c in r["contrasts"]:
        assert (c["a"], c["b"]) == ("novice", "casual")
        e = (per["casual", c["variant"]] - per["casual", "as set"]) \
            - (per["novice", c["variant"]] - per["novice", "as set"])
        assert (c["difference"], c["difference_ci"]) == \
            mean_interval(int(e.sum()), int((e * e).sum()), 400)
    assert [v["config"] for v in r["variants"]] == \
        [base.replace(**ch).describe() for ch in VARIANTS.values()]
    assert {row["rules"] for row in r["rows"]} == {"as set", *VARIANTS}


def test_the_api_answers_with_changes_and_contrasts():
    v = slashersim.compare(policies="novice,casual", games=200, seed=1, variants=VARIANTS)
    assert isinstance(v, slashersim.VariantComparison)
    assert list(v.changes["variant"]) == ["no cursed object"] * 2 + ["any time"] * 2
    assert list(v.contrasts.columns[-2:]) == ["difference_ci_low", "difference_ci_high"]
    text = repr(v)
    assert "variant 'no cursed object': cursed_object=false" in text
    assert "does a variant help one player more than another?" in text
    with pytest.raises(slashersim.ConfigError, match="variant 'x' changes no rule"):
        slashersim.compare(policies="novice", games=10, variants={"x": {}})
    with pytest.raises(slashersim.ConfigError, match="unknown knob 'cursed'"):
        slashersim.compare(policies="novice", games=10, variants={"x": {"cursed": False}})


def test_a_variant_is_read_from_the_command_line():
    known = GameConfig.knob_names()
    assert parse_variant("no cursed object: cursed_object=false", known) == \
        ("no cursed object", {"cursed_object": False})
    assert parse_variant("red_knives=[1, 1, 1, 1, 1], junk=2", known) == \
        ("red_knives=[1, 1, 1, 1, 1], junk=2", {"red_knives": (1, 1, 1, 1, 1), "junk": 2})


def test_compare_variant_on_the_command_line(capsys, tmp_path):
    png = tmp_path / "v.png"
    code, out, _ = run_main(capsys, "compare", "--policies", "novice,casual", "--games", "200",
                            "--seed", "1", "--variant", "no cursed object: cursed_object=false",
                            "--json", "--quiet", "--png", str(png))
    assert code == 0 and png.stat().st_size > 0
    r = json.loads(out)
    api = slashersim.compare(policies="novice,casual", games=200, seed=1,
                             variants={"no cursed object": {"cursed_object": False}})
    assert r == api.summary()
    code, out, _ = run_main(capsys, "compare", "--policies", "novice", "--games", "100",
                            "--variant", "junk=2", "--edition", "instructions", "--quiet")
    assert code == 0 and "variant 'junk=2': junk=2" in out


@pytest.mark.parametrize("argv, needle", [
    (["--variant", ": junk=2"], "--variant must be \"NAME: RULE=VALUE, ...\""),
    (["--variant", "a: jank=2"], "unknown rule 'jank' (did you mean 'junk'?)"),
    (["--variant", "a: junk=2", "--variant", "a: junk=3"], "--variant 'a' is given twice"),
    (["--variant", "a: junk=9"], "junk"),
])
def test_bad_variants_are_refused_before_playing(capsys, argv, needle):
    code, out, err = run_main(capsys, "compare", "--policies", "novice", "--games", "10",
                              *argv)
    assert code == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1



# --- a card file as a variant ------------------------------------------------------------------
BOG = ROOT / "examples" / "bog.toml"
CABINS = ROOT / "examples" / "cabins_eight.toml"


def test_a_card_file_is_a_variant_and_each_is_named_with_its_hash(capsys):
    """``cards=FILE`` in a variant, alone or with rule changes, and two card files against each
    other: each variant plays the games of its cards, named in the header with their hash."""
    code, out, _ = run_main(capsys, "compare", "--policies", "novice", "--games", "300",
                            "--cards", str(CABINS), "--variant", f"bog: cards={BOG}",
                            "--variant", f"bog at 5: cards={BOG}, health=5",
                            "--variant", "printed: cards=printed", "--quiet")
    assert code == 0
    bog, cabins = GameConfig(cards=str(BOG)), GameConfig(cards=str(CABINS))
    assert out.splitlines()[0].startswith(
        f"players novice; CHANGED CARDS cabins_eight.toml (sha256 {cabins.cards_sha256[:12]})")
    assert f"variant 'bog': CHANGED CARDS bog.toml (sha256 {bog.cards_sha256[:12]}): bog in " \
           f"place of cabins" in out
    assert f"variant 'bog at 5': CHANGED CARDS bog.toml (sha256 {bog.cards_sha256[:12]}): bog " \
           f"in place of cabins, health=5" in out
    assert "variant 'printed': the printed cards" in out
    r = slashersim.compare(cabins, policies="novice", games=300,
                           variants={"bog": {"cards": str(BOG)}, "printed": {"cards": "printed"}})
    s = r.summary()
    assert [v["config"].get("cards_sha256") for v in s["variants"]] == [bog.cards_sha256, None]
    alone = slashersim.simulate(bog, policy="novice", games=300)
    assert s["rows"][1]["wins"] == alone.fields["wins"]


def test_a_difficulty_in_a_variant_is_its_preset(capsys):
    r = slashersim.compare(policies="novice", games=50, variants={"hard": {"difficulty": "hard"}})
    assert r.summary()["variants"][0]["config"] == GameConfig.of(None, {"difficulty":
                                                                         "hard"}).describe()


def test_a_variant_without_its_colon_says_so(capsys):
    code, out, err = run_main(capsys, "compare", "--games", "10", "--variant",
                              "no cursed object cursed_object=false")
    assert code == 2 and err.strip() == (
        "slashersim: error: --variant 'no cursed object cursed_object=false' has no colon "
        "after its name: write \"NAME: RULE=VALUE, ...\", e.g. \"no cursed object: "
        "cursed_object=false\"")
