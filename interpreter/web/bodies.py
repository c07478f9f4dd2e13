"""Request bodies, read as the input they are: at most MAX_BODY bytes, read chunk by
chunk and refused (413) as soon as the limit is passed, never buffered whole; UTF-8;
at most MAX_VALUES values, counted on the bytes before parsing (a body of 2 MB of `[],`
would be 700,000 lists, 40 MB, once parsed); JSON with bounded numbers (no 5,000-digit
int reaches int()), no NaN or Infinity, no duplicated field, no text that is not
Unicode, no deeper than MAX_DEPTH (what reaches the engine is never deeper than a
record needs); then every field checked for its kind. Each refusal is a WebError
with a short message (values quoted by excerpt)."""
from __future__ import annotations

import json
import math
from typing import Any

from starlette.requests import ClientDisconnect, Request

from .errors import WebError, excerpt, kind

MAX_BODY = 2 * 1024 * 1024      # a record of MAX_CHOICES (200,000) choices is about 1.2 MB
MAX_DIGITS = 20                 # a whole number's digits (a seed is below 2**63: 19)
MAX_FLOAT_CHARS = 32
MAX_DEPTH = 16                  # nesting of lists and objects (a record needs 4)
MAX_VALUES = 250_000            # values in one body (a record of 200,000 choices has that many and a few)


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """Returns the body's bytes; raises WebError 413 when it passes `limit` (declared or
    sent), having read no more than one chunk past it."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and len(declared) < 20 and int(declared) > limit:
        raise WebError(f"the request is over {limit // (1024 * 1024)} MB", 413)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise WebError(f"the request is over {limit // (1024 * 1024)} MB", 413)
            chunks.append(chunk)
    except ClientDisconnect:
        raise WebError("the request ended before its body did") from None
    return b"".join(chunks)


async def json_object(request: Request, allowed: set[str]) -> dict[str, Any]:
    """Returns the body as a JSON object with only `allowed` fields (an empty body: {})."""
    raw = await read_body(request)
    data = parse(raw) if raw.strip() else {}
    if not isinstance(data, dict):
        raise WebError(f"expected a JSON object, got {kind(data)}")
    unknown = [k for k in data if k not in allowed]
    if unknown:
        raise WebError(f"unknown field {excerpt(unknown[0])}; expected: {', '.join(sorted(allowed)) or 'none'}")
    return data


def parse(raw: bytes) -> Any:
    """Returns the JSON value of `raw`; raises WebError saying what is wrong with it."""
    if raw.count(b",") + raw.count(b"[") + raw.count(b"{") >= MAX_VALUES:   # at most (commas in texts count too)
        raise WebError(f"the request holds more than {MAX_VALUES} values")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise WebError(f"the request is not UTF-8 (byte {err.start})") from None
    try:
        value = json.loads(text, parse_int=_whole, parse_float=_fraction, parse_constant=_constant,
                           object_pairs_hook=_object)
    except json.JSONDecodeError as err:
        raise WebError(f"the request is not JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    except RecursionError:
        raise WebError(f"the request is nested more than {MAX_DEPTH} deep") from None
    check_shape(value)
    return value


def check_shape(value: Any) -> None:
    """Raises WebError when `value` is nested too deep or holds text that is not
    Unicode (a lone surrogate, which no reply could encode)."""
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, str):
            _unicode(v)
        elif isinstance(v, (list, dict)):
            if depth >= MAX_DEPTH:
                raise WebError(f"the request is nested more than {MAX_DEPTH} deep")
            if isinstance(v, dict):
                for k in v:
                    _unicode(k)
            todo.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))


def _unicode(s: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise WebError(f"the request holds text that is not Unicode: {excerpt(s)}") from None


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise WebError(f"a number in the request has {len(digits.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(digits)


def _fraction(text: str) -> float:
    if len(text) > MAX_FLOAT_CHARS:
        raise WebError(f"a number in the request is {len(text)} characters long (at most {MAX_FLOAT_CHARS})")
    value = float(text)
    if not math.isfinite(value):
        raise WebError(f"a number in the request is too big: {excerpt(text)}")
    return value


def _constant(name: str) -> Any:
    raise WebError(f"{name} is not a number JSON allows")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise WebError(f"the field {excerpt(k)} is given twice")
        out[k] = v
    return out


# ---- fields of a body: each checked for its kind ------------------------------------------

def whole(data: dict, key: str, default: Any = None, lo: int | None = None, hi: int | None = None) -> Any:
    """Returns data[key] as a whole number (or `default` when absent or null); raises
    WebError when it is of another kind or out of [lo, hi]."""
    value = data.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise WebError(f"expected '{key}' to be a whole number, got {kind(value)}: {excerpt(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise WebError(f"expected '{key}' from {lo} to {hi}, got {excerpt(value)}")
    return value


def text(data: dict, key: str, default: Any = None) -> Any:
    """Returns data[key] as text (or `default` when absent or null)."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise WebError(f"expected '{key}' to be text, got {kind(value)}: {excerpt(value)}")
    return value


def texts(data: dict, key: str, most: int = 64) -> list[str]:
    """Returns data[key] as a list of at most `most` different texts ([] when absent)."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise WebError(f"expected '{key}' to be a list of texts, got {excerpt(value)}")
    if len(value) > most:
        raise WebError(f"expected at most {most} items in '{key}', got {len(value)}")
    twice = next((v for i, v in enumerate(value) if v in value[:i]), None)
    if twice is not None:
        raise WebError(f"'{key}' names {excerpt(twice)} twice")
    return value
