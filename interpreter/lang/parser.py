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
from typing import Callable, Iterator

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

# Where the parser's tables are kept between processes: (read, write) of one blob of bytes,
# or nothing. Cairn's cache belongs to the loader, a layer above the language, which hands
# them down (load/trees.py) instead of the language reaching up for it.
_TABLES: list[tuple[Callable[[], bytes | None], Callable[[bytes], None]]] = []


def keep_tables(read: Callable[[], bytes | None], write: Callable[[bytes], None]) -> None:
    """Has the parser's tables read from `read()` and written by `write`, from the next
    build of the parser on."""
    _TABLES[:] = [(read, write)]
    _parser.cache_clear()


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """Returns the LALR parser, its tables read from where they are kept. Not lark's own
    cache: lark unpickles its file unchecked, so the keeper (the loader's sealed cache) is
    handed the tables with a first line that is a digest of the grammar, the options,
    lark's and Python's versions; only tables of the same digest are loaded."""
    import hashlib
    import io
    import sys

    import lark
    text = grammar_text()
    key = hashlib.sha256("\0".join((text, repr(sorted(_OPTIONS.items())), lark.__version__,
                                    "%d.%d" % sys.version_info[:2])).encode("utf-8", "surrogatepass")
                         ).hexdigest()[:20].encode("ascii")
    read, write = _TABLES[0] if _TABLES else (None, None)
    kept = read() if read is not None else None
    if kept is not None and kept.startswith(key + b"\n"):
        try:
            return Lark.load(io.BytesIO(kept[len(key) + 1:]))
        except Exception:      # tables of a lark that differs after all: build them
            pass
    built = Lark(text, **_OPTIONS)
    if write is not None:
        out = io.BytesIO()
        built.save(out)
        write(key + b"\n" + out.getvalue())
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
_LOCAL = threading.local()     # .used: the texts parsed inside noting_use() (a server builds in threads)


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
def noting_use() -> Iterator[set[tuple[str, bool]]]:
    """Yields the set of texts parse() is asked for while it lasts, in this thread (a server
    builds in threads); an enclosing one is given them too when this one ends."""
    outer = getattr(_LOCAL, "used", None)
    used = _LOCAL.used = set()
    try:
        yield used
    finally:
        _LOCAL.used = outer
        if outer is not None:
            outer |= used


def remember(trees: dict[tuple[str, bool], Tree | SyntaxProblem]) -> None:
    """Has parse() return these trees for their texts (trees kept from an earlier process)."""
    for key, tree in trees.items():
        _PARSED.setdefault(key, tree)


def remembered(keys: set[tuple[str, bool]]) -> dict[tuple[str, bool], Tree | SyntaxProblem]:
    """Returns the trees parse() holds for those of these texts it still holds."""
    return {k: _PARSED[k] for k in keys if k in _PARSED}


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
