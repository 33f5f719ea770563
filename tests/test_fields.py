"""The field registry (``core.fields``): the layout, the record, the counts, the card keys and
the reference tables of the documentation all come from its lines; a record written and counts
reduced by hand-worked examples."""
from pathlib import Path

import field_tables
import numpy as np
import pytest

from slashersim.core import cards as C
from slashersim.core import fields as F
from slashersim.core import layout as L
from slashersim.core import rules
from slashersim.core.config import GameConfig
from slashersim.runner.result import answer_counts, count_fields, loss_fields, records_frame

ROOT = Path(__file__).resolve().parents[1]


def test_the_reference_tables_of_the_docs_are_the_registrys():
    for page, names in field_tables.PAGES.items():
        text = (ROOT / page).read_text(encoding="utf-8")
        assert field_tables.found(text) == list(names), page
        assert field_tables.rewrite(text) == text, \
            f"{page} lists other fields than the registry: run python tests/field_tables.py"


def test_the_layout_names_each_field_of_the_registry():
    for r in F.RECORDS:
        assert getattr(L, f"R_{r.name.upper()}") == L.RECORD_OFFSETS[r.name]
        if r.state == F.OWN:
            name, off, n = next(f for f in L.STATE_FIELDS if f[0] == r.name)
            assert getattr(L, f"S_{r.name.upper()}") == off and n == r.slots
    assert L.RECORD_SIZE == sum(r.slots for r in F.RECORDS)
    assert [name for name, _, _ in L.RECORD_FIELDS] == [r.name for r in F.RECORDS]
    for c in F.COUNTS:
        if c.by == F.OPEN:
            assert c.name in L.OPEN_COUNTS
        else:
            assert getattr(L, f"K_{c.name.upper()}") == L.COUNT_OFFSETS[c.name]
    assert L.counts_size(10) == L.K_FIXED_SIZE + 11 * len(L.OPEN_COUNTS)
    for h in F.HOOKS:
        assert getattr(L, h.field) == L.HOOK_OFFSETS[h.name]
    assert L.C_AREA_GIFTS == L.HOOK_OFFSETS["gifts"] and L.C_KIND_ITEMS == \
        L.HOOK_OFFSETS["kind_items"]


def test_each_kind_code_is_named_as_card_files_name_the_kind():
    for code, kind in enumerate(rules.ITEM_KINDS):
        assert getattr(rules, f"KIND_{kind.upper()}") == code
    assert L.HOOK_OFFSETS["kind_items"] + rules.N_ITEM_KINDS == L.HOOK_OFFSETS["keepable"]


def test_every_hook_has_its_table_written_at_its_offset():
    cards = C.load(ROOT / "tests/data/cards_added.toml")
    config = GameConfig(cards=ROOT / "tests/data/cards_added.toml")
    tables = cards.tables({k: config.resolved()[k] for k in C.PARAMETERS})
    assert list(tables) == [h.name for h in F.HOOKS]
    n = len(cards.areas)
    assert n == 8
    rows = {F.AREA: n, F.ITEM: rules.MAX_ITEM_IDS, F.KIND: rules.N_ITEM_KINDS, F.ONE: 1}
    cfg = config.to_array()
    for h in F.HOOKS:
        want = (rows[h.per], *h.shape) if h.per != F.ONE else (1,)
        assert tables[h.name].shape == want, h.name
        off = L.HOOK_OFFSETS[h.name]
        assert (cfg[off:off + tables[h.name].size] == tables[h.name].ravel()).all(), h.name
        assert not cfg[off + tables[h.name].size:off + h.slots].any(), h.name


