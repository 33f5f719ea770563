"""``slashersim serve``, the difficulty explorer in the browser.

The first part always runs: the page's input checks, the knobs' mapping to a GameConfig, the
precomputed grid's answers, the refusals of the command (without the web extra too), and the
live runs behind the page (played in parts, two at once, a position's win probability), each
equal to the public API's answer. The second part drives Debian's chromium with Playwright:
it starts the server, sets the knobs, and reads the page's numbers; it is skipped, saying
why, where Playwright, a chromium or the web extra is missing (``.ci/run`` installs them).
"""
import json
import os
from pathlib import Path
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

from helpers import assert_one_line_error, run_cli
import numpy as np
import pytest

import slashersim
from slashersim.config import ConfigError, GameConfig
from slashersim.serve.settings import (
    EXAMPLE_POSITION,
    SKILLS,
    Grid,
    check_port_free,
    config_key,
    grid,
    parse_port,
    parse_position_text,
    parse_settings,
    preset_values,
)

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "results" / "difficulty.parquet"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the command's refusals ------------------------------------------------------------------

@pytest.mark.parametrize("text, needle", [("0", "port must be 1..65535, got 0"),
                                          ("abc", "port must be an integer 1..65535, got 'abc'"),
                                          ("70000", "port must be 1..65535, got 70000"),
                                          ("-5", "port must be 1..65535, got -5")])
def test_bad_ports_are_refused_in_one_line(text, needle):
    with pytest.raises(ConfigError, match="port must be"):
        parse_port(text)
    assert_one_line_error(run_cli("serve", "--port", text), needle)


def test_a_port_in_use_is_refused_in_one_line():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(ConfigError, match=f"port {port} is in use"):
            check_port_free(port)
        assert_one_line_error(run_cli("serve", "--port", str(port)), f"port {port} is in use")
    assert parse_port(" 8080 ") == 8080


def test_help_and_refusals_need_no_web_extra():
    """``--help`` and the refusals work without Panel; without it the command says how to
    install it, in one line, exit 2."""
    script = ("import sys; sys.modules['panel'] = sys.modules['bokeh'] = None; "
              "from slashersim.cli import main; sys.exit(main(sys.argv[1:]))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def run(*args):
        return subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                              text=True, env=env, cwd=ROOT)
    p = run("serve", "--help")
    assert p.returncode == 0 and "--port" in p.stdout
    assert_one_line_error(run("serve", "--port", "0"), "port must be 1..65535")
    assert_one_line_error(run("serve", "--port", str(free_port())),
                          "install slashersim[web]: pip install -e '.[web]'")


# --- the settings of the page ----------------------------------------------------------------

def test_settings_map_to_the_config_and_policy_of_the_api():
    s = parse_settings({"health": "5", "hideaway": True, "skill": "novice", "games": "2,000",
                        "seed": "3"})
    assert (s.health, s.hideaway, s.games, s.seed, s.policy) == (5, True, 2000, 3, "baseline")
    assert s.config() == GameConfig(health=5, hideaway=True)
    assert s.command() == ("slashersim simulate --edition rulebook --health 5 --hideaway "
                           "--cursed-object --escapes-needed 4 --traps 3 --skill novice "
                           "--games 2000 --seed 3")
    from slashersim.policies import SKILLS as POLICY_SKILLS
    assert SKILLS == POLICY_SKILLS
    assert {level: parse_settings({"skill": level}).policy for level in SKILLS} == \
        {"novice": "baseline", "casual": "heuristic", "expert": "expert"}
    # the edition's defaults fill the knobs not given: the instructions play with the Hideaway
    assert parse_settings({"edition": "instructions"}).config().resolved() == \
        GameConfig(edition="instructions").resolved()


