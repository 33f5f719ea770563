"""``slashersim serve`` in a real browser: Debian's chromium driven by Playwright.

It starts the server (and one playing a card file), opens pages (with links too, from one
server on the other), sets the knobs, and reads the page's numbers, figures and marks;
skipped, saying why, where Playwright, a chromium or the web extra is missing (``.ci/run``
installs them). Game counts stay small: the page's own checks are in
``test_serve.py``.
"""
import hashlib
import os
from pathlib import Path
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

import slashersim
from slashersim.core.presets import preset_knobs
from slashersim.policies import SKILLS
from slashersim.serve.grid import (
    grid,
    health_curves,
)
from slashersim.serve.settings import (
    EXAMPLE_POSITION,
    parse_position_text,
    parse_settings,
    player_label,
)

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "results" / "difficulty.parquet"
BOG = ROOT / "examples" / "bog.toml"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    yield from serving()


@pytest.fixture(scope="module")
def card_server():
    """``python -m slashersim serve --port P --cards examples/bog.toml``; its URL."""
    yield from serving("--cards", str(BOG))


def serving(*options):
    """``python -m slashersim serve --port P OPTIONS`` in a subprocess: its URL, until the
    generator is closed."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"slashersim-serve-{port}.log", "w+")
    proc = subprocess.Popen([sys.executable, "-m", "slashersim", "serve", "--port", str(port),
                             *options],
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
    assert page.locator(".player").inner_text() == "A: novice (policy baseline)"
    assert page.locator(".win-rate-a").inner_text() == f"{expected.win_rate:.4f}"
    assert page.locator(".games-a").inner_text() == "2,000"
    assert page.locator(".command-a").inner_text() == (
        "slashersim simulate --edition rulebook --health 5 --hideaway --cursed-object "
        "--escapes-needed 4 --traps 3 --skill novice --games 2000 --seed 3")
    # the precomputed grid answers this cell too, labelled with its games and seed
    grid_text = page.locator(".grid").inner_text()
    assert "precomputed: 1,000,000 games, seed 7" in grid_text
    cell = grid().lookup(parse_settings({"health": 5, "hideaway": True, "skill": "novice"}))
    assert page.locator(".grid-win-rate-a").inner_text() == f"{cell.win_rate:.4f}"
    assert page.locator(".grid-player-a").inner_text() == "novice (policy baseline)"
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
    expected = slashersim.simulate(policy="expert", games=1000, seed=0)   # the page's player
    assert page.locator(".win-rate-a").inner_text() == f"{expected.win_rate:.4f}"


@browser_test
def test_two_pages_at_once_get_their_own_answers(server, browser):
    pages = [open_page(browser, server, []) for _ in range(2)]
    settings = [(7, 21), (3, 22)]
    for page, (health, seed) in zip(pages, settings):
        page.locator(".skill-a button", has_text="novice").click()
        set_slider(page, ".health-a", health - 7)
        fill(page, ".games", "150000")
        fill(page, ".seed", str(seed))
    for page in pages:
        page.locator(".run button").click()
    for page in pages:
        page.wait_for_selector(".status .state:text-is('done')", timeout=FIRST_RUN_S * 1000)
    for page, (health, seed) in zip(pages, settings):
        expected = slashersim.simulate(health=health, policy="novice", games=150_000, seed=seed)
        assert page.locator(".win-rate-a").inner_text() == f"{expected.win_rate:.4f}"


@browser_test
def test_side_by_side_and_the_luck_panel(server, browser):
    page = open_page(browser, server, [])
    page.locator(".skill-a button", has_text="novice").click()
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
    from slashersim.analysis.playouts import win_probability
    r = win_probability(parse_position_text(EXAMPLE_POSITION), "expert", 2000, 0)
    assert page.locator(".luck-player").inner_text() == "expert (policy expert)"
    assert page.locator(".luck-win").inner_text() == f"{r['win_rate']:.4f}"




# --- a page a designer can share -----------------------------------------------------------------

def widgets(page, tag="a"):
    """What setting ``tag``'s widgets show, as text."""
    return {"edition": page.locator(f".edition-{tag} select").input_value(),
            "difficulty": page.locator(f".difficulty-{tag} select").input_value(),
            "health": page.locator(f".health-{tag} .bk-slider-title").inner_text(),
            "hideaway": page.locator(f".hideaway-{tag} input").is_checked(),
            "cursed_object": page.locator(f".cursed-{tag} input").is_checked(),
            "escapes": page.locator(f".escapes-{tag} .bk-slider-title").inner_text(),
            "traps": page.locator(f".traps-{tag} .bk-slider-title").inner_text(),
            "skill": page.locator(f".skill-{tag} button.bk-active").inner_text()}


