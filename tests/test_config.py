"""GameConfig validation and its kernel array."""
from helpers import ROOT
import numpy as np
import pytest

from slashersim.core import layout as L
from slashersim.core import rules
from slashersim.core.config import ConfigError, GameConfig


@pytest.mark.parametrize("kwargs, message", [
    ({"health": 0}, "health must be 1..7, got 0"),
    ({"health": 8}, "health must be 1..7, got 8"),
    ({"edition": "deluxe"}, "unknown edition 'deluxe'; expected one of: rulebook, instructions"),
    ({"escapes_needed": 0}, "escapes_needed must be 1..5, got 0"),
    ({"traps": 5}, "traps must be 1..4, got 5"),
    ({"removed_areas": ("hidaway",)}, "unknown area 'hidaway'; expected one of: tent_site, lodge"),
    ({"lv1_areas": ("tent",)}, "unknown area 'tent'"),
    ({"leader": "oldest"}, "unknown leader 'oldest'; expected one of: arrow, last_trick"),
    ({"red_knives": (1, 2)}, "red_knives must list 5 values"),
    ({"white_colours": ("blue",) * 7}, "unknown white colour 'blue'"),
    ({"killer_position": 8}, "killer_position must be 1..7, got 8"),
    ({"health": True}, "health must be 1..7, got True"),
])
def test_bad_values_are_refused_by_name(kwargs, message):
    with pytest.raises(ConfigError, match=None) as e:
        GameConfig(**kwargs)
    assert message in str(e.value)


def test_unknown_knob_named():
    with pytest.raises(ConfigError, match="unknown knob 'helth'"):
        GameConfig.from_dict({"helth": 3})
    with pytest.raises(ConfigError, match="unknown knob 'helth'"):
        GameConfig().replace(helth=3)


def test_edition_defaults_resolve():
    rb = GameConfig().resolved()
    ins = GameConfig(edition="instructions").resolved()
    assert (rb["hideaway"], ins["hideaway"]) == (False, True)
    assert (rb["junk"], ins["junk"]) == (0, 5)
    assert (rb["leader"], ins["leader"]) == ("arrow", "last_trick")
    assert GameConfig(edition="instructions", hideaway=False).resolved()["hideaway"] is False


def test_to_array_carries_every_knob():
    cfg = GameConfig(health=4, escapes_needed=3, traps=2, cursed_object=False, hideaway=True,
                     red_knives=(1, 2, 3, 4, 5), lv1_areas=("lakeside",)).to_array()
    assert cfg[L.C_START_HEALTH] == 4 and cfg[L.C_ESCAPES_NEEDED] == 3 and cfg[L.C_TRAPS] == 2
    assert cfg[L.C_ITEM_IN + rules.CURSED_OBJECT] == 0
    assert cfg[L.C_AREA_IN + rules.HIDEAWAY] == 1
    assert list(cfg[L.C_RED_KNIVES:L.C_RED_KNIVES + 5]) == [1, 2, 3, 4, 5]
    assert cfg[L.C_AREA_LEVEL + rules.LAKESIDE] == 1 and cfg[L.C_AREA_LEVEL + rules.LODGE] == 2
    assert list(cfg[L.C_WHITE_COLOUR + 1:L.C_WHITE_COLOUR + 8]) == [0, 0, 1, 1, 1, 2, 2]
    ins = GameConfig(edition="instructions").to_array()
    assert list(ins[L.C_WHITE_COLOUR + 1:L.C_WHITE_COLOUR + 8]) == [0, 0, 0, 1, 1, 1, 2]


def test_killer_positions_depend_on_deck():
    assert GameConfig().killer_positions == 7
    assert GameConfig(cursed_object=False).killer_positions == 7
    assert GameConfig(edition="instructions").killer_positions == 13
    assert GameConfig(edition="instructions", cursed_object=False).killer_positions == 12


