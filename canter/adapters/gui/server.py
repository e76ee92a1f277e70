"""The board's web server: the page, its files, and the JSON API (docs/gui.md).

Standard library only (a threading HTTP server; updates reach the page as server-sent
events). Only the page opened with this run's token may use the API, and only from this
server's own address: every request's Host must be the address the server listens on, an
Origin (sent by browsers) must be that address too, and every API request must carry the
token. That keeps other web pages, other users of the machine and DNS-rebinding tricks
from driving the board.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
import socket
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from canter.adapters.client import EngineError
from canter.adapters.gui import records
from canter.adapters.gui.table import Table, TableError
from canter.adapters.gui.workers import Analyser

MAX_BODY = records.MAX_RECORD_BYTES  # the largest request: a record file to load
MAX_JSON_BODY = 64 * 1024
HEARTBEAT = 15.0  # seconds between keep-alive comments on an idle event stream
MAX_STREAMS = 16  # event streams at once: each holds a thread
STATIC = {"gui.js": "text/javascript; charset=utf-8", "gui.css": "text/css; charset=utf-8"}


def _static(name: str) -> bytes:
    return resources.files("canter.adapters.gui").joinpath("static", name).read_bytes()


# The pages that take GET (a POST to one is answered 405, not 404).
GET_PATHS = frozenset({"/", "/index.html", "/favicon.ico", "/api/state", "/api/ply",
                       "/api/legal", "/api/save", "/api/events"})
# The pages that take POST (a GET of one is answered 405, not 404).
POST_PATHS = frozenset({
    "/api/analysis", "/api/claim", "/api/load", "/api/move", "/api/new", "/api/pause",
    "/api/position", "/api/resign", "/api/restart", "/api/resume", "/api/undo", "/api/watch",
})

class Board:
    """What the handler needs: the table, its workers and the run's secrets."""

    def __init__(self, table: Table, analyser: Analyser, watcher: records.Watcher | None,
                 token: str | None = None) -> None:
        self.table = table
        self.analyser = analyser
        self.watcher = watcher
        self.token = token or secrets.token_urlsafe(24)
        self.hosts: set[str] = set()
        self.origins: set[str] = set()
        self.port = 0
        self.any_ip = False
        self.streams = threading.BoundedSemaphore(MAX_STREAMS)

    def listen_on(self, host: str, port: int) -> None:
        """The Host headers (and origins) this server answers: its own address. Listening
        on every address (0.0.0.0, ::), any IP address and this machine's own names are
        answered: a DNS-rebinding page can only arrive under a name of its own."""
        self.port = port
        self.any_ip = host in ("0.0.0.0", "::", "")
        names = {host}
        if host in ("127.0.0.1", "localhost", "::1"):
            names |= {"127.0.0.1", "localhost", "[::1]"}
        elif ":" in host:
            names = {f"[{host}]"}
        if self.any_ip:
            names |= {"localhost", socket.gethostname(), socket.getfqdn()}
        self.hosts = {f"{name}:{port}" for name in names}
        if port == 80:  # browsers leave the default port out of Host and Origin
            self.hosts |= names
        self.origins = {f"http://{h}" for h in self.hosts}

    def host_allowed(self, host: str) -> bool:
        if host in self.hosts:
            return True
        if not self.any_ip:
            return False
        name, sep, port = host.rpartition(":")
        if self.port == 80 and (not sep or "]" in port):  # (no port: the default, 80)
            name, port = host, "80"
        elif not sep or port != str(self.port):
            return False
        try:
            ipaddress.ip_address(name.strip("[]"))
        except ValueError:
            return False
        return True

    def origin_allowed(self, origin: str) -> bool:
        return origin.startswith("http://") and self.host_allowed(origin[len("http://"):])


