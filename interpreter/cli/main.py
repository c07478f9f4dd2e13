"""The `cairn` command: list, validate, anchors, manifest, lint, diff, scenarios, migrate, new-expansion, play, resume, simulate, balance, sweep, replay, draw, serve.

Results go to stdout, progress and diagnostics to stderr; `--json` prints one JSON
document and nothing else. Exit status: 0 ok, 1 failure (invalid definitions, a failing
scenario, a record that does not replay), 2 usage error, 130 interrupted. No command
ever ends in a traceback: a closed pipe ends quietly, anything unexpected is one line.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys

from importlib import import_module
from typing import Any, Callable, Sequence

from ..diagnostics import DefinitionError, bounded, short_lines
from .common import UsageError

__all__ = ["cli", "main", "parser", "UsageError", "validate_targets"]


def __getattr__(name: str) -> Any:
    if name == "validate_targets":      # kept importable from here, loaded when asked for
        from .inspect_cmds import validate_targets
        return validate_targets
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _command(module: str, name: str, bounded: bool = False) -> Callable[[argparse.Namespace], int]:
    """Returns a command that imports its module only when it runs: `cairn validate` then
    never imports the bots, the drawing code, the web server or the terminal screens.
    `bounded`: it does a fixed amount of work (builds a few games, plays none), so a
    process that runs only it may skip cycle collection (see cli)."""
    def run(args: argparse.Namespace) -> int:
        return getattr(import_module(f"{__package__}.{module}"), name)(args)
    run.__name__ = run.__qualname__ = name
    run.bounded = bounded
    return run


def _version() -> str:
    # importlib.metadata (and the email package it imports) costs a tenth of a
    # `cairn validate`, so it is read only when --version is asked for
    try:
        from importlib.metadata import version
        return version("cairn")
    except Exception:  # not installed (run from a source tree)
        return "source"


class _Version(argparse.Action):
    """--version, which reads the installed version only when given."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the version and exit", **kw)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        print(f"cairn {_version()}")
        parser.exit()


def _sub(sub, name: str, summary: str, examples: list[str], func) -> argparse.ArgumentParser:
    epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples)
    # argparse %-formats help texts ("95% intervals" would break --help), not descriptions.
    p = sub.add_parser(name, help=summary.replace("%", "%%"), description=summary, epilog=epilog,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(func=func)
    return p


def _variant(p: argparse.ArgumentParser, side: str = "") -> None:
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help=f"apply a variant or expansion{side}: its id, an overlay file, or an expansion "
                        "folder holding overlay.yaml (repeatable), e.g. --variant my-variant")


def _store(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", metavar="FILE", help="also append every game to this DuckDB file, to compare runs "
                   "with SQL or `cairn results FILE` (pip install 'cairn[results]'), e.g. --store results.duckdb")


def _rulebook(p: argparse.ArgumentParser, does: str = "") -> None:
    p.add_argument("--rulebook", action="append", default=[], metavar="FILE",
                   help=f"a rulebook text file the game's anchors point into{does} (repeatable; default: "
                        "$CAIRN_RULEBOOKS/<the name its anchors file gives>), e.g. --rulebook ~/rulebooks/my-game.en.txt")


def _json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON document instead of text")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="cairn", description="Cairn: tabletop rules as data.",
                                 epilog="run `cairn COMMAND --help` for a command's options and examples")
    ap.add_argument("--version", action=_Version)
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    _inspect_commands(sub)
    _play_commands(sub)
    _view_commands(sub)
    return ap


