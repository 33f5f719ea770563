"""The reference tables of the documentation that list the field registry
(``slashersim/core/fields.py``): the counts of a run and the columns of the per-game records
(``docs/reference/tables.md``), an area card's and an item card's keys and the item kinds
(``docs/cards.md``).

Each stands in its page between a line ``% field table: NAME`` and a line ``% end of field
table``. ``tests/test_fields.py`` checks that every one is what the registry says;
``python tests/field_tables.py`` writes them anew after the registry changed.
"""
from pathlib import Path
import re
import sys

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from slashersim.core import cards as C  # noqa: E402
from slashersim.core import fields as F  # noqa: E402
from slashersim.core import rules  # noqa: E402

#: the pages and the tables each holds
PAGES = {"docs/reference/tables.md": ("counts", "records"),
         "docs/cards.md": ("area-keys", "item-keys", "item-kinds")}
BLOCK = re.compile(r"^% field table: (?P<name>[\w-]+)[^\n]*\n(?P<body>.*?)^% end of field table$",
                   re.S | re.M)
#: the keys of a card that place and name it, as the card language's reference shows them
PLACE_KEYS = {
    "area": [("`replaces`", "a new card only: the printed card whose place it takes",
              "an area name"),
             ("`added`", "a new card only: it joins the deck beside the printed cards", "true"),
             ("`title`, `rule`, `source`", "the card's name as printed, its words, the text it "
                                           "comes from", "text"),
             ("`level`", "the rulebook's area-deck group", "1 or 2")],
    "item": [("`replaces`", "a new item only: the printed item whose place it takes",
              "an item name"),
             ("`added`", "a new item only: it joins the deck beside the twelve", "true"),
             ("`title`, `rule`, `source`", "the card's name as printed, its words, the text it "
                                           "comes from", "text")],
}


def _names(stem, per):
    """How the columns of a field or count per ``per`` are written in the reference."""
    if per == F.AREA:
        return f"`{stem}_<area>`"
    if per == F.ITEM:
        return f"`{stem}_<item>`"
    if per == F.SEAT:
        return f"`{stem}_0`, `{stem}_1`"
    if per == F.OUTCOME:
        return ", ".join(f"`{c}`" for c in F.OUTCOME_COLUMNS)
    return f"`{stem}`"


def _answer(count):
    """Where a count stands in a run's answer, in words."""
    if not count.answer:
        return ""
    shape = {F.AREA: " (by area)", F.ITEM: " (by item card)", F.OUTCOME: " (by outcome)",
             F.LOSS_ROUND: " (by round)", F.OPEN: " (a list)"}.get(count.per, "")
    return f"`{count.answer}`{shape}"


def table(name):
    """The lines of the reference table ``name``."""
    if name == "counts":
        rows = ["| column | in the answer (`simulate --json`) | what |", "| --- | --- | --- |"]
        rows += [f"| {_names(c.column, c.per) if c.column else ''} | {_answer(c)} | {c.doc} |"
                 for c in F.COUNTS if c.column or c.answer]
        return rows
    if name == "records":
        rows = ["| column | what |", "| --- | --- |"]
        return rows + [f"| {_names(r.column if r.per in (F.AREA, F.ITEM) else r.name, r.per)} | "
                       f"{r.doc} |" for r in F.RECORDS]
    if name in ("area-keys", "item-keys"):
        kind = name.split("-")[0]
        per = F.AREA if kind == "area" else F.ITEM
        rows = ["| key | what it is | value |", "| --- | --- | --- |"]
        rows += [f"| {key} | {what} | {value} |" for key, what, value in PLACE_KEYS[kind]]
        return rows + [f"| `{h.key}` | {h.doc} | {F.shown_values(h)} |" for h in F.HOOKS
                       if h.per == per and h.key]
    if name == "item-kinds":
        printed = C.printed().items.values()
        rows = ["| kind | what the item does | printed |", "| --- | --- | --- |"]
        for kind in rules.ITEM_KIND_TABLE:
            titles = ", ".join(c["title"] for c in printed if c["kind"] == kind.name) or \
                ("(the instructions' Junk cards)" if kind.name == "junk" else "")
            rows.append(f"| `{kind.name}` | {kind.does} | {titles} |")
        return rows
    raise KeyError(name)


def rewrite(text):
    """``text`` (a page) with each of its field tables as the registry says."""
    return BLOCK.sub(lambda m: f"% field table: {m['name']} (tests/field_tables.py writes it "
                               f"from the field registry)\n\n"
                               + "\n".join(table(m["name"])) + "\n\n% end of field table", text)


def found(text):
    """The names of the field tables in ``text``, in order."""
    return [m["name"] for m in BLOCK.finditer(text)]


def main():
    for page in PAGES:
        path = ROOT / page
        text = path.read_text(encoding="utf-8")
        new = rewrite(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {page}")


if __name__ == "__main__":
    main()