def test_a_preset_sets_the_knobs_and_an_explicit_knob_wins():
    from slashersim.presets import preset_knobs
    hard = preset_knobs("hard", "rulebook")
    s = parse_settings({"difficulty": "hard"})
    assert s.config() == GameConfig.from_dict({"difficulty": "hard"})
    assert preset_values("hard", "rulebook") == {k: hard[k] for k in preset_values(None,
                                                                                   "rulebook")}
    s = parse_settings({"difficulty": "hard", "health": 7})
    assert s.config() == GameConfig.from_dict({"difficulty": "hard", "health": 7})
    assert parse_settings({"difficulty": "custom"}).difficulty is None


@pytest.mark.parametrize("values, needle", [
    ({"games": "abc"}, "games must be an integer 1..10,000,000, got 'abc'"),
    ({"games": "0"}, "games must be an integer 1..10,000,000, got 0"),
    ({"games": "2.5"}, "games must be an integer"),
    ({"seed": "-1"}, "seed must be an integer 0 <= seed < 2**63, got '-1'"),
    ({"seed": str(2 ** 63)}, "seed must be an integer 0 <= seed < 2**63"),
    ({"health": 8}, "health must be an integer 1..7, got 8"),
    ({"traps": "many"}, "traps must be an integer 1..4"),
    ({"hideaway": "maybe"}, "hideaway must be in or out"),
    ({"skill": "godlike"}, "unknown skill level 'godlike'; expected one of: novice, casual, "
                           "expert"),
    ({"edition": "deluxe"}, "unknown edition 'deluxe'"),
    ({"difficulty": "insane"}, "unknown difficulty 'insane'"),
    ({"colour": "red"}, "unknown setting 'colour'"),
])
def test_malformed_values_are_refused_in_one_line(values, needle):
    with pytest.raises(ConfigError) as e:
        parse_settings(values)
    assert needle in str(e.value) and "\n" not in str(e.value)


# --- the precomputed grid ---------------------------------------------------------------------

@pytest.mark.skipif(not TABLE.exists(), reason="results/difficulty.parquet is not in this "
                                               "checkout")
def test_the_grid_answers_its_cells_at_once():
    from slashersim.tables import load_table
    df = load_table(TABLE)
    g = grid()
    assert isinstance(g, Grid) and len(g.rows) == len(df)
    row = df[(df.edition == "rulebook") & (df.health == 5) & df.hideaway & df.cursed_object
             & (df.policy == "baseline")].iloc[0]
    answer = g.lookup(parse_settings({"health": 5, "hideaway": True, "skill": "novice"}))
    assert (answer.games, answer.wins, answer.seed) == (row.games, row.wins, 7)
    assert answer.win_rate == row.win_rate and answer.label() == \
        f"precomputed: {row.games:,} games, seed 7"
    expert = g.lookup(parse_settings({"edition": "instructions", "health": 3,
                                      "skill": "expert"}))
    assert expert.games == 1_000_000
    # outside the grid: other escapes or traps
    assert g.lookup(parse_settings({"escapes_needed": 3})) is None
    assert g.lookup(parse_settings({"traps": 2})) is None
    # a preset whose knobs are a cell of the grid is answered as that cell
    s = parse_settings({"difficulty": "hard", "escapes_needed": 4, "traps": 3})
    assert g.lookup(s) == g.lookup(parse_settings({**preset_values("hard", "rulebook"),
                                                   "escapes_needed": 4, "traps": 3}))
    assert config_key(GameConfig(edition="instructions")) == \
        config_key(GameConfig(edition="instructions", hideaway=True))


# --- a position typed as JSON -----------------------------------------------------------------

def test_the_example_position_is_experiments_state_example():
    assert json.loads(EXAMPLE_POSITION) == \
        json.loads((ROOT / "experiments" / "state_example.json").read_text())
    from slashersim.analysis.position import load_position
    a, b = parse_position_text(EXAMPLE_POSITION), load_position(ROOT / "experiments" /
                                                                "state_example.json")
    assert a.config == b.config and (a.state == b.state).all() and (a.known == b.known).all()


