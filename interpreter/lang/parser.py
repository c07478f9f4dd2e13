"""Parses effect-language text with the Lark grammar, once, into syntax trees.

The LALR parser is built once per process; errors come back as values carrying the
line and column inside the effect text, the offending line with a caret, and what the
parser expected, so the loader can shift them to the YAML file's own coordinates.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Iterator

from lark import Lark, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

MAX_EFFECT_CHARS = 20_000
MAX_NESTING = 60
MAX_TREE_DEPTH = 150   # a chain like 1+1+1+... nests too; the compiler walks trees recursively

# Friendly names for the grammar's terminals in "expected ..." lists.
_TERMINAL_NAMES = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "LPAR": "'('",
    "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "LBRACE": "'{'", "RBRACE": "'}'",
    "COMMA": "','", "DOT": "'.'", "EQUAL": "'='", "COLON": "':'", "SEMICOLON": "';'",
    "QMARK": "'?'", "COMPOP": "a comparison", "ADDOP": "'+' or '-'", "MULOP": "'*', '//' or '%'",
    "AUGOP": "'+=' or '-='", "MINUS": "'-'", "$END": "end of text",
}


@dataclass(frozen=True)
class SyntaxProblem:
    """A parse error inside one effect text (1-based line and column in that text)."""

    line: int
    column: int
    message: str


def grammar_text() -> str:
    """Returns the grammar source, from the installed package or the source tree."""
    try:
        return resources.files("interpreter").joinpath("_data/grammar/effect.lark").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        pass
    here = Path(__file__).resolve().parents[2] / "grammar" / "effect.lark"
    return here.read_text("utf-8")


_OPTIONS = dict(parser="lalr", start=["start", "expr_start"], propagate_positions=True, maybe_placeholders=False)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """Returns the LALR parser, its tables read from Cairn's cache when kept there. Not
    lark's own cache: lark unpickles its file unchecked, so the tables are kept as a sealed
    entry (load/cache.py) whose first line is a digest of the grammar, the options, lark's
    and Python's versions; only a checked entry of the same digest is loaded."""
    import io
    import sys

    import lark
    from ..load import cache
    from ..load.seed import GRAMMAR
    text = grammar_text()
    key = cache.digest(text, repr(sorted(_OPTIONS.items())), lark.__version__,
                       "%d.%d" % sys.version_info[:2]).encode("ascii")
    kept = cache.read_bytes(GRAMMAR)
    if kept is not None and kept.startswith(key + b"\n"):
        try:
            return Lark.load(io.BytesIO(kept[len(key) + 1:]))
        except Exception:      # tables of a lark that differs after all: build them
            pass
    built = Lark(text, **_OPTIONS)
    if cache.cache_dir() is not None:
        out = io.BytesIO()
        built.save(out)
        cache.write_bytes(GRAMMAR, key + b"\n" + out.getvalue())
    return built


def _expected(err: UnexpectedInput) -> str:
    names: set[str] = set()
    for term in sorted(getattr(err, "expected", None) or getattr(err, "allowed", None) or []):
        if term in _TERMINAL_NAMES:
            names.add(_TERMINAL_NAMES[term])
        elif term.startswith("__ANON") or term.isupper():
            continue
        else:
            names.add(repr(term.lower()))
    # Keywords appear as their uppercase token names; make them readable.
    for term in getattr(err, "expected", None) or []:
        if term.isupper() and term not in _TERMINAL_NAMES and not term.startswith("__"):
            names.add(repr(term.lower()))
    return ", ".join(sorted(names)) if names else "something else"


def _caret(text: str, line: int, column: int) -> str:
    lines = text.splitlines() or [""]
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    return f"\n    {src}\n    {' ' * (column - 1)}^"


def _depth(tree: Tree) -> tuple[int, tuple[int, int]]:
    """Returns the deepest nesting of a tree (walked without recursion) and where it is."""
    best, where = 0, (1, 1)
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        if d > best:
            best = d
            meta = getattr(node, "meta", None)
            if meta is not None and not getattr(meta, "empty", True):
                where = (meta.line, meta.column)
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, d + 1))
    return best, where


_PARSED: dict[tuple[str, bool], Tree | SyntaxProblem] = {}
_LOCAL = threading.local()     # .used: the texts parsed inside kept_trees() (a server builds in threads)
_KEPT: dict[str, set[tuple[str, bool]]] = {}  # cache entry -> the texts it holds (read this process)
_KEPT_MAX = 5_000     # a game's kept trees beyond this start over from those it uses


