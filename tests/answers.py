"""What a search job reports, collected for tests of the protocol session."""

from __future__ import annotations

import threading

from canter.engine.search.limits import SearchInfo


class Answers:
    """Collects what a job reports, and lets a test wait for the single answer."""

    def __init__(self) -> None:
        self.infos: list[SearchInfo] = []
        self.done: list[tuple] = []
        self.errors: list[str] = []
        self.event = threading.Event()

    def on_info(self, info):
        self.infos.append(info)

    def on_done(self, best, ponder):
        self.done.append((best, ponder))
        self.event.set()

    def on_error(self, text):
        self.errors.append(text)

    def start(self, session, limits):
        return session.start_search(limits, self.on_info, self.on_done, self.on_error)
