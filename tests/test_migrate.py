"""Content that lasts: a game written in format 1 (the whole game one `flow:` program, as
docs/FORMAT.md of commit 4d21bf7 taught) still loads, with one deprecation warning per
file, and `cairn migrate` rewrites it into the current format, keeping its comments,
so that it validates and plays the same games as the shipped definitions/tic-tac-toe.
The game is kept in tests/fixtures/old-format/tic-tac-toe (never update it)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter.batch import simulate
from interpreter.cli.main import main
from interpreter.load import formats
from interpreter.records import digest

ROOT = Path(__file__).resolve().parents[1]
OLD = ROOT / "tests" / "fixtures" / "old-format" / "tic-tac-toe"
SHIPPED = ROOT / "definitions" / "tic-tac-toe"
IDENTITY = ("definitions_sha256", "definitions_path")     # which files were played: differs by construction
# The digest Cairn itself printed at commit 4d21bf7 (whose records named no definitions) for
# this fixture: `git archive 4d21bf7 | tar -x -C OLD && cd OLD && python3 -m interpreter
# simulate REPO/tests/fixtures/old-format/tic-tac-toe --games 200 --seed 1 --json`.
PLAYED_AT_4D21BF7 = "316fdd5a17ee14c79ec77b351c802723d5b39d663ed8317518ee1352e1bb3cdb"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


@pytest.fixture
def old(tmp_path) -> Path:
    """A copy of the format-1 tic-tac-toe, to migrate."""
    return Path(shutil.copytree(OLD, tmp_path / "tic-tac-toe"))


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if ": warning: " in line]


def test_the_fixture_is_format_1():
    text = (OLD / "game.yaml").read_text("utf-8")
    assert re.search(r"^flow: \|$", text, re.M) and "structure:" not in text and "format:" not in text


def test_an_old_game_validates_with_one_warning_per_file(capsys):
    rc, out, err = run(capsys, "validate", OLD)
    assert rc == 0, out + err
    game, variant = warnings(err)
    assert game.split(":")[0].endswith("old-format/tic-tac-toe/game.yaml")
    assert "'flow'" in game and "`structure:`" in game and "cairn migrate" in game
    assert "variants/o-first.yaml:4:3: warning: format 1 key 'replace.flow'" in variant
    assert out == ""            # no problems: warnings go to stderr


def test_a_command_that_plays_an_old_game_warns_too(capsys):
    import json
    rc, out, err = run(capsys, "simulate", OLD, "--games", "2", "--json", "--quiet")
    assert rc == 0 and json.loads(out)["finished"] == 2
    assert len(warnings(err)) == 2


def test_an_overlay_kept_apart_migrates_by_itself(capsys, old, tmp_path):
    overlay = tmp_path / "o-second.yaml"
    overlay.write_text((OLD / "variants" / "o-first.yaml").read_text("utf-8").replace("id: o-first", "id: o-second"))
    assert run(capsys, "migrate", old)[0] == 0          # the game itself, current now
    rc, _, err = run(capsys, "validate", old, "--variant", overlay)
    [warning] = warnings(err)
    assert rc == 0 and warning.startswith(f"{overlay}:4:3: warning:") and f"`cairn migrate {overlay}`" in warning
    assert run(capsys, "migrate", overlay)[0] == 0
    rc, _, err = run(capsys, "validate", old, "--variant", overlay)
    assert rc == 0 and not warnings(err)
    assert "variant: {format: 2, id: o-second" in overlay.read_text("utf-8")


def test_migrate_check_then_migrate_then_nothing_to_do(capsys, old):
    rc, out, _ = run(capsys, "migrate", old, "--check")
    assert rc == 1 and "game.yaml" in out and "o-first.yaml" in out
    rc, out, err = run(capsys, "migrate", old)
    assert rc == 0, err
    assert re.search(r"game\.yaml:\d+:1: `flow:` -> `structure:`", out)
    assert "o-first.yaml:4:3: `replace.flow:` -> `replace.structure:`" in out
    assert run(capsys, "migrate", old, "--check")[0] == 0
    texts = {p: p.read_bytes() for p in old.rglob("*.yaml")}
    rc, out, _ = run(capsys, "migrate", old)        # idempotent: a second run changes nothing
    assert rc == 0 and "nothing to migrate" in out
    assert {p: p.read_bytes() for p in old.rglob("*.yaml")} == texts


def test_the_migrated_folder_validates_without_warnings_and_keeps_its_comments(capsys, old):
    assert run(capsys, "migrate", old)[0] == 0
    rc, out, err = run(capsys, "validate", old)
    assert rc == 0 and out == "" and not warnings(err), err
    before, after = (OLD / "game.yaml").read_text("utf-8"), (old / "game.yaml").read_text("utf-8")
    assert "\nflow:" not in after and "\nstructure:\n  - step: play\n    do: |\n" in after
    assert "\n  format: 2\n" in after
    comments = [line.strip() for line in before.splitlines() if line.strip().startswith("#")]
    assert comments and all(c in after for c in comments)
    # the program itself is unchanged, only moved in
    program = before.split("flow: |\n", 1)[1].split("\n\n", 1)[0]
    assert "\n".join("    " + line for line in program.splitlines()) in after
    assert (old / "components.yaml").read_bytes() == (OLD / "components.yaml").read_bytes()
    rc, out, _ = run(capsys, "diff", OLD, old)           # rule by rule, the same game
    assert rc == 0 and "no rule differs" in out


def test_the_migrated_game_plays_the_shipped_games(old, capsys):
    """200 seeded random games each: the format-1 folder (read in memory), the migrated
    folder and the shipped tic-tac-toe make the same records, choice by choice, down to
    the final state's hash, and the same games Cairn played from the fixture at 4d21bf7.
    The records now also name the definitions they were played by (their files' SHA-256,
    and the path of a folder outside definitions/), which differ by construction, so the
    digest is taken without those two fields: that is the digest 4d21bf7 printed."""
    assert run(capsys, "migrate", old)[0] == 0

    def records(folder: Path, variants: tuple = ()) -> list[dict]:
        return simulate(str(folder), variants, 2, 200, 1, ["random"])

    def played(rs: list[dict]) -> str:
        return digest([{k: v for k, v in r.items() if k not in IDENTITY} for r in rs])
    shipped, before, after = records(SHIPPED), records(OLD), records(old)
    assert played(before) == played(after) == played(shipped) == PLAYED_AT_4D21BF7
    assert len({r["final_state_sha256"] for r in after}) > 20        # 200 games, not one game repeated
    assert digest(after) != digest(shipped)          # only the definitions' identity differs:
    assert all({k for k in a if a[k] != b.get(k)} <= set(IDENTITY) for a, b in zip(after, shipped))
    assert played(records(OLD, ("o-first",))) == played(records(old, ("o-first",))) != played(after)


def test_dry_run_prints_the_diff_and_writes_nothing(capsys, old):
    texts = {p: p.read_bytes() for p in old.rglob("*") if p.is_file()}
    rc, out, err = run(capsys, "migrate", old, "--dry-run")
    assert rc == 0 and "would migrate 2 file(s)" in err
    assert "-flow: |\n" in out and "+structure:\n" in out and "+  format: 2\n" in out
    assert {p: p.read_bytes() for p in old.rglob("*") if p.is_file()} == texts


def test_json_summary(capsys, old):
    import json
    rc, out, _ = run(capsys, "migrate", old, "--check", "--json")
    doc = json.loads(out)
    assert rc == 1 and doc["needed"] and not doc["written"] and doc["format"] == formats.CURRENT
    assert [f["file"].rsplit("/", 1)[-1] for f in doc["files"] if f["needed"]] == ["game.yaml", "o-first.yaml"]


def test_a_problem_in_an_old_file_is_reported_where_it_was_written(capsys, old):
    path = old / "game.yaml"
    text = path.read_text("utf-8").replace("      count_turn(p)\n", "      count_trun(p)\n")
    path.write_text(text, "utf-8")
    line = text.splitlines().index("      count_trun(p)") + 1
    rc, out, _ = run(capsys, "validate", old)
    assert rc == 1
    assert f"game.yaml:{line}:7: unknown function 'count_trun'" in out


REFUSED = [
    ("variant: {id: v, name: V, description: d, format: 9}\n", "1:51: format 9 is newer than this Cairn reads"),
    ("variant: {id: v, name: V, description: d, format: 2}\nreplace:\n  flow: mark(0)\n",
     "3:3: 'replace.flow' is a key of format 1, but this file states format: 2"),
    ("variant: {id: v, name: V, description: d}\nreplace:\n  flow: mark(0)\n  structure: [{step: s}]\n",
     "3:3: both 'replace.flow' (format 1) and 'replace.structure' (format 2)"),
]


@pytest.mark.parametrize("text,message", REFUSED)
def test_an_overlay_no_format_reads_is_one_clear_error(capsys, old, text, message):
    (old / "variants" / "v.yaml").write_text(text, "utf-8")
    rc, out, _ = run(capsys, "validate", old)
    assert rc == 1
    [line] = [line for line in out.splitlines() if "v.yaml" in line]      # one error, not a schema cascade
    assert line.startswith(f"{old / 'variants' / 'v.yaml'}:{message}")


def test_other_ways_of_writing_an_old_key_migrate(capsys, old):
    """A flow-style overlay, a quoted key, a block with an indentation indicator, Windows
    line ends: each rewritten, the text read back checked against the old file's."""
    (old / "variants" / "o-first.yaml").write_text(
        'variant: {id: o-first, name: O first, description: "O first"}\n'
        'replace: {box: {mark: 10}, flow: "for t in objects(\\"mark\\") { move(t, zone(\\"supply\\", t.side)) }\n'
        '  while true { for p in [1, 0] { count_turn(p)\n  mark(p) } }"}\n', "utf-8")
    (old / "variants" / "q.yaml").write_text('variant: {id: q, name: Q, description: d}\nreplace:\n  "flow": mark(0)\n')
    game = old / "game.yaml"
    game.write_bytes(game.read_bytes().replace(b"flow: |\n", b"flow: |2   # the program\n").replace(b"\n", b"\r\n"))
    assert run(capsys, "migrate", old)[0] == 0
    assert b"\r\n    do: |2   # the program\r\n" in game.read_bytes() and b"\n\n" not in game.read_bytes()
    assert "structure: [{step: play, do: " in (old / "variants" / "o-first.yaml").read_text("utf-8")
    assert "  structure:\n    - step: play\n      do: mark(0)\n" in (old / "variants" / "q.yaml").read_text("utf-8")
    rc, out, err = run(capsys, "validate", old)
    assert rc == 0 and not warnings(err), out + err