def test_a_card_key_of_each_kind_of_hook_is_read_into_its_table(tmp_path):
    """A number (Lakeside's greens, the rule parameter's 2, made 4), a flag (the Cabins' extra
    draw, taken away), a choice (the Hideaway's Killer, made to damage) and an item's kind (the
    Map made a heal item healing 3)."""
    path = tmp_path / "c.toml"
    path.write_text('[area.lakeside]\ngreens_removed = 4\n[area.cabins]\nextra_draw = false\n'
                    '[area.hideaway]\nkiller = "damage"\n[item.map]\nkind = "heal"\nheal = 3\n')
    t = C.load(path).tables({"lakeside_removal": 2, "tent_site_reduction": 1,
                             "cursed_extra_draws": 3})
    printed = C.load().tables({"lakeside_removal": 2, "tent_site_reduction": 1,
                               "cursed_extra_draws": 3})
    lakeside, cabins, hideaway = (rules.AREA_NAMES.index(a) for a in
                                  ("lakeside", "cabins", "hideaway"))
    assert (printed["greens_removed"][lakeside], t["greens_removed"][lakeside]) == (2, 4)
    assert (printed["extra_draw"][cabins], t["extra_draw"][cabins]) == (1, 0)
    assert (printed["killer_all"][hideaway], t["killer_all"][hideaway]) == (1, 0)
    assert printed["item_kind"][rules.MAP] == rules.KIND_ESCAPE
    assert (t["item_kind"][rules.MAP], t["item_heal"][rules.MAP]) == (rules.KIND_HEAL, 3)
    assert t["item_kind"][rules.KILLER] == rules.KIND_JUNK
    assert t["usable"][0] == printed["usable"][0] | (1 << rules.MAP)


def test_the_card_keys_are_the_hooks_keys():
    assert list(C.AREA_KEYS)[6:] == ["breaks_on_trick", "breaks_on_tricks_won", "white_shift",
                                     "greens_removed", "draw_reduction", "extra_draw",
                                     "killer", "gifts"]
    assert list(C.ITEM_KEYS)[5:] == ["kind", "heal", "extra_draws"]


def test_the_kinds_say_what_is_kept_and_used():
    kept = [k.name for k in rules.ITEM_KIND_TABLE if k.kept]
    used = [k.name for k in rules.ITEM_KIND_TABLE if k.usable]
    assert kept == ["escape", "heal", "look_at_top", "keep_one_more", "remove_trap",
                    "take_from_discard"]
    assert used == ["heal", "look_at_top", "remove_trap"]
    cfg = GameConfig().to_array()
    assert cfg[L.C_KEEPABLE] == (1 << rules.CURSED_OBJECT) - 1
    assert cfg[L.C_USABLE] == (1 << rules.FIRST_AID_SMALL | 1 << rules.FIRST_AID_LARGE
                               | 1 << rules.FLASHLIGHT | 1 << rules.LUCKY_CHARM)


def test_write_record_copies_each_field_from_its_state():
    """A finished game written down by hand: lost by traps in round 6 at the Lodge, player 1
    hurt 3 times, two traps set off at the Lodge, the Map used, Map and Car Key held, one
    extra card drawn."""
    from slashersim.engine.game import write_record
    st = L.new_state(GameConfig().to_array())
    lodge = rules.AREA_NAMES.index("lodge")
    st[L.S_ROUND], st[L.S_OUTCOME], st[L.S_AREA] = 6, rules.LOSS_TRAPS, lodge
    st[L.S_DAMAGE + 1], st[L.S_TRAPS_AREA + lodge], st[L.S_TRAPS] = 3, 2, 3
    st[L.S_USED + rules.MAP] = 1
    st[L.S_HELD] = 1 << rules.MAP | 1 << rules.CAR_KEY
    st[L.S_EXTRA_DRAWS] = 1
    rec = np.zeros((1, L.RECORD_SIZE), dtype=np.int32)
    write_record(st, rec[0])
    row = records_frame(rec).iloc[0].to_dict()
    assert row.pop("outcome") == "loss_traps"
    want = {"rounds": 6, "damage_1": 3, "traps_lodge": 2, "traps": 3, "used_map": 1,
            "escapes": 2, "extra_draws": 1, "last_area": lodge}
    assert {k: v for k, v in row.items() if v} == want