def wait_for_link(page, text):
    page.wait_for_function(f"() => window.location.search.includes({text!r})",
                           timeout=10_000)


@browser_test
def test_a_link_opens_the_same_settings_and_the_same_games(server, browser):
    page = open_page(browser, server + "?edition=instructions&difficulty=hard&skill=novice"
                                       "&games=2000&seed=5", [])
    hard = preset_knobs("hard", "instructions")
    onoff = {True: "in", False: "out"}
    shown = {"edition": "instructions", "difficulty": "hard",
             "health": f"Starting health: {hard['health']}", "hideaway": hard["hideaway"],
             "cursed_object": hard["cursed_object"],
             "escapes": f"Escapes needed: {hard['escapes_needed']}",
             "traps": f"Traps that lose: {hard['traps']}", "skill": "novice"}
    assert widgets(page) == shown
    assert page.locator(".games input").input_value() == "2,000"
    assert page.locator(".seed input").input_value() == "5"
    wait_for_link(page, f"traps={hard['traps']}")       # the link now names every setting
    for key in ("edition=instructions", "difficulty=hard", f"health={hard['health']}",
                f"hideaway={onoff[hard['hideaway']]}",
                f"cursed_object={onoff[hard['cursed_object']]}",
                f"escapes_needed={hard['escapes_needed']}", f"traps={hard['traps']}",
                "skill=novice", "games=2000", "seed=5"):
        assert key in page.url, key
    run_and_wait(page)
    expected = slashersim.simulate(edition="instructions", difficulty="hard", policy="novice",
                                   games=2000, seed=5)
    assert page.locator(".player").inner_text() == "A: novice (policy baseline)"
    assert page.locator(".win-rate-a").inner_text() == f"{expected.win_rate:.4f}"
    # a change goes into the link; that link opens a page with the same settings and games
    fill(page, ".seed", "6")
    wait_for_link(page, "seed=6")
    other = open_page(browser, page.url, [])
    assert widgets(other) == shown and other.locator(".seed input").input_value() == "6"
    run_and_wait(other)
    expected = slashersim.simulate(edition="instructions", difficulty="hard", policy="novice",
                                   games=2000, seed=6)
    assert other.locator(".win-rate-a").inner_text() == f"{expected.win_rate:.4f}"


@browser_test
def test_a_bad_link_is_refused_as_if_typed(server, browser):
    page = open_page(browser, server + "?games=abc&health=9&skill=novice", [])
    expect_texts(page, ".message .error-text",
                 ["health must be an integer 1..7, got 9",
                  "games must be an integer 1..10,000,000, got 'abc'"])
    assert page.locator(".games input").input_value() == "abc"
    assert widgets(page)["health"] == "Starting health: 7"
    assert not page.locator("progress.run-progress").is_visible()
    fill(page, ".games", "1000")
    run_and_wait(page)
    expected = slashersim.simulate(policy="novice", games=1000, seed=0)
    assert page.locator(".win-rate-a").inner_text() == f"{expected.win_rate:.4f}"
    assert page.locator(".message .error-text").count() == 0