def _inspect_commands(sub) -> None:
    """Commands that read definitions: list, validate, manifest, lint, diff, coverage, rules, scenarios."""
    p = _sub(sub, "list", "the games and their variants", ["cairn list", "cairn list --json"], _command("inspect_cmds", "cmd_list", bounded=True))
    _json(p)

    p = _sub(sub, "validate", "check definitions; each problem as file:line:col: message",
             ["cairn validate definitions/my-game", "cairn validate my-game --variant my-variant --json"], _command("inspect_cmds", "cmd_validate", bounded=True))
    p.add_argument("targets", nargs="+", metavar="GAME_OR_PATH", help="game ids or folders, e.g. my-game")
    _variant(p)
    _rulebook(p, " and check every anchor's digest against it")
    _json(p)

    p = _sub(sub, "anchors", "how much of each rulebook text file the anchors account for: lines by clause and "
             "mark, unaccounted lines, clauses with no anchor, digests that do not match (exit 1 if any)",
             ["cairn anchors my-game --rulebook ~/rulebooks/my-game.en.txt", "CAIRN_RULEBOOKS=~/rulebooks cairn anchors my-game --json",
              "cairn anchors my-game --fix-digests"], _command("anchors_cmd", "cmd_anchors", bounded=True))
    p.add_argument("game", metavar="GAME_OR_PATH", help="a game id or folder with anchors/*.yaml")
    _rulebook(p)
    _variant(p, " (its clauses join the index the anchors name)")
    p.add_argument("--fix-digests", action="store_true",
                   help="rewrite the digests that do not match their lines in the anchors files (only those values; "
                        "comments and layout kept); check each anchor's lines first")
    _json(p)

    p = _sub(sub, "manifest", "the encoded box inventory and its abilities",
             ["cairn manifest my-game", "cairn manifest my-game --by type --json"], _command("inspect_cmds", "cmd_manifest", bounded=True))
    p.add_argument("game", metavar="GAME_OR_PATH", help="a game id or folder, e.g. my-game")
    _variant(p)
    p.add_argument("--players", type=int, metavar="N", help="also set up a game of N players, e.g. --players 3")
    p.add_argument("--by", metavar="PROP", help="count each kind by a property too, e.g. --by type")
    _json(p)

    p = _sub(sub, "lint", "find base rules that branch on an object's id or on power names; advise "
             "which functions compute a rule number a card could change but are not quantities",
             ["cairn lint my-game", "cairn lint my-game --variant my-variant --json", "cairn lint my-game --strict"],
             _command("inspect_cmds", "cmd_lint", bounded=True))
    p.add_argument("targets", nargs="+", metavar="GAME_OR_PATH", help="game ids or folders")
    p.add_argument("--strict", action="store_true",
                   help="fail (exit 1) on the quantity advice too, not only on dispatch by id or power name")
    _variant(p)
    _json(p)

    p = _sub(sub, "diff", "what a variant, expansion or edited copy changes, rule by rule (exit 1 if anything)",
             ["cairn diff my-game --variant my-expansion", "cairn diff my-game ./my-copy --json"], _command("inspect_cmds", "cmd_diff", bounded=True))
    p.add_argument("game", metavar="GAME_OR_PATH", help="the game to compare from")
    p.add_argument("other", nargs="?", metavar="OTHER", help="a second game or folder to compare with")
    _variant(p, " to the right side")
    p.add_argument("--base-variant", action="append", default=[], metavar="V",
                   help="apply a variant to the left side too, e.g. --base-variant my-variant")
    _json(p)

    p = _sub(sub, "coverage", "which rule carries each clause of the rulebook, which scenario tests it, how often random play reaches it",
             ["cairn coverage my-game --games 20", "cairn coverage my-game --json --fail-under 100 --html cov.html"],
             _command("inspect_cmds", "cmd_coverage"))
    p.add_argument("game", metavar="GAME_OR_PATH", help="a game id or folder with a rules.yaml")
    _variant(p)
    p.add_argument("--games", type=int, default=20, metavar="N", help="seeded random games to run (default 20; 0: none)")
    p.add_argument("--players", type=int, metavar="N", help="players in those games (default 3, or the nearest allowed)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the master seed of those games (default 0)")
    p.add_argument("--fail-under", type=float, metavar="P", help="exit 1 when fewer than P%% of the clauses are encoded and tested by scenarios that pass now")
    p.add_argument("--html", metavar="FILE", help="also write a one-page HTML report here")
    _rulebook(p)
    _json(p)

    p = _sub(sub, "mutate", "change the rules one small mistake at a time and see whether a scenario fails",
             ["cairn mutate my-game", "cairn mutate my-game --clause my-clause --json",
              "cairn mutate my-game --limit 300 --jobs 2", "cairn mutate my-game --params-only"],
             _command("inspect_cmds", "cmd_mutate"))
    p.add_argument("game", metavar="GAME_OR_PATH", help="a game id or folder with scenarios")
    p.add_argument("--clause", metavar="ID", help="only the rules citing this clause")
    _variant(p, " (its overlay's rules are mutated too; the seeded games play it)")
    p.add_argument("--limit", type=int, metavar="N", help="at most N mutants, chosen by a seeded shuffle (default: all)")
    p.add_argument("--per-clause", type=int, metavar="N", help="at most N mutants carrying each clause (seeded shuffle)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the shuffle and of the games (default 0)")
    p.add_argument("--games", type=int, default=20, metavar="N",
                   help="seeded random games that tell a survivor playing like the original (default 20; 0: none)")
    p.add_argument("--players", type=int, metavar="N", help="players in those games (default 3, or the nearest allowed)")
    p.add_argument("--params-only", action="store_true", help="only the parameters (one more, one less, flipped)")
    p.add_argument("--jobs", type=int, default=2, metavar="N", help="mutants run at once, each in its own process (default 2)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the mutants on dask: tcp://HOST:8786 (its workers must see the game folder at the "
                        "same path), or 'local' for a local dask cluster of --jobs processes")
    _json(p)

    p = _sub(sub, "rules", "the rules rendered from the data, to read beside the rulebook",
             ["cairn rules my-game > rules.md", "cairn rules my-game --variant my-variant --format html -o rules.html",
              "cairn rules my-game --by kind --format html -o by-kind.html",
              "cairn rules my-game --by clause --format html --side-by-side --rulebook my-game.en.txt -o side.html"],
             _command("inspect_cmds", "cmd_rules", bounded=True))
    p.add_argument("game", metavar="GAME_OR_PATH", help="a game id or folder")
    _variant(p)
    p.add_argument("--format", choices=["md", "html"], default="md", help="Markdown (default) or one HTML page")
    p.add_argument("-o", "--output", metavar="FILE", help="write to this file instead of stdout")
    p.add_argument("--by", choices=["kind", "clause"], default=None,
                   help="clause (the default where the game has a clause index): each clause in the rulebook's "
                        "order with everything that encodes it and its scenarios, then what no clause carries; "
                        "kind: box, parameters, structure, procedures, cards")
    _rulebook(p, ": --by clause shows each clause's lines and orders the clauses by them")
    p.add_argument("--side-by-side", action="store_true",
                   help="with --by clause --format html: the rulebook's lines on the left, the encoding on the right")

    p = _sub(sub, "scenarios", "run rule scenarios (a game's scenarios/*.yaml, or some of its files), with their clause ids",
             ["cairn scenarios my-game", "cairn scenarios my-game setup.yaml -k hunt --junit out.xml",
              "cairn scenarios my-expansion/scenarios.yaml -v"], _command("inspect_cmds", "cmd_scenarios"))
    p.add_argument("targets", nargs="+", metavar="GAME_OR_FILE",
                   help="a game id or folder, then optionally some of its scenario files; or scenario files")
    _variant(p, " (its scenarios run too, with the game's that apply)")
    p.add_argument("-k", metavar="PATTERN", help="only scenarios whose name or clause ids match this regular expression")
    p.add_argument("-v", "--verbose", action="store_true", help="list passing scenarios too")
    p.add_argument("--junit", metavar="FILE", help="also write the results as JUnit XML (for CI)")
    _json(p)

    p = _sub(sub, "migrate", "rewrite a game folder (or an overlay file) written in an older definition format "
             "into the current one, keeping comments and layout",
             ["cairn migrate ./my-old-game --check", "cairn migrate ./my-old-game --dry-run", "cairn migrate ./my-old-game"],
             _command("migrate_cmd", "cmd_migrate", bounded=True))
    p.add_argument("target", metavar="DIR", help="a game folder (or one overlay file), e.g. ./my-old-game")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if the folder needs migrating")
    p.add_argument("--dry-run", action="store_true", help="print what would change (a diff), write nothing")
    _json(p)


    p = _sub(sub, "new-expansion", "write the skeleton of an expansion folder (overlay.yaml, scenarios/, NOTES.md) "
             "that validates with the game", ["cairn new-expansion my-game ./my-expansion"],
             _command("new_expansion_cmd", "cmd_new_expansion", bounded=True))
    p.add_argument("game", metavar="GAME_OR_PATH", help="the game it expands, e.g. my-game")
    p.add_argument("dir", metavar="DIR", help="the folder to write (new, or empty); its name gives the expansion's id")
    _json(p)


