"""Serving the app with uvicorn: on a socket bound first (so the address is known and
printed before the first request; port 0 takes a free one), in the foreground for
`cairn serve`, or in a thread for the browser tests and the screenshot tool."""
from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

import uvicorn

DEFAULT_PORT = 8765


def bind(host: str, port: int) -> socket.socket:
    """Returns a listening socket on host:port; port 0 asks the system for a free one."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def server_for(app: Any, quiet: bool = True) -> uvicorn.Server:
    config = uvicorn.Config(app, log_level="warning" if quiet else "info", access_log=not quiet, lifespan="off")
    return uvicorn.Server(config)


@dataclass
class Running:
    """A server running in a thread: its address, and stop() to end it."""

    url: str
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def start_in_thread(app: Any, host: str = "127.0.0.1", port: int = 0) -> Running:
    """Starts the app in a daemon thread and returns once it accepts requests."""
    sock = bind(host, port)
    server = server_for(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="cairn-web")
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    return Running(url_of(sock), server, thread)
