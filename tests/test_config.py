"""GameConfig validation and its kernel array."""
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
