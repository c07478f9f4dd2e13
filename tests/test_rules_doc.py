"""`cairn rules`: the rules rendered from the data (Markdown committed under docs/rules/,
kept current), and the HTML page opened in a real headless browser."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.rulesdoc import document, markdown

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import web_screenshots as W  # noqa: E402  (the browser the web tests launch)
sys.path.pop(0)


def test_committed_rules_are_current():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "rulesdocs.py"), "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_rules_show_the_structure_parameters_cards_and_variants():
    text = markdown(document(ROOT / "definitions" / "stonefire"))
    for part in ("## Box", "## Parameters", "## Turn structure", "## Rules (procedures)", "## Cards, pieces and spaces",
                 "## Scoring", "## Variants and expansions", "hand_size", "turn turn", "riverfolk", "reconstructed"):
        assert part in text, part


@pytest.mark.needs("chromium")
def test_rules_html_in_a_headless_browser(tmp_path, capsys):
    from playwright.sync_api import sync_playwright
    out = tmp_path / "big-foot.html"
    assert main(["rules", "big-foot", "--format", "html", "-o", str(out)]) == 0
    shot = ROOT / "tests" / "screenshots"
    shot.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = W.launch(p)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(out.as_uri())
        assert page.title() == "Big Foot"
        headings = page.locator("h2").all_inner_texts()
        assert headings[:3] == ["Box", "Parameters", "Turn structure"]
        assert page.locator("td", has_text="double_factor").first.inner_text() == "double_factor"
        page.screenshot(path=str(shot / "rules-big-foot.png"))
        browser.close()
    assert (shot / "rules-big-foot.png").stat().st_size > 10_000


def test_rules_of_an_expansion_kept_in_a_file(tmp_path, capsys):
    """An overlay given as a file is one of the chosen variants, not shown again as another
    (which applied it twice: every entry 'already defined')."""
    overlay = tmp_path / "lucky-charm.yaml"
    overlay.write_text((ROOT / "docs" / "modding" / "lucky-charm.yaml").read_text("utf-8"), "utf-8")
    assert main(["rules", "big-foot", "--variant", str(overlay)]) == 0
    out, err = capsys.readouterr()
    assert "Lucky Charm (lucky-charm)" in out and "already defined" not in out + err
    assert "Deep Snow (deep-snow)" in out.split("## Variants and expansions")[1]