class Handler(BaseHTTPRequestHandler):
    server_version = "canter-gui"
    protocol_version = "HTTP/1.1"
    # A connection that sends nothing for this long is closed, so half-sent requests cannot
    # hold the server's threads (the event stream writes a heartbeat well within it).
    timeout = 60
    board: Board  # set on the subclass made for each server

    # ------------------------------------------------------------ plumbing

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # a board used by a person should not fill the terminal with requests

    def _send(self, status: int, body: bytes, content_type: str,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy",
                         "default-src 'self'; img-src 'self' data: blob:; "
                         "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """The HTTP server's own refusals (a malformed request line, headers too long, an
        unknown method) as JSON, as every other error of the API, not the library's HTML
        page. (The library calls this before any handler of ours runs.)"""
        self.close_connection = True
        short = self.responses.get(code, ("error",))[0]
        body = json.dumps({"error": (message or short)[:200]}).encode()
        self.send_response(code, short)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and code >= 200 and code not in (204, 304):
            self.wfile.write(body)

    def _error(self, status: int, message: str, **extra: Any) -> None:
        # a refused request may leave body bytes unread: never read them as a request
        self.close_connection = True
        self._json(status, {"error": message, **extra})

    def _query(self) -> dict[str, str]:
        query = parse_qs(urlsplit(self.path).query, keep_blank_values=True)
        return {k: v[0] for k, v in query.items()}

    def _allowed(self, need_token: bool) -> bool:
        """Host, Origin and token checks; answers the refusal itself."""
        board = self.board
        host = self.headers.get("Host", "")
        if not board.host_allowed(host):
            self._error(HTTPStatus.FORBIDDEN, f"refused: Host '{host[:60]}' is not this "
                        "board's address")
            return False
        origin = self.headers.get("Origin")
        if origin is not None and not board.origin_allowed(origin):
            self._error(HTTPStatus.FORBIDDEN, f"refused: requests from '{origin[:60]}' "
                        "may not use this board")
            return False
        if need_token:
            given = self.headers.get("X-Canter-Token") or self._query().get("token", "")
            if not hmac.compare_digest(given.encode(), board.token.encode()):
                self._error(HTTPStatus.UNAUTHORIZED, "refused: this request lacks the "
                            "board's token (open the address canter gui printed)")
                return False
        return True

    def _body(self, limit: int) -> bytes | None:
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding"):
            self._error(HTTPStatus.LENGTH_REQUIRED, "send a Content-Length, not chunks")
            return None
        try:
            size = int(length or "0")
        except ValueError:
            self._error(HTTPStatus.BAD_REQUEST, "bad Content-Length")
            return None
        if size < 0 or size > limit:
            self.close_connection = True
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                        f"a request body of at most {limit} bytes, please")
            return None
        return self.rfile.read(size)

    def _json_body(self) -> dict[str, Any] | None:
        data = self._body(MAX_JSON_BODY)
        if data is None:
            return None
        if not data.strip():
            return {}
        try:
            value = json.loads(data)
        except (ValueError, UnicodeDecodeError, RecursionError):  # (nested too deep)
            self._error(HTTPStatus.BAD_REQUEST, "the body is not JSON")
            return None
        if not isinstance(value, dict):
            self._error(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
            return None
        return value

    # ------------------------------------------------------------ GET

    def do_HEAD(self) -> None:  # noqa: N802
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802
        if self.headers.get("Content-Length", "0") not in ("", "0"):
            self.close_connection = True  # a body is never read: never parse it as a request
        path = urlsplit(self.path).path
        if path.startswith("/static/"):
            name = path[len("/static/"):]
            if not self._allowed(need_token=False):
                return
            if name not in STATIC:
                self._error(HTTPStatus.NOT_FOUND, "no such file")
                return
            self._send(HTTPStatus.OK, _static(name), STATIC[name])
            return
        if path == "/favicon.ico":
            self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
            return
        if not self._allowed(need_token=True):
            return
        if path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, _static("index.html"), "text/html; charset=utf-8")
            return
        if path == "/api/events":
            if self.command == "HEAD":
                self._error(HTTPStatus.METHOD_NOT_ALLOWED, "the event stream takes GET")
                return
            self._events()
            return
        table = self.board.table
        query = self._query()
        try:
            with table.lock:
                if path == "/api/state":
                    self._json(HTTPStatus.OK, table.state())
                elif path == "/api/ply":
                    self._json(HTTPStatus.OK, table.snapshot(_int(query.get("n"), "n")))
                elif path == "/api/legal":
                    cell = query.get("cell", "")
                    if not cell or len(cell) > 8 or not cell.isalnum():
                        raise TableError("legal needs a cell, e.g. ?cell=F7")
                    self._json(HTTPStatus.OK, {"cell": cell, "moves": table.legal(cell)})
                elif path == "/api/save":
                    text = records.save(table)
                    self._send(HTTPStatus.OK, text.encode(), "text/plain; charset=utf-8",
                               {"Content-Disposition": 'attachment; filename="game.txt"'})
                elif path in POST_PATHS:
                    self._not_allowed(f"{path} takes POST", "POST")
                else:
                    self._error(HTTPStatus.NOT_FOUND, f"no such page '{path[:60]}'")
        except TableError as exc:
            self._error(exc.status, str(exc), **exc.extra)
        except EngineError as exc:
            self._error(HTTPStatus.BAD_GATEWAY, f"the referee failed: {exc}")

    def _events(self) -> None:
        if not self.board.streams.acquire(blocking=False):
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, f"at most {MAX_STREAMS} pages may "
                        "follow the board at once")
            return
        try:
            self._stream()
        finally:
            self.board.streams.release()

    def _stream(self) -> None:
        table = self.board.table
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")
        self.end_headers()
        self.close_connection = True
        seen = -1
        try:
            while not table.closed:
                with table.lock:
                    if table.version == seen:
                        table.changed.wait(timeout=HEARTBEAT)
                    if table.version == seen:
                        payload = b": ping\n\n"
                    else:
                        seen = table.version
                        payload = b"data: " + json.dumps(table.state()).encode() + b"\n\n"
                self.wfile.write(payload)
                self.wfile.flush()
        except (OSError, ValueError):
            return  # the page went away
        except (TableError, EngineError):
            return

    # ------------------------------------------------------------ POST

    def _not_allowed(self, message: str, allow: str) -> None:
        self.close_connection = True  # any body is left unread
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, json.dumps({"error": message}).encode(),
                   "application/json", {"Allow": allow})

    def _other_method(self) -> None:
        """PUT, DELETE, PATCH, OPTIONS: no page takes them (a JSON error, as every other)."""
        path = urlsplit(self.path).path
        allow = "POST" if path in POST_PATHS else "GET, HEAD"
        self._not_allowed(f"{self.command} is not used here: {path[:60]} takes {allow}", allow)

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _other_method  # noqa: N815

    def _replace_game(self, change: Callable[[], None]) -> None:
        """Put another game on the table (`change`, under its lock; a TableError refuses
        it and leaves everything running), then stop the analysis, whose position belonged
        to the old game, and answer with the state."""
        table = self.board.table
        with table.lock:
            change()
        self.board.analyser.stop()
        with table.lock:
            self._json(HTTPStatus.OK, table.state())

    def do_POST(self) -> None:  # noqa: N802
        if not self._allowed(need_token=True):
            return
        path = urlsplit(self.path).path
        if path in GET_PATHS or path.startswith("/static/"):
            allow = "GET" if path == "/api/events" else "GET, HEAD"
            self._not_allowed(f"{path[:60]} takes {allow}", allow)
            return
        board = self.board
        table = board.table
        try:
            if path == "/api/load":
                data = self._body(MAX_BODY)
                if data is None:
                    return
                games = records.parse_records(data)
                query = self._query()
                index = _int(query["game"], "game") if query.get("game") else None
                index, game = records.pick(games, index)
                if board.watcher is not None:
                    raise TableError("watching a file: loading is off")
                self._replace_game(lambda: records.take(table, game))
                return
            body = self._json_body()
            if body is None:
                return
            if path == "/api/analysis":
                action = body.get("action")
                if action == "start":
                    board.analyser.start(body.get("ply"), body.get("multipv", 1),
                                         body.get("engine"))
                elif action == "stop":
                    board.analyser.stop()
                else:
                    raise TableError("action must be 'start' or 'stop'")
                with table.lock:
                    self._json(HTTPStatus.OK, table.state())
                return
            if path == "/api/watch":
                if board.watcher is None:
                    raise TableError("not watching a file (start with canter gui --watch FILE)")
                board.watcher.choose(body.get("game"))
                with table.lock:
                    self._json(HTTPStatus.OK, table.state())
                return
            if path in ("/api/new", "/api/position"):
                if board.watcher is not None:
                    raise TableError("watching a file: the game comes from the file")
                if path == "/api/new":
                    seats = body.get("seats")
                    if seats is not None and not isinstance(seats, list):
                        raise TableError("seats must be a list")
                    self._replace_game(lambda: table.new_game(
                        body.get("variant"), body.get("position"), seats))
                else:
                    position = body.get("position")
                    if not isinstance(position, str) or not position.strip():
                        raise TableError("give a position string")
                    self._replace_game(lambda: table.new_game(None, position, None,
                                                              keep_seats=True))
                return
            if path == "/api/undo":
                with table.lock:
                    table.undo()
                # A running analysis goes on, at the position now last (its old one is no
                # longer in the game), as it does when a watched file grows.
                board.analyser.follow()
                with table.lock:
                    self._json(HTTPStatus.OK, table.state())
                return
            with table.lock:
                if path == "/api/move":
                    table.human_move(body.get("move"))  # type: ignore[arg-type]
                elif path == "/api/resign":
                    table.resign(body.get("seat"))
                elif path == "/api/claim":
                    table.claim()
                elif path == "/api/pause":
                    table.set_paused(True)
                elif path == "/api/resume":
                    table.set_paused(False)
                elif path == "/api/restart":
                    table.restart(body.get("engine", 0))
                else:
                    self._error(HTTPStatus.NOT_FOUND, f"no such action '{path[:60]}'")
                    return
                self._json(HTTPStatus.OK, table.state())
        except TableError as exc:
            self._error(exc.status, str(exc), **exc.extra)
        except EngineError as exc:
            self._error(HTTPStatus.BAD_GATEWAY, f"the referee failed: {exc}")


def _int(text: str | None, what: str) -> int:
    try:
        return int(text or "")
    except ValueError:
        raise TableError(f"{what} must be a whole number") from None


class BoardServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve(board: Board, host: str, port: int) -> BoardServer:
    """A server bound to host:port (port 0: any free one), not yet serving."""
    handler = type("BoardHandler", (Handler,), {"board": board})
    server_class = BoardServer
    if ":" in host:  # an IPv6 address
        server_class = type("BoardServer6", (BoardServer,), {"address_family": socket.AF_INET6})
    server = server_class((host, port), handler)
    board.listen_on(host, server.server_address[1])
    return server


def run_in_thread(server: BoardServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, name="canter-gui-http",
                              daemon=True)
    thread.start()
    return thread