def parse(text: str, *, expression: bool = False) -> Tree | SyntaxProblem:
    """Returns the syntax tree of a program (or of one expression), or the problem. Trees
    are remembered by text (a game is often built several times, with its variants), and
    are only read, never changed, by those who get them."""
    key = (text, expression)
    hit = _PARSED.get(key)
    if hit is None:
        if len(_PARSED) > 50_000:
            _PARSED.clear()
        hit = _PARSED[key] = _parse(text, expression)
    used = getattr(_LOCAL, "used", None)
    if used is not None:
        used.add(key)
    return hit


@contextmanager
def kept_trees(scope: str) -> Iterator[None]:
    """Parses, while it lasts, from the trees kept in Cairn's cache for `scope` (a game
    folder: its texts are parsed together), and keeps the new ones there afterwards.
    Trees are a pure function of the text, the grammar, this module and lark, and the
    entry's name holds a digest of all of them, so a kept tree is the tree parse gives."""
    from ..load import cache
    name = _entry(scope)
    kept = _KEPT.get(name)
    if kept is None:                 # read once a process: later builds find them in _PARSED
        found = cache.load(name)
        found = found if isinstance(found, dict) else {}
        kept = _KEPT[name] = set(found)
        for key, tree in found.items():
            _PARSED.setdefault(key, tree)
    outer = getattr(_LOCAL, "used", None)
    used = _LOCAL.used = set()
    try:
        yield
    finally:
        _LOCAL.used = outer
        if outer is not None:
            outer |= used
        if not used <= kept:
            # What this run parsed, and what was kept and is still in memory (another
            # variant's texts); past _KEPT_MAX, only what this run parsed.
            wanted = used | kept if len(kept) < _KEPT_MAX else used
            keep = {k: _PARSED[k] for k in wanted if k in _PARSED}
            cache.store(name, keep)
            _KEPT[name] = set(keep)


@lru_cache(maxsize=64)
def _entry(scope: str) -> str:
    """Returns the name of the cache entry holding a scope's trees. A folder Cairn ships is
    named by its place among Cairn's data, so a wheel's seed (seed.py) serves it wherever
    Cairn is installed; any other folder by its full path."""
    import lark
    from ..load import cache
    from ..load.files import data_root
    try:
        scope = "cairn:" + Path(scope).relative_to(data_root().resolve()).as_posix()
    except ValueError:
        pass
    return "trees-" + cache.digest(scope, grammar_text(), lark.__version__, cache.source_digest("lang.parser")) + ".pkl"


def _parse(text: str, expression: bool) -> Tree | SyntaxProblem:
    if len(text) > MAX_EFFECT_CHARS:
        return SyntaxProblem(1, 1, f"effect text is {len(text)} characters; the limit is {MAX_EFFECT_CHARS}")
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
            if depth > MAX_NESTING:
                line = text.count("\n", 0, i) + 1
                col = i - (text.rfind("\n", 0, i) + 1) + 1
                return SyntaxProblem(line, col, f"brackets nested deeper than {MAX_NESTING}")
        elif ch in ")]}":
            depth -= 1
    try:
        tree = _parser().parse(text, start="expr_start" if expression else "start")
        depth, where = _depth(tree)
        if depth > MAX_TREE_DEPTH:
            line, col = where
            return SyntaxProblem(line, col, f"the effect nests {depth} levels deep; the limit is "
                                 f"{MAX_TREE_DEPTH} (split a long chain of operators with let)")
        return tree
    except UnexpectedEOF as err:
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        return SyntaxProblem(line, column, "unexpected end of effect; expected "
                             + _expected(err) + _caret(text, line, column))
    except UnexpectedToken as err:
        tok = err.token
        shown = "end of text" if tok.type == "$END" else repr(str(tok))
        line = err.line if err.line and err.line > 0 else 1
        column = err.column if err.column and err.column > 0 else 1
        if tok.type == "$END":
            lines = text.rstrip().splitlines() or [""]
            line, column = len(lines), len(lines[-1]) + 1
        return SyntaxProblem(line, column, f"unexpected {shown}; expected {_expected(err)}"
                             + _caret(text, line, column))
    except UnexpectedCharacters as err:
        return SyntaxProblem(err.line, err.column, f"unexpected character {text[err.pos_in_stream]!r}; "
                             f"expected {_expected(err)}" + _caret(text, err.line, err.column))
