"""The README's pictures of the page, computed by a real server (serving the invented team libraries
of examples/killteam/teams) and photographed by headless Chromium (Debian's ``chromium``):
docs/img/web_shoot.png, the default Kill Team comparison, and docs/img/web_teams.png, the Teams tab
with Ember Wardens against Gloam Pact.

    PYTHONPATH=python python tools/web_screenshot.py
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from mathhammer.web import create_app

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "img" / "web_shoot.png"
TEAMS_OUT = ROOT / "docs" / "img" / "web_teams.png"
TEAMS = ROOT / "examples" / "killteam" / "teams"


def main() -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("needs chromium: apt-get install -y chromium")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(profiles=[TEAMS]), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.goto(f"http://127.0.0.1:{sock.getsockname()[1]}/")
            page.wait_for_selector("body[data-ready='1']")
            page.select_option("#shoot-b-weapon-pick", "bolt_rifle")
            page.click("#shoot-compute")
            page.wait_for_selector("body[data-computed='1']")
            page.screenshot(path=str(OUT), full_page=True)
            page.click("#tab-teams")
            page.select_option("#teams-a", "Ember Wardens")
            page.select_option("#teams-b", "Gloam Pact")
            page.click("#teams-compute")
            page.wait_for_selector("body[data-computed='2']")
            page.screenshot(path=str(TEAMS_OUT), full_page=True)
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    print(OUT)
    print(TEAMS_OUT)


if __name__ == "__main__":
    main()