def test_what_cannot_be_rewritten_is_said_where_and_nothing_is_written(capsys, old):
    bad = old / "variants" / "bad.yaml"
    text = "variant: {id: bad, name: B, description: d}\nreplace: {flow: mark(0)\n  mark(1)}\n"
    bad.write_text(text, "utf-8")
    rc, out, err = run(capsys, "migrate", old)
    assert rc == 1
    assert f"{bad}:2:11: cannot rewrite this file mechanically" in err
    assert "nothing written: 1 thing(s) to change by hand" in err
    assert bad.read_text("utf-8") == text
    assert (old / "game.yaml").read_bytes() == (OLD / "game.yaml").read_bytes()    # no folder half migrated
    assert run(capsys, "migrate", old, "--check")[0] == 1
    bad.write_text(text.replace("{flow: mark(0)\n  mark(1)}", "{flow: mark(0)}"), "utf-8")   # fixed by hand
    assert run(capsys, "migrate", old)[0] == 0
    assert "structure: [{step: play, do: mark(0)}]" in bad.read_text("utf-8")


def test_files_format_1_did_not_read_stay_unread(capsys, old):
    """Format 1 loaded only game, components, cards and board files ("other files are not
    loaded"); format 2 also reads rules.yaml, terminal.yaml and *-differences.yaml. A
    format-1 game is read without them, and migrate renames one that is not such a file."""
    notes = "# my notes on the rules\nthree in a row: wins\n"
    (old / "rules.yaml").write_text(notes, "utf-8")
    rc, out, err = run(capsys, "validate", old)
    assert rc == 0, out
    assert "without rules.yaml, which format 1 did not read" in warnings(err)[0]
    rc, out, _ = run(capsys, "migrate", old)
    assert rc == 0 and "rules.yaml: renamed to rules.notes.yaml" in out
    assert (old / "rules.notes.yaml").read_text("utf-8") == notes and not (old / "rules.yaml").exists()
    assert run(capsys, "validate", old)[0] == 0


def test_a_trigger_on_a_step_event_is_noted(capsys, old):
    game = old / "game.yaml"
    game.write_text(game.read_text("utf-8").replace(
        "\nscoring:", "\ntriggers:\n  - {on: step_end, do: 'log(\"done\")'}\n\nscoring:"), "utf-8")
    rc, out, _ = run(capsys, "migrate", old, "--dry-run")
    assert rc == 0 and re.search(r"game\.yaml:\d+:10: check by hand: format 2 announces 'step_end' itself", out)


def test_one_table_of_formats():
    assert formats.CURRENT == max(formats.FORMATS) and min(formats.FORMATS) == 1
    assert all(r.last < formats.CURRENT for r in formats.REWRITES)
