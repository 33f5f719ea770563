"""The documentation's screenshot of ``slashersim serve``: docs/serve.png.

Starts the server on a free port, opens the page in Debian's chromium (Playwright with the
system browser), plays two settings side by side (A: the rulebook game with the Hideaway,
novice; B: the same rules, casual) on 200,000 games of seed 1, and saves the page.

    python dev/tools/screenshot_serve.py [--out docs/serve.png]
"""
import argparse
import os
from pathlib import Path
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

#: the repository root (this file is dev/tools/screenshot_serve.py)
ROOT = Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, proc, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit("the server stopped")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.2)
    sys.exit("the server did not answer")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "serve.png"))
    args = parser.parse_args()
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "slashersim", "serve", "--port", str(port)],
                            env=env, cwd=ROOT)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for(url, proc)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"),
                                        args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 1180})
            page.goto(url)
            page.wait_for_selector(".run button", timeout=60_000)
            page.locator(".hideaway-a input").check()
            page.locator(".side-by-side input").check()
            page.locator(".hideaway-b input").check()
            page.locator(".skill-b button", has_text="casual").click()
            for css, text in ((".games", "200,000"), (".seed", "1")):
                page.locator(f"{css} input").fill(text)
                page.locator(f"{css} input").press("Enter")
            page.locator(".run button").click()
            page.wait_for_selector(".status .state:text-is('done')", timeout=600_000)
            page.mouse.move(0, 0)
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=args.out, full_page=True)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"{args.out}: {Path(args.out).stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