@pytest.mark.parametrize("text, needle", [
    ("", "the position is empty"),
    ('{"round": 3,', "the position is not valid JSON"),
    ("[1, 2]", "a state must be a JSON object"),
    ('{"round": 1, "traps": 2}', "traps 2 in round 1"),
    ('{"colour": 1}', "unknown state key 'colour'"),
])
def test_bad_positions_are_refused_in_one_line(text, needle):
    with pytest.raises(ConfigError) as e:
        parse_position_text(text)
    assert needle in str(e.value) and "\n" not in str(e.value)


# --- the live runs behind the page (these play games) -----------------------------------------

def test_a_live_run_in_parts_equals_simulate():
    """Chunks of growing size, numbers refining, then exactly ``slashersim simulate``."""
    from slashersim.serve.live import LiveRun
    s = parse_settings({"health": 5, "hideaway": True, "games": 30_000, "seed": 3})
    run = LiveRun(s).start()
    run.join()
    snap = run.snapshot()
    whole = slashersim.simulate(health=5, hideaway=True, policy="baseline", games=30_000,
                                seed=3)
    assert snap["finished"] and not snap["error"] and snap["done"] == 30_000
    assert np.array_equal(snap["a"].counts, whole.counts)
    assert f"{snap['a'].win_rate:.4f}" == f"{whole.win_rate:.4f}"
    assert run.chunks >= 3     # played in growing parts (1, 16, 256, ...)


def test_simulate_in_parts_adds_up_to_the_whole_run():
    whole = slashersim.simulate(health=6, games=3000, seed=9)
    parts = [slashersim.simulate(health=6, games=n, seed=9, first_game=k)
             for k, n in ((0, 700), (700, 1800), (2500, 500))]
    assert np.array_equal(sum(p.counts for p in parts), whole.counts)
    with pytest.raises(ConfigError, match="first_game must be an integer"):
        slashersim.simulate(games=10, first_game=-1)
    with pytest.raises(ConfigError, match="go past 2"):
        slashersim.simulate(games=10, first_game=2 ** 63 - 5)


def test_two_settings_side_by_side_are_compare_on_the_same_games():
    """Setting B plays A's games: the paired difference is ``slashersim compare``'s when the
    two settings differ by the player only."""
    from slashersim.serve.live import LiveRun
    a = parse_settings({"skill": "novice", "games": 4000, "seed": 2})
    b = parse_settings({"skill": "casual", "games": 4000, "seed": 2})
    run = LiveRun(a, b).start()
    assert run.join(300)
    snap = run.snapshot()
    pair = slashersim.compare(policies=("baseline", "heuristic"), games=4000,
                              seed=2).pair("baseline", "heuristic")
    for key in ("games", "win_rate_a", "win_rate_b", "difference", "only_a_won",
                "only_b_won"):
        assert snap["pair"][key] == pair[key], key
    assert snap["pair"]["difference_ci"] == pytest.approx(pair["difference_ci"])
    assert snap["b"].win_rate == pair["win_rate_b"]


def test_two_runs_at_once_get_their_own_answers():
    """Two threads (two browsers) playing at once: the kernel lock lets their calls take
    turns, and each gets exactly its own games."""
    from slashersim.serve.live import LiveRun
    one = parse_settings({"health": 7, "games": 60_000, "seed": 11})
    two = parse_settings({"health": 2, "games": 60_000, "seed": 12})
    runs = [LiveRun(one).start(), LiveRun(two).start()]
    assert all(r.join(300) for r in runs)
    for run, s in zip(runs, (one, two)):
        expected = slashersim.simulate(health=s.health, games=s.games, seed=s.seed)
        assert np.array_equal(run.snapshot()["a"].counts, expected.counts)


def test_a_run_stops_when_cancelled():
    from slashersim.serve.live import LiveRun
    run = LiveRun(parse_settings({"games": 10_000_000})).start()
    time.sleep(0.5)
    run.cancel()
    assert run.join(10)
    snap = run.snapshot()
    assert snap["cancelled"] and snap["finished"] and snap["done"] < 10_000_000
    assert snap["error"] is None