def test_aggregate_reduces_each_count_as_the_registry_says():
    """Three records worked by hand, counted with room for 10 rounds: a win in round 4 (the
    Killer 3rd), a loss by health in round 7 at the Cabins (the Killer 25th: the last place
    counted, 20), a loss by traps in round 13 at Woodland (past the 10 rounds: the last)."""
    from slashersim.engine.game import aggregate
    area = {a: i for i, a in enumerate(rules.AREA_NAMES)}
    rec = np.zeros((3, L.RECORD_SIZE), dtype=np.int32)
    for i, (outcome, rounds, killer, last) in enumerate((
            (rules.WIN, 4, 3, "lodge"), (rules.LOSS_HEALTH, 7, 25, "cabins"),
            (rules.LOSS_TRAPS, 13, 0, "woodland"))):
        rec[i, [L.R_OUTCOME, L.R_ROUNDS, L.R_KILLER_START, L.R_LAST_AREA]] = \
            outcome, rounds, killer, area[last]
    rec[0, L.R_DAMAGE:L.R_DAMAGE + 2] = 1, 0
    rec[1, L.R_DAMAGE:L.R_DAMAGE + 2] = 2, 5
    rec[0, L.R_KEPT:L.R_KEPT + 2] = 2, 1
    rec[1, L.R_VIOLATIONS] = 4
    rec[0, L.R_TRAPS_AREA + area["lodge"]] = 1
    rec[0, L.R_ROUNDS_AREA + area["tent_site"]] = 2
    rec[0, L.R_ROUNDS_AREA + area["lodge"]] = 2
    rec[1, L.R_ROUNDS_AREA + area["cabins"]] = 7
    rec[0, L.R_USED + rules.MAP] = 1
    rec[0, L.R_EXTRA_DRAWS] = 1
    rec[2, L.R_GIFTS] = 2
    counts = np.zeros(L.counts_size(10), dtype=np.int64)
    aggregate(rec, counts)
    f = count_fields(counts)
    assert (f["games"], f["wins"], f["loss_health"], f["loss_traps"], f["timeout"]) == \
        (3, 1, 1, 1, 0)
    assert (f["invariant_violations"], f["rounds"], f["damage"]) == (1, 24, 8)
    assert {k: v for k, v in f.items() if k.startswith(("traps_", "rounds_", "used_")) and v
            and k != "rounds_hist"} == \
        {"traps_lodge": 1, "rounds_tent_site": 2, "rounds_lodge": 2, "rounds_cabins": 7,
         "used_map": 1}
    assert f["rounds_hist"] == [0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1]
    assert (f["extra_draws"], f["gifts"], f["killer_draws"]) == (1, 2, 0)
    assert counts[L.K_KEPT] == 3
    assert counts[L.K_KILLER_GAMES:L.K_KILLER_GAMES + 21].nonzero()[0].tolist() == [0, 3, 20]
    assert counts[L.K_KILLER_WINS:L.K_KILLER_WINS + 21].nonzero()[0].tolist() == [3]
    losses = loss_fields(counts)
    assert {a: n for a, n in losses["health_by_area"].items() if n} == {"cabins": 1}
    assert {r: n for r, n in losses["health_by_round"].items() if n} == {"7": 1}
    assert {a: n for a, n in losses["traps_by_area"].items() if n} == {"woodland": 1}
    assert answer_counts(counts)["item_stats"]["used"]["map"] == 1


@pytest.mark.parametrize("change, message", [
    (lambda: {"COUNTS": F.COUNTS + F.COUNTS[:1]}, "declares the count ['games'] twice"),
    (lambda: {"COUNTS": F.COUNTS + (F.Count("x", "nothing", F.SUM, "x"),)},
     "count 'x' reduces 'nothing', which is no record field"),
    (lambda: {"COUNTS": F.COUNTS + (F.Count("x", "rounds", F.HIST, "x", "x", by=F.KILLER_PLACE),)},
     "count 'x' is per killer_place: its slots have no column names"),
])
def test_a_registry_that_cannot_be_laid_out_is_refused(monkeypatch, change, message):
    for name, value in change().items():
        monkeypatch.setattr(F, name, value)
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        F._check()
