"""The expert's time budget benchmark replays the games' card decisions faithfully."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_budget_replays_every_card_decision_as_played(tmp_path):
    spec = importlib.util.spec_from_file_location(
        "bench_expert_budget", ROOT / "experiments" / "bench_expert_budget.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "budget.md"
    module.main(["--games", "4", "--whole-games", "4", "--replays", "1", "--out", str(out)])
    md = out.read_text()
    assert ", 0 of them replayed to another card than the game played." in md
    for row in ("| whole game, expert defaults |", "| - of which the rollouts |",
                "| - of which the rest (closed-form futures and terms) |",
                "| forced card |", "| lead, trick 1 |", "| answer, trick 1 |"):
        assert row in md