def _play_commands(sub) -> None:
    """Commands that play games: play, resume, simulate, balance, sweep, replay."""
    p = _sub(sub, "play", "play in the terminal; bots fill the other seats",
             ["cairn play my-game --players 3", "cairn play my-game --seats random,random --seed 4 --record g.json"],
             _command("play_cmds", "cmd_play"))
    p.add_argument("game", metavar="GAME_OR_PATH", help="a game id or folder")
    p.add_argument("--players", type=int, metavar="N", help="number of players (default: as many as --seats)")
    p.add_argument("--seats", metavar="LIST", help="who plays each seat: human, random, first, greedy or mcts:N, "
                   "comma separated (default human,random,...), e.g. --seats human,random")
    _variant(p)
    p.add_argument("--seed", type=int, metavar="S", help="the game's seed (default: a random one, printed)")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON) here, e.g. --record game.json")
    p.add_argument("--save", metavar="FILE", help="keep the game saved here at every decision of yours (and on q or "
                   "Ctrl-C); cairn resume FILE continues it, e.g. --save game.save.json")

    p = _sub(sub, "resume", "continue a game saved by cairn play --save (same game, same seats)",
             ["cairn resume game.save.json", "cairn resume game.save.json --record game.json"], _command("play_cmds", "cmd_resume"))
    p.add_argument("file", metavar="FILE", help="the save file (it is kept up to date as you play on)")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON) here at the end")

    p = _sub(sub, "simulate", "many bot games: statistics and a digest that only depends on the seed",
             ["cairn simulate my-game --games 50", "cairn simulate my-game --players 4 --games 200 --workers 2 --json",
              "cairn simulate my-game --games 2000 --scheduler tcp://HOST:8786"],
             _command("play_cmds", "cmd_simulate"))
    p.add_argument("game", metavar="GAME_OR_PATH", help="a game id or folder")
    p.add_argument("--players", type=int, metavar="N",
                   help="players a game (default: one per bot of --seats, else the fewest allowed)")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the master seed (default 0)")
    _variant(p)
    p.add_argument("--agents", "--seats", dest="agents", metavar="LIST",
                   help="a bot per seat, comma separated, or one bot for every seat (default random): random, "
                        "first, greedy, mcts:N (N playouts a move; options :depth=D:c=C), e.g. --seats mcts:200,random")
    p.add_argument("--rotate", action="store_true",
                   help="turn the seats game by game, so each seat position gets each bot equally")
    p.add_argument("--workers", type=int, default=1, metavar="K",
                   help="processes to play in; same results for any number (default 1)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="play on dask: tcp://HOST:8786 for a running scheduler (docs/SCALE.md), "
                        "or 'local' for a local dask cluster of --workers processes; same results")
    p.add_argument("--records", metavar="FILE", help="write every game record here, one JSON object a line")
    _store(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    _json(p)

    p = _sub(sub, "balance", "bot games with seats rotated: win rates by seat and bot with 95% intervals, "
             "scores, game lengths, per-object statistics; a variant against the base",
             ["cairn balance my-game --games 200", "cairn balance my-game --seats mcts:100,random --games 40 --json",
              "cairn balance my-game --compare my-expansion --games 200 --html report/"], _command("balance_cmd", "cmd_balance"))
    p.add_argument("game", metavar="GAME_OR_PATH", help="a game id or folder")
    p.add_argument("--players", type=int, metavar="N",
                   help="players a game (default: one per bot of --seats, else 2 or the nearest the game allows)")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the master seed (default 0)")
    _variant(p)
    p.add_argument("--compare", action="append", default=[], metavar="V",
                   help="also play with this variant or expansion added and report what it shifts (repeatable)")
    p.add_argument("--seats", metavar="LIST",
                   help="a bot per seat, comma separated, or one bot for every seat, rotated game by game (default greedy), "
                        "e.g. --seats mcts:100,greedy,random")
    p.add_argument("--workers", type=int, default=1, metavar="K", help="processes to play in (default 1)")
    p.add_argument("--scheduler", metavar="ADDR", help="hand the games to a dask scheduler at this address")
    p.add_argument("--html", metavar="DIR", help="also write index.html and its PNG plots into this folder "
                   "(needs matplotlib: pip install 'cairn[balance]')")
    p.add_argument("--cards", metavar="LIST", help="restricted play on these cards or named powers only, comma "
                   "separated ids (a power: its key, e.g. ranknok#0); default: the --top most played, and with "
                   "--compare every card and power the variant adds")
    p.add_argument("--top", type=int, default=5, metavar="N",
                   help="restricted play on the N cards or powers chosen most often in the base games (default 5; 0: none)")
    p.add_argument("--restrict", choices=["never", "always"], default="never",
                   help="the restricted seat never chooses an option naming the card (default), or always does when it can")
    p.add_argument("--card-games", type=int, metavar="K", help="games of restricted play per card (default: --games)")
    _store(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    _json(p)

    p = _sub(sub, "sweep", "one parameter over a range of values: win rates by seat and bot and game length per value",
             ["cairn sweep my-game --param hand_size=4..6 --games 100",
              "cairn sweep my-game --param hand_size=4..6 --variant my-expansion --seats greedy,random --json",
              "cairn sweep my-game --param double_factor=1,2,3 --scheduler tcp://HOST:8786 --store results.duckdb"],
             _command("sweep_cmd", "cmd_sweep"))
    p.add_argument("game", metavar="GAME_OR_PATH", help="a game id or folder")
    p.add_argument("--param", required=True, metavar="NAME=VALUES",
                   help="the parameter and its values: LO..HI (whole numbers) or a comma list, e.g. hand_size=4..6")
    _variant(p)
    p.add_argument("--players", type=int, metavar="N",
                   help="players a game (default: one per bot of --seats, else 2 or the nearest the game allows)")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games per value (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the master seed (default 0): the same deals for every value")
    p.add_argument("--seats", metavar="LIST", help="a bot per seat or one for all, rotated game by game (default greedy)")
    p.add_argument("--workers", type=int, default=1, metavar="K", help="processes to play in (default 1)")
    p.add_argument("--scheduler", metavar="ADDR", help="play on dask: tcp://HOST:8786, or 'local' (docs/SCALE.md)")
    _store(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    _json(p)

    p = _sub(sub, "results", "what the runs stored in a results file (--store) played and who won",
             ["cairn results results.duckdb", "cairn results results.duckdb --json"], _command("results_cmd", "cmd_results"))
    p.add_argument("file", metavar="FILE", help="a DuckDB file written by simulate or balance --store")
    _json(p)

    p = _sub(sub, "replay", "re-run game records and check they end the same (exit 1 if not)",
             ["cairn replay game.json", "cairn replay games.jsonl --game ./my-copy"], _command("play_cmds", "cmd_replay"))
    p.add_argument("record", metavar="FILE", help="a record, or a file of records one a line")
    p.add_argument("--game", metavar="PATH", help="the definitions to replay against (default: those the record names)")


def _view_commands(sub) -> None:
    """Commands that show a game to a person: draw, serve."""
    p = _sub(sub, "draw", "a picture of a game's state as one seat may see it: SVG, or PNG",
             ["cairn draw my-game --players 3 -o board.svg", "cairn draw my-game --record g.json --step 12 --seat 2 -o g.png"],
             _command("draw_cmd", "cmd_draw"))
    p.add_argument("game", metavar="GAME_OR_PATH", help="a game id or folder, e.g. my-game")
    _variant(p)
    p.add_argument("--players", type=int, metavar="N", help="players in a new game (default the fewest allowed), e.g. --players 3")
    p.add_argument("--seed", type=int, metavar="S", help="draw a new game with this seed at its first decision (default 0), e.g. --seed 4")
    p.add_argument("--record", metavar="R", help="draw a state of this game record instead, e.g. --record game.json")
    p.add_argument("--step", type=int, metavar="K", help="with --record: after its first K choices (default all), e.g. --step 12")
    p.add_argument("--seat", type=int, metavar="P", help="draw what player P sees, counting from 1 (default: a spectator, "
                   "who sees only what is public), e.g. --seat 1")
    p.add_argument("--scale", type=float, default=1.0, metavar="X", help="PNG only: pixels per SVG unit (default 1), e.g. --scale 2")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the picture: FILE.svg or FILE.png, e.g. -o board.svg")
    _json(p)

    p = _sub(sub, "serve", "the web player and replay viewer: play against bots by clicking, step through records",
             ["cairn serve", "cairn serve my-game --port 8000", "cairn serve --records games.jsonl"], _command("serve_cmd", "cmd_serve"))
    p.add_argument("game", nargs="?", metavar="GAME_OR_PATH",
                   help="the game the page starts with (a folder is offered beside the built-in games), e.g. my-game")
    _variant(p, " too, offered in the page's form beside the game's own variants")
    p.add_argument("--port", type=int, metavar="N", help="the port (default 8765, or a free one when it is taken; "
                   "0: a free one), e.g. --port 8000")
    p.add_argument("--host", default="127.0.0.1", metavar="H",
                   help="the address to listen on (default 127.0.0.1: this machine only), e.g. --host 0.0.0.0")
    p.add_argument("--records", metavar="FILE", help="records to offer on the replay page (cairn play --record or "
                   "simulate --records writes them), e.g. --records games.jsonl")
    p.add_argument("--verbose", action="store_true", help="log every request")
    p.add_argument("--json", action="store_true",
                   help='print the address as one JSON line, {"url": ...}, for a script that starts the server')


def cli() -> int:
    """The `cairn` command as a process of its own (the script, `python -m interpreter`).
    A command of bounded work runs with the cycle collector off and leaves what it made
    frozen (not walked again), since the process ends with it: the collections of a short
    process, the one at its exit included, were a third of a `cairn validate`."""
    return main(whole_process=True)


def main(argv: Sequence[str] | None = None, whole_process: bool = False) -> int:
    args = parser().parse_args(argv)
    if whole_process and getattr(args.func, "bounded", False):
        gc.disable()
        try:
            return _dispatch(args)
        finally:
            gc.freeze()
    return _dispatch(args)


def _dispatch(args: argparse.Namespace) -> int:
    """Runs a parsed command; a failure is a message and an exit status, not a traceback."""
    try:
        return args.func(args)
    except UsageError as err:
        print(f"cairn: {short_lines(str(err))}", file=sys.stderr)
        return 2
    except DefinitionError as err:
        for d in bounded(err.diagnostics):
            print(d, file=sys.stderr)
        return 1
    except ValueError as err:
        print(f"cairn: {short_lines(str(err))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cairn: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`cairn ... | head`): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (MemoryError, RecursionError, OSError) as err:
        print(f"cairn: {type(err).__name__}: {short_lines(str(err))}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(cli())
