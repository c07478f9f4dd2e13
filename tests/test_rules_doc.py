"""`cairn rules`: the rules rendered from the data (Markdown committed under docs/rules/,
kept current), and the HTML page opened in a real headless browser."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from interpreter.cli.main import main
from interpreter.rulesdoc import document, markdown

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def test_committed_rules_are_current():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "rulesdocs.py"), "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_rules_show_the_structure_parameters_cards_and_variants():
    text = markdown(document(ROOT / "definitions" / "stonefire"))
    for part in ("## Box", "## Parameters", "## Turn structure", "## Rules (procedures)", "## Cards, pieces and spaces",
                 "## Scoring", "## Variants and expansions", "hand_size", "turn turn", "riverfolk", "reconstructed"):
        assert part in text, part


def test_rules_html_in_a_headless_browser(tmp_path, capsys):
    from playwright.sync_api import sync_playwright
    out = tmp_path / "big-foot.html"
    assert main(["rules", "big-foot", "--format", "html", "-o", str(out)]) == 0
    shot = ROOT / "tests" / "screenshots"
    shot.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(out.as_uri())
        assert page.title() == "Big Foot"
        headings = page.locator("h2").all_inner_texts()
        assert headings[:3] == ["Box", "Parameters", "Turn structure"]
        assert page.locator("td", has_text="double_factor").first.inner_text() == "double_factor"
        page.screenshot(path=str(shot / "rules-big-foot.png"))
        browser.close()
    assert (shot / "rules-big-foot.png").stat().st_size > 10_000


def test_rules_show_every_function_and_quantity_in_full_without_cuts():
    from interpreter.diff import load_spec
    for game in ("footprints", "stonefire", "fantastic-trails", "big-foot"):
        folder = ROOT / "definitions" / game
        text = markdown(document(folder))
        assert "…" not in text, game                    # nothing cut short
        assert "abilitie " not in text, game            # a variant adds an "ability", not an "abilitie"
        spec = load_spec(folder, [])
        for section in ("functions", "quantities"):
            for name, (item, _src) in spec.sections[section].items():
                assert f"### {name}({', '.join(item.get('params', []))})" in text, (game, name)
                assert str(item["expr"]).rstrip() in text, (game, name)
    # every long card text whole: the longest in Big Foot appears as written (whitespace joined)
    from interpreter.rulesdoc import _flat
    spec = load_spec(ROOT / "definitions" / "big-foot", [])
    longest = max((item.get("text", "") for item, _s in spec.sections["cards"].values()), key=len)
    assert len(longest) > 120 and _flat(longest) in markdown(document(ROOT / "definitions" / "big-foot"))