@browser_test
def test_a_changed_setting_marks_the_run_stale_until_run_again(server, browser):
    page = open_page(browser, server + "?skill=novice&games=1000&seed=1", [])
    run_and_wait(page)
    stale = page.locator(".stale b")
    assert not stale.is_visible() and page.locator(".run-output.is-stale").count() == 0
    page.locator(".skill-a button", has_text="casual").click()
    stale.wait_for(state="visible", timeout=10_000)
    assert stale.inner_text().startswith("stale: settings changed since this run")
    # the label and the dimmed output come in separate updates from the server
    page.locator(".run-output.is-stale").wait_for(state="attached", timeout=10_000)
    page.locator(".skill-a button", has_text="novice").click()     # the run's settings again
    stale.wait_for(state="hidden", timeout=10_000)
    fill(page, ".seed", "2")
    stale.wait_for(state="visible", timeout=10_000)
    page.locator(".run button").click()           # "done" may still be the last run's
    stale.wait_for(state="hidden", timeout=FIRST_RUN_S * 1000)
    expected = slashersim.simulate(policy="novice", games=1000, seed=2)
    expect_text(page, ".win-rate-a", f"{expected.win_rate:.4f}", FIRST_RUN_S)
    page.locator(".run-output.is-stale").wait_for(state="detached", timeout=10_000)


@browser_test
def test_the_preset_menu_names_what_the_knobs_equal(server, browser):
    page = open_page(browser, server, [])
    menu = page.locator(".difficulty-a select")
    assert menu.input_value() == "defaults"
    set_slider(page, ".traps-a", -2)                  # the rulebook's normal: 1 trap loses
    expect_menu(page, "normal")
    set_slider(page, ".health-a", -4)                 # and health 3: hard
    expect_menu(page, "hard")
    set_slider(page, ".health-a", -1)
    expect_menu(page, "custom")
    menu.select_option("defaults")
    expect_text(page, ".health-a .bk-slider-title", "Starting health: 7")
    expect_text(page, ".traps-a .bk-slider-title", "Traps that lose: 3")
    expect_menu(page, "defaults")
    menu.select_option("nightmare")
    expect_text(page, ".escapes-a .bk-slider-title", "Escapes needed: 5")
    expect_menu(page, "nightmare")
    wait_for_link(page, "difficulty=nightmare")


def expect_text(page, css, text, timeout_s=10):
    deadline = time.monotonic() + timeout_s
    while page.locator(css).inner_text() != text:
        assert time.monotonic() < deadline, (css, page.locator(css).inner_text(), text)
        time.sleep(0.1)


def expect_texts(page, css, texts, timeout_s=10):
    """Wait until the elements ``css`` show ``texts`` (an element and its text can come in
    separate updates from the server)."""
    deadline = time.monotonic() + timeout_s
    while page.locator(css).all_inner_texts() != texts:
        assert time.monotonic() < deadline, (css, page.locator(css).all_inner_texts(), texts)
        time.sleep(0.1)


def expect_menu(page, name, timeout_s=10):
    deadline = time.monotonic() + timeout_s
    while page.locator(".difficulty-a select").input_value() != name:
        assert time.monotonic() < deadline, (page.locator(".difficulty-a select").input_value(),
                                             name)
        time.sleep(0.1)


@browser_test
def test_a_refused_value_leaves_no_full_progress_bar(server, browser):
    page = open_page(browser, server + "?skill=novice&games=1000", [])
    bar = page.locator("progress.run-progress")
    assert not bar.is_visible()
    run_and_wait(page)
    assert bar.is_visible() and bar.get_attribute("value") == "100"
    fill(page, ".games", "abc")
    page.locator(".run button").click()
    page.locator(".message .error-text").wait_for(timeout=10_000)
    page.get_by_text("Nothing played: fix the value above.").wait_for(timeout=10_000)
    bar.wait_for(state="hidden", timeout=10_000)


def health_data(page, skill):
    return page.evaluate("name => { const m = Bokeh.documents[0].get_model_by_name(name); "
                         "return {value: Array.from(m.data.value), low: Array.from(m.data.low),"
                         " high: Array.from(m.data.high), health: Array.from(m.data.health)} }",
                         f"health-{skill}")


@browser_test
@pytest.mark.skipif(not TABLE.exists(), reason="results/difficulty.parquet is not in this "
                                               "checkout")
