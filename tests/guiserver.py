"""Start `canter gui` as a subprocess and talk to its HTTP API, for the GUI's tests and its
latency benchmark."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

TESTS = Path(__file__).resolve().parent
SCRIPTED = TESTS / "fake_engines" / "scripted.py"


class GuiServer:
    """A running `canter gui --no-browser` with its address and token."""

    def __init__(self, *args: str, startup: float = 30.0, cwd: str | None = None) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "canter", "gui", "--no-browser", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
        deadline = time.monotonic() + startup
        self.url = ""
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise RuntimeError(f"canter gui ended before printing its address: {err}")
            match = re.match(r"canter gui: (http://\S+)", line)
            if match:
                self.url = match.group(1)
                break
        if not self.url:
            self.close()
            raise RuntimeError("canter gui printed no address")
        parts = urlsplit(self.url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.token = parts.query.split("token=", 1)[1]
        self.base = f"http://{parts.netloc}"

    def request(self, method: str, path: str, body: Any = None, *, token: str | None = "",
                headers: dict[str, str] | None = None, raw: bytes | None = None,
                timeout: float = 30.0) -> tuple[int, Any]:
        """(status, JSON or text). `token=""` sends this server's token, None sends none."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        sent = {"Host": f"{self.host}:{self.port}"}
        if token is not None:
            sent["X-Canter-Token"] = token or self.token
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for key, value in sent.items():
            conn.putheader(key, value)
        if data is not None:
            conn.putheader("Content-Length", str(len(data)))
        conn.endheaders()
        if data is not None:
            conn.send(data)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        conn.close()
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(text) if kind.startswith("application/json") else text

    def get(self, path: str, **kwargs: Any) -> Any:
        status, value = self.request("GET", path, **kwargs)
        assert status == 200, (status, value)
        return value

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        status, value = self.request("POST", path, body if body is not None else {}, **kwargs)
        assert status == 200, (status, value)
        return value

    def state(self) -> dict[str, Any]:
        return self.get("/api/state")

    def wait(self, predicate, timeout: float = 30.0, what: str = "a state") -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        state = self.state()
        while not predicate(state):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; last state: "
                                     f"moves={state['moves']} result={state['result']} "
                                     f"fault={state['fault']} message={state['message']}")
            time.sleep(0.05)
            state = self.state()
        return state

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> GuiServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def seats(*players: str, depth: int = 1, engine: int = 0, clock: dict | None = None,
          limit: dict | None = None) -> list[dict[str, Any]]:
    """Seat settings: 'human' or 'engine' per seat, engines at a fixed depth."""
    return [{"player": p, "engine": engine, "limit": limit or {"depth": depth},
             "clock": clock} for p in players]
