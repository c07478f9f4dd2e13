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
    assert main(["rules", "big-foot", "--by", "kind", "--format", "html", "-o", str(out)]) == 0
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
    assert main(["rules", "big-foot", "--by", "kind", "--variant", str(overlay)]) == 0
    out, err = capsys.readouterr()
    assert "Lucky Charm (lucky-charm)" in out and "already defined" not in out + err
    assert "Deep Snow (deep-snow)" in out.split("## Variants and expansions")[1]


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
    from interpreter.rulesdoc import flat
    spec = load_spec(ROOT / "definitions" / "big-foot", [])
    longest = max((item.get("text", "") for item, _s in spec.sections["cards"].values()), key=len)
    assert len(longest) > 120 and flat(longest) in markdown(document(ROOT / "definitions" / "big-foot"))


def test_rules_by_clause_in_rulebook_order(tmp_path, capsys):
    import re
    import yaml
    out = tmp_path / "fp.md"
    assert main(["rules", "footprints", "--by", "clause", "-o", str(out)]) == 0
    text = out.read_text("utf-8")
    index = yaml.safe_load((ROOT / "definitions" / "footprints" / "rules.yaml").read_text("utf-8"))["clauses"]
    shown = re.findall(r"^### ([a-z0-9][a-z0-9_.-]*)", text, flags=re.M)
    assert shown == [c["id"] for c in index]                      # every clause, in the index's order
    assert "…" not in text
    section = text[text.index("### discard-hand-limit"):]
    section = section[:section.index("\n### ")]
    # the step that carries it in full, the quantity and parameter it reads, its scenario
    assert "while size(zone(\"fire-hand\", p)) > fire_hand_limit(p) {" in section
    assert "quantity `fire_hand_limit`" in section and "parameter `fire_hand_limit`" in section
    assert "tested by: the played fire card is discarded and the hand kept to 3" in section
    from interpreter.diff import load_spec
    spec = load_spec(ROOT / "definitions" / "footprints", [])
    for section_name, what in (("functions", "function"), ("quantities", "quantity")):
        for name, (item, _src) in spec.sections[section_name].items():
            if item.get("rule"):
                assert f"{what} `{name}`" in text, name


def test_rules_by_clause_html_links_code_and_clauses(tmp_path):
    import re
    out = tmp_path / "fp.html"
    assert main(["rules", "footprints", "--by", "clause", "--format", "html", "-o", str(out)]) == 0
    page = out.read_text("utf-8")
    anchors = set(re.findall(r'id="clause-([^"]+)"', page))
    links = set(re.findall(r'href="#clause-([^"]+)"', page))
    assert "discard-hand-limit" in anchors and links <= anchors       # every link lands on a clause
    enc = page[page.index("<b>step discard-fire</b>"):]
    enc = enc[:enc.index("</div>")]
    assert 'href="#clause-discard-played-fire"' in enc and 'href="#clause-discard-hand-limit"' in enc


@pytest.mark.needs("chromium")
def test_rules_page_is_by_clause_in_the_rulebooks_order(tmp_path, monkeypatch):
    """`cairn rules footprints --format html`: the clauses in the order of the rulebook's
    lines (anchors/footprints.en.yaml), every procedure, function and quantity of the game in
    full (what no clause carries closes the page), nothing cut with an ellipsis."""
    import yaml
    from playwright.sync_api import sync_playwright
    from interpreter.anchors import parse_lines
    out = tmp_path / "footprints.html"
    assert main(["rules", "footprints", "--format", "html", "-o", str(out)]) == 0
    text = out.read_text("utf-8")
    game = yaml.safe_load((ROOT / "definitions" / "footprints" / "game.yaml").read_text("utf-8"))
    names = [n for part in ("procedures", "functions", "quantities") for n in game.get(part) or {}]
    assert len(names) > 50 and [n for n in names if n not in text] == []
    assert "\u2026" not in text and "Not tied to a clause" in text
    anchors = yaml.safe_load((ROOT / "definitions" / "footprints" / "anchors" / "footprints.en.yaml").read_text("utf-8"))
    first = {cid: parse_lines(a["lines"])[0][0] for cid, a in anchors["clauses"].items()}
    with sync_playwright() as p:
        browser = W.launch(p)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(out.as_uri())
        ids = [i.removeprefix("clause-") for i in page.eval_on_selector_all(
            "[id^='clause-']", "els => els.map(e => e.id)")]
        shot = ROOT / "tests" / "screenshots"
        shot.mkdir(exist_ok=True)
        page.screenshot(path=str(shot / "rules-footprints-by-clause.png"))
        browser.close()
    lines = [first[i] for i in ids if i in first]
    assert len(lines) == len(first) == 147 and lines == sorted(lines)