def test_the_health_figure_is_on_the_page_at_once(server, browser):
    page = open_page(browser, server, [])
    curves = health_curves(grid((TABLE,)), "rulebook", False, True)
    for skill in SKILLS:
        data = health_data(page, skill)
        assert data == {"value": [p[1] for p in curves.points[skill]],
                        "low": [p[2] for p in curves.points[skill]],
                        "high": [p[3] for p in curves.points[skill]],
                        "health": list(range(1, 8))}
    title = page.evaluate("() => Bokeh.documents[0].get_model_by_name('health-figure')"
                          ".title.text")
    assert title == "Win rate by starting health: rulebook, Hideaway out, Cursed Object in"
    caption = page.locator(".health-caption-text").inner_text()
    assert caption.startswith("From results/difficulty.parquet: seed 7, 1,000,000 games per "
                              "cell")
    legend = page.evaluate("() => Bokeh.documents[0].get_model_by_name('health-figure')"
                           ".center.find(m => m.items !== undefined)"
                           ".items.map(i => i.label.value)")
    assert legend == [player_label(k) for k in SKILLS]
    assert page.get_by_text("Choose the settings and press Run.").is_visible()   # no run
    # the chosen areas: the figure follows them
    page.locator(".hideaway-a input").check()
    curves = health_curves(grid((TABLE,)), "rulebook", True, True)
    deadline = time.monotonic() + 10
    while health_data(page, "expert")["value"] != [p[1] for p in curves.points["expert"]]:
        assert time.monotonic() < deadline
        time.sleep(0.1)


# --- a link names its cards -----------------------------------------------------------------

def foreign_line(page, start):
    """The line at the top of a page opened with a link for other cards, once it starts with
    ``start``."""
    line = page.locator(".foreign-cards .error-text")
    line.wait_for(timeout=10_000)
    expect_text(page, ".foreign-cards .error-text", line.inner_text())
    assert line.inner_text().startswith(start), line.inner_text()
    return line.inner_text()


@browser_test
def test_a_card_page_s_link_on_a_server_without_the_cards_says_so(server, card_server,
                                                                  browser):
    sha = hashlib.sha256(BOG.read_bytes()).hexdigest()
    page = open_page(browser, card_server, [])
    page.locator(".skill-a button", has_text="novice").click()
    wait_for_link(page, "skill=novice")
    query = page.url.split("?", 1)[1]
    assert f"&cards=bog.toml&cards_sha256={sha}&" in "&" + query
    assert page.locator(".foreign-cards .error-text").count() == 0       # its own server
    other = open_page(browser, f"{server}?{query}", [])
    line = foreign_line(other, f"This link was made for the card file bog.toml (sha256 "
                               f"{sha[:12]}), but this server plays the printed cards")
    assert line.endswith("or serve the link's cards: slashersim serve --cards bog.toml")
    assert other.locator(".grid").count() == 0                 # no printed answer, no figure
    assert all(health_data(other, skill)["value"] == [] for skill in SKILLS)
    nothing = "Nothing answered here: this server plays other cards than the link's (see the top)."
    expect_text(other, ".health-caption .nothing-answered", nothing)
    other.locator(".run button").click()                       # Run plays nothing either
    fill(other, ".seed", "7")
    wait_for_link(other, "seed=7")
    assert f"cards_sha256={sha}" in other.url                 # the link keeps its cards
    assert other.locator(".status .nothing-answered").inner_text() == nothing
    assert other.locator(".win-rate-a").count() == 0
    assert not other.locator("progress.run-progress").is_visible()
    if TABLE.exists():      # the same settings without the cards' keys: the printed answer
        bare = "&".join(kv for kv in query.split("&") if not kv.startswith("cards"))
        plain = open_page(browser, f"{server}?{bare}", [])
        plain.locator(".grid-win-rate-a").wait_for(timeout=10_000)
        assert plain.locator(".foreign-cards .error-text").count() == 0
    # the printed server's link on the card server
    printed = open_page(browser, server, [])
    wait_for_link(printed, "cards=printed")
    reverse = open_page(browser, f"{card_server}?{printed.url.split('?', 1)[1]}", [])
    line = foreign_line(reverse, f"This link was made for the printed cards, but this server "
                                 f"plays the card file bog.toml (sha256 {sha[:12]})")
    assert line.endswith("or serve the link's cards: slashersim serve (without --cards)")