def test_the_luck_run_is_luck_state():
    from slashersim.analysis.position import win_probability
    from slashersim.serve.live import LuckRun
    position = parse_position_text(EXAMPLE_POSITION)
    run = LuckRun(position, "novice", 3000, 4).start()
    assert run.join(600) and run.error is None
    assert run.result == win_probability(position, "baseline", 3000, 4)
    assert run.done == 3000


# --- in a real browser --------------------------------------------------------------------------

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    sync_playwright = None
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
try:
    import panel  # noqa: F401
    WEB = True
except ImportError:
    WEB = False
_why = ("playwright is not installed (pip install -e '.[dev]')" if sync_playwright is None else
        "no chromium browser on PATH (apt-get install chromium)" if CHROMIUM is None else
        "the web extra is not installed (pip install -e '.[web]')" if not WEB else None)
browser_test = pytest.mark.skipif(_why is not None, reason=f"browser tests: {_why}")
#: the server's first page may have to wait for the engine to compile (a clean cache)
FIRST_RUN_S = 600


@pytest.fixture(scope="module")
def server():
    """``python -m slashersim serve --port P`` in a subprocess; its URL."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"slashersim-serve-{port}.log", "w+")
    proc = subprocess.Popen([sys.executable, "-m", "slashersim", "serve", "--port", str(port)],
                            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            log.seek(0)
            proc.kill()
            pytest.fail(f"the server did not start: {log.read()}")
        time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(10)
    log.close()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def open_page(browser, url, outside):
    """A page of a new browser context (its own session); requests to anywhere but this
    machine are refused and listed in ``outside``."""
    context = browser.new_context(viewport={"width": 1300, "height": 1100})

    def route(r):
        host = r.request.url.split("/")[2].split(":")[0]
        if host in ("127.0.0.1", "localhost"):
            return r.continue_()
        outside.append(r.request.url)
        return r.abort()
    context.route("**/*", route)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(".run button", timeout=60_000)
    return page


def fill(page, css, text):
    box = page.locator(f"{css} input")
    box.fill(text)
    box.press("Enter")


def set_slider(page, css, steps):
    """Move a slider by ``steps`` with the keyboard (negative: to the left)."""
    handle = page.locator(f"{css} .noUi-handle")
    handle.focus()
    for _ in range(abs(steps)):
        handle.press("ArrowRight" if steps > 0 else "ArrowLeft")


def run_and_wait(page, timeout_s=FIRST_RUN_S):
    page.locator(".run button").click()
    page.wait_for_selector(".status .state:text-is('done')", timeout=timeout_s * 1000)


@browser_test
def test_the_page_shows_simulate_s_win_rate(server, browser):
    outside = []
    page = open_page(browser, server, outside)
    set_slider(page, ".health-a", -2)                       # 7 -> 5
    page.locator(".hideaway-a input").check()
    page.locator(".skill-a button", has_text="novice").click()
    fill(page, ".games", "2,000")
    fill(page, ".seed", "3")
    run_and_wait(page)
    expected = slashersim.simulate(health=5, hideaway=True, policy="baseline", games=2000,
                                   seed=3)
    assert page.locator(".win-rate-a").inner_text() == f"{expected.win_rate:.4f}"
    assert page.locator(".games-a").inner_text() == "2,000"
    assert page.locator(".command-a").inner_text() == (
        "slashersim simulate --edition rulebook --health 5 --hideaway --cursed-object "
        "--escapes-needed 4 --traps 3 --skill novice --games 2000 --seed 3")
    # the precomputed grid answers this cell too, labelled with its games and seed
    grid_text = page.locator(".grid").inner_text()
    assert "precomputed: 1,000,000 games, seed 7" in grid_text
    cell = grid().lookup(parse_settings({"health": 5, "hideaway": True}))
    assert page.locator(".grid-win-rate-a").inner_text() == f"{cell.win_rate:.4f}"
    assert outside == []                                    # nothing from a CDN


@browser_test
def test_bad_input_gets_a_message_and_the_server_goes_on(server, browser):
    page = open_page(browser, server, [])
    fill(page, ".games", "abc")
    page.locator(".run button").click()
    message = page.locator(".message .error-text")
    message.wait_for(timeout=10_000)
    assert message.inner_text() == "games must be an integer 1..10,000,000, got 'abc'"
    page.get_by_text("Luck of a position").click()
    page.locator(".position textarea").fill('{"round": 1, "traps": 2}')
    page.locator(".luck-run button").click()
    luck_message = page.locator(".luck-message .error-text")
    luck_message.wait_for(timeout=10_000)
    assert "traps 2 in round 1" in luck_message.inner_text()
    page.locator(".position textarea").fill('{"round": 1,')
    page.locator(".luck-run button").click()
    page.wait_for_selector(".luck-message .error-text:has-text('not valid JSON')",
                           timeout=10_000)
    # the server still answers: a fresh page and this one, fixed
    other = open_page(browser, server, [])
    assert other.locator(".message .error-text").count() == 0
    page.get_by_text("Difficulty", exact=True).click()
    fill(page, ".games", "1000")
    run_and_wait(page)
    assert page.locator(".message .error-text").count() == 0
    expected = slashersim.simulate(games=1000, seed=0)
    assert page.locator(".win-rate-a").inner_text() == f"{expected.win_rate:.4f}"


@browser_test
def test_two_pages_at_once_get_their_own_answers(server, browser):
    pages = [open_page(browser, server, []) for _ in range(2)]
    settings = [(7, 21), (3, 22)]
    for page, (health, seed) in zip(pages, settings):
        set_slider(page, ".health-a", health - 7)
        fill(page, ".games", "150000")
        fill(page, ".seed", str(seed))
    for page in pages:
        page.locator(".run button").click()
    for page in pages:
        page.wait_for_selector(".status .state:text-is('done')", timeout=FIRST_RUN_S * 1000)
    for page, (health, seed) in zip(pages, settings):
        expected = slashersim.simulate(health=health, games=150_000, seed=seed)
        assert page.locator(".win-rate-a").inner_text() == f"{expected.win_rate:.4f}"


@browser_test
def test_side_by_side_and_the_luck_panel(server, browser):
    page = open_page(browser, server, [])
    page.locator(".side-by-side input").check()
    page.locator(".skill-b button", has_text="casual").click()
    fill(page, ".games", "3000")
    fill(page, ".seed", "5")
    run_and_wait(page)
    pair = slashersim.compare(policies=("baseline", "heuristic"), games=3000,
                              seed=5).pair("baseline", "heuristic")
    assert page.locator(".win-rate-b").inner_text() == f"{pair['win_rate_b']:.4f}"
    assert page.locator(".difference").inner_text() == f"{pair['difference']:+.4f}"
    page.get_by_text("Luck of a position").click()
    fill(page, ".playouts", "2000")
    page.locator(".luck-run button").click()
    page.wait_for_selector(".luck-state:text-is('done')", timeout=FIRST_RUN_S * 1000)
    from slashersim.analysis.position import win_probability
    r = win_probability(parse_position_text(EXAMPLE_POSITION), "baseline", 2000, 0)
    assert page.locator(".luck-win").inner_text() == f"{r['win_rate']:.4f}"


@pytest.mark.skipif(not WEB, reason="the web extra is not installed (pip install -e '.[web]')")
def test_ctrl_c_stops_the_server():
    import signal
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "slashersim", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).close()
            break
        except OSError:
            time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130 and "Traceback" not in err
    assert err.splitlines()[0] == (f"slashersim: the difficulty explorer is at "
                                   f"http://localhost:{port}/ (Ctrl-C stops it)")
    assert err.splitlines()[-1] == "slashersim: interrupted"