# --- the cards by content -----------------------------------------------------------------------
def test_a_configuration_keeps_the_cards_it_read_whatever_the_file_holds_later(tmp_path):
    """A card file is read once, when the configuration is made, and named by its content's
    hash: an edit of the file afterwards changes nothing this configuration plays, a copy of
    it (replace, pickle) plays the same cards, and a configuration asking for the old content
    by its hash is refused naming both hashes."""
    import pickle
    bog = (ROOT / "examples" / "bog.toml").read_text()
    path = tmp_path / "bog.toml"
    path.write_text(bog)
    config = GameConfig(cards=str(path))
    cfg = config.to_array()
    sha = config.cards_sha256
    path.write_text(bog.replace("draw_reduction = 1", "draw_reduction = 3"))
    for same in (config, config.replace(health=5), pickle.loads(pickle.dumps(config)),
                 GameConfig(cards=str(path), cards_sha256=sha)):
        assert same.cards_sha256 == sha
        assert same.card_set.areas["cabins"]["draw_reduction"] == 1
    np.testing.assert_array_equal(config.replace(health=5).to_array()[L.C_AREA_DRAW_REDUCTION:
                                                                       L.C_AREA_DRAW_REDUCTION + 7],
                                  cfg[L.C_AREA_DRAW_REDUCTION:L.C_AREA_DRAW_REDUCTION + 7])
    edited = GameConfig(cards=str(path))
    assert edited.cards_sha256 != sha and edited.rules_id.digest != config.rules_id.digest
    assert edited.rules_id.changes(config.rules_id) == [
        f"card file bog.toml: sha256 {sha[:12]}… then, sha256 {edited.cards_sha256[:12]}… now"]
    assert config.replace(cards=str(path)).cards_sha256 == edited.cards_sha256
    from slashersim.core.cards import CardError, check_content
    with pytest.raises(CardError, match=rf"card file '.*bog\.toml' has changed: these rules "
                                        rf"were made with its content of sha256 {sha[:12]}…, "
                                        rf"it now holds {edited.cards_sha256[:12]}…"):
        check_content(path, sha)
    check_content(path, edited.cards_sha256)


def test_the_rules_id_names_the_rules_by_content_not_by_path(tmp_path):
    bog = (ROOT / "examples" / "bog.toml").read_bytes()
    (tmp_path / "a.toml").write_bytes(bog)
    (tmp_path / "b.toml").write_bytes(bog)
    a, b = GameConfig(cards=str(tmp_path / "a.toml")), GameConfig(cards=str(tmp_path / "b.toml"))
    assert a.rules_id.digest == b.rules_id.digest != GameConfig().rules_id.digest
    assert GameConfig(health=5).rules_id.changes(GameConfig().rules_id) == \
        ["rule health: 7 then, 5 now"]
    assert GameConfig().rules_id.changes(GameConfig().rules_id) == []
    assert GameConfig(cards="printed") == GameConfig() and GameConfig().card_set.file is None


@pytest.mark.parametrize("kwargs, message", [
    ({"cards_sha256": "0" * 64}, "cards_sha256 '000"),
    ({"cards": str(ROOT / "examples" / "bog.toml"), "cards_sha256": "abc"},
     "cards_sha256 must be the 64 hex digits"),
])
def test_a_cards_hash_without_its_file_or_of_another_form_is_refused(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        GameConfig(**kwargs)


def test_the_card_file_is_read_once_per_configuration(monkeypatch):
    """A configuration reads its card file when it is made; its checks, its kernel array, its
    description and its copies read it no more."""
    from slashersim.core import cards
    reads = []
    content = cards._content
    monkeypatch.setattr(cards, "_content", lambda path: reads.append(path) or content(path))
    config = GameConfig(cards=str(ROOT / "examples" / "bog.toml"))
    assert len(reads) == 1
    for _ in range(3):
        config.resolved(), config.to_array(), config.describe(), config.rules_id
        config.replace(health=5).to_array(), GameConfig.pool(config.resolved())
    assert len(reads) == 1
