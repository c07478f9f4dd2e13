"""The checks every request passes before the app sees it, against other sites:

- Host: only the names this server is reached by (localhost, 127.0.0.1, [::1], the address
  the connection came in on, and the --host name), with the server's port. A page of
  another site that gets its name to resolve to this machine (DNS rebinding) sends its
  own name, and is refused (421) on every request, reads included.
- Origin, on every request that changes something (any method but GET and HEAD): a
  browser names the page that sent it; only this server's own pages may (403). A request
  without Origin is not from a browser's page (a script, curl), unless the browser says
  otherwise in Sec-Fetch-Site.

Pure ASGI, so it runs before routing and its refusals are short JSON like the API's."""
from __future__ import annotations

import json
from typing import Any, Awaitable, Callable, Iterable

Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Callable, Callable], Awaitable[None]]
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
SAFE_METHODS = ("GET", "HEAD")


def host_name(address: str) -> str:
    """Returns how a Host header writes an address: an IPv6 one in brackets."""
    address = address.lower().rstrip(".")
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def split_host(header: str) -> tuple[str, int | None] | None:
    """Returns (name, port or None) of a Host header value, or None when it is malformed."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        if end < 0:
            return None
        name, rest = header[: end + 1], header[end + 1:]
    else:
        name, _, port = header.partition(":")
        rest = ":" + port if _ else ""
    if rest and (not rest.startswith(":") or not rest[1:].isdigit() or len(rest) > 6):
        return None
    return name.rstrip("."), (int(rest[1:]) if rest else None)


class Guard:
    """Wraps an ASGI app with the Host and Origin checks; `names` adds host names."""

    def __init__(self, app: ASGIApp, names: Iterable[str] = ()):
        self.app = app
        self.names = {host_name(n) for n in (*LOCAL_NAMES, *names) if n}

    async def __call__(self, scope: Scope, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        problem = self.problem(scope)
        if problem is None:
            await self.app(scope, receive, send)
            return
        status, message = problem
        body = json.dumps({"error": message}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    def problem(self, scope: Scope) -> tuple[int, str] | None:
        """Returns (status, message) when the request must be refused, else None."""
        headers: dict[bytes, bytes] = {}
        for k, v in scope.get("headers", []):
            if k in headers and k in (b"host", b"origin"):
                return 400, f"the request has two {k.decode()} headers"
            headers[k] = v
        host = headers.get(b"host", b"").decode("latin-1")
        if not self.host_ok(host, scope.get("server")):
            return 421, "this server does not answer to that host name (Host header); open it by its own address"
        if scope.get("method", "GET") in SAFE_METHODS:
            return None
        origin = headers.get(b"origin")
        if origin is None:
            site = headers.get(b"sec-fetch-site", b"same-origin")
            if site not in (b"same-origin", b"none"):
                return 403, "a request from another site is refused"
            return None
        if origin.decode("latin-1").lower() != "http://" + host.strip().lower():
            return 403, "a request from another site (Origin) is refused"
        return None

    def host_ok(self, host: str, server: Any) -> bool:
        parsed = split_host(host)
        if not host or parsed is None:
            return False
        name, port = parsed
        names = set(self.names)
        own_port = None
        if isinstance(server, (tuple, list)) and len(server) == 2:
            names.add(host_name(str(server[0])))
            own_port = server[1]
        if name not in names:
            return False
        return own_port is None or port == own_port or (port is None and own_port == 80)
