"""A process paused past its leases and its presence (SIGSTOP), then woken (SIGCONT).

Issue 28, point 2. Two real ``wibble serve --redis`` processes, A and B, over one real
redis-server; four rooms, each with Ann (the host) on A, Bo on B and a bot, in a timed
match (5 s turns, 20 rounds). Everyone's page passes at once on its turn, so the matches
run on their bots' turns; A is stopped just as the first room's turn passes to its bot
(the other rooms mostly on theirs too), so that A wakes with bots' moves due on copies of
the matches a dozen turns old. Ann's pages then pass no more. A stays stopped until B has
taken it for dead and Ann for gone in every room (her presence runs out, 10 s; her grace
period, 1 s, ends; Bo's page is told she is away) and a stand-in has played for her a
while. Then A is woken, Ann's pages never having closed, and every page is listened to:

1. Ann is back, as Bo's page is told (``presence`` or ``room``), within ``BACK_WITHIN``
   seconds of A waking (A's heartbeat every 3.3 s, and a margin), not at the next
   housekeeping pass up to a minute later; Ann's own page does not end showing her away;
   no stand-in plays for her later than a second after she is back.
2. Nothing a page shows contradicts what it already has. Each page's messages are read in
   order as the page reads them (``View``): a ``chain`` on the version the page shows (an
   older one it drops) must be of the seat whose turn it is, on tiles that spell its word,
   and continue the turn's drag (only bots drag here; a drag may begin afresh, as when
   another process takes a bot's turn over). A versioned event or a ``match`` snapshot
   older than the page's version is only noted (the page drops it), as is a snapshot
   without a drag another process has under way (the stored document, which it is made
   of, has none).
3. Ann's page ends up at least where Bo's was when A woke.

What each page read after A woke is printed (``pytest -s``), with how long Ann took to be
back. The page's own heartbeat (which gives a silent connection up after 12 s and
reconnects) is left out on purpose but for its ``ping``: the issue is about a person who
stays connected to the stopped process.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.support import Client, LiveServer, messages_in

Message = dict[str, Any]

SETTINGS = {
    "WIBBLE_ROOM_GRACE_SECONDS": "1",
    "WIBBLE_BOT_THINK_SECONDS": "0.2",
    "WIBBLE_BOT_STEP_SECONDS": "0.05",
    "WIBBLE_DEADLINE_LEASE_SECONDS": "2",
    "WIBBLE_ROUND_PAUSE_SECONDS": "0",
}
RULES = {"rounds": 20, "turn_seconds": 5}
ROOMS = 4
ANN, BO, BOT = 0, 1, 2
"""The seats: Ann on the process that is stopped, Bo on the other, a bot."""
PLAY_BEFORE = 2.0
"""Seconds the matches are played (everyone passing, the bots playing) before A is stopped."""
MAX_PAUSE = 30.0
"""Seconds A may stay stopped waiting for Ann to be taken for away (10 s presence, a heartbeat
of B, 1 s grace: about 9-15 s)."""
STAND_IN = 1.5
"""Seconds A stays stopped once Ann is away, so that a stand-in may play for her."""
BACK_WITHIN = 5.0
"""Seconds after A wakes by which Ann must be back (its heartbeat, every 3.3 s, and a margin)."""
WATCH = 6.0
"""Seconds every page is listened to after A wakes."""
PING_AFTER = 5.0
"""A page sends ``ping`` when it has sent nothing for this long (docs/protocol.md, "Heartbeat")."""


class Page:
    """A connection read by a thread of its own, as a page reads it: every message, in order, with
    the moment it arrived. While it ``passes``, it answers each turn of its seat with ``pass``."""

    def __init__(self, server: LiveServer, name: str) -> None:
        self.name = name
        self.client = Client(server.ws_url)
        self.client.ws.settimeout(None)  # (a stopped process says nothing for a while)
        self.seat: int | None = None
        self.heard: list[tuple[float, Message]] = []
        self.sent = time.monotonic()
        self._passing = False
        self._turn: Message = {}
        """The last ``match`` or ``turn`` message: whose turn it is."""
        self._passed: set[int] = set()
        self._lock = threading.Lock()
        self._arrived = threading.Condition()
        self._reader = threading.Thread(target=self._read, name=f"page-{name}", daemon=True)
        self._reader.start()

    def send(self, message: Message) -> None:
        self.sent = time.monotonic()
        self.client.send(message)

    def passes(self, passing: bool) -> None:
        """Pass on each turn of this page's seat from now on (the one under way included), or stop."""
        with self._lock:
            self._passing = passing
        self._pass()

    def _pass(self) -> None:
        with self._lock:
            turn = self._turn
            if not (
                self._passing
                and turn.get("phase") == "playing"
                and turn["turn"] == self.seat
                and turn["turn_no"] not in self._passed
            ):
                return
            self._passed.add(turn["turn_no"])
            self.send({"type": "pass"})

    def _read(self) -> None:
        while True:
            try:
                frame = self.client.ws.recv()
            except Exception:
                return
            if not frame:
                return
            for message in messages_in(frame):
                with self._arrived:
                    self.heard.append((time.monotonic(), message))
                    self._arrived.notify_all()
                if message["type"] in ("match", "turn"):
                    with self._lock:
                        self._turn = message
                    try:
                        self._pass()
                    except Exception:
                        return

    def mark(self) -> int:
        """Where the next message will be in ``heard``."""
        with self._arrived:
            return len(self.heard)

    def wait(
        self,
        kind: str,
        where: Callable[[Message], bool] = lambda m: True,
        since: int = 0,
        timeout: float = 10.0,
    ) -> Message:
        """The first message of ``kind`` at ``since`` or later for which ``where`` holds."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for _, message in self.heard[since:]:
                    if message["type"] == kind and where(message):
                        return message
                since = len(self.heard)
                left = deadline - time.monotonic()
                if left <= 0:
                    kinds = [m["type"] for _, m in self.heard[-20:]]
                    raise AssertionError(f"{self.name}: no {kind} within {timeout} s (last heard: {kinds})")
                self._arrived.wait(left)

    def messages(self) -> list[tuple[float, Message]]:
        with self._arrived:
            return list(self.heard)

    def close(self) -> None:
        try:
            self.client.close()
        except Exception:
            pass
        self._reader.join(5)


class View:
    """The match as a page that reads these messages in order sees it, from its first ``match``
    snapshot on; ``read`` says what in a message contradicts it (None: nothing), and ``notes``
    what is odd but not stale."""

    def __init__(self) -> None:
        self.version = -1
        self.turn: int | None = None
        self.turn_no: int | None = None
        self.phase: str | None = None
        self.letters: list[list[str]] = []
        self.drag: list[list[int]] | None = []
        """The current turn's drag so far (None: not known, after a snapshot without one)."""
        self.notes: list[str] = []

    def read(self, message: Message) -> str | None:
        kind = message["type"]
        if kind == "match":
            return self._snapshot(message)
        if self.version < 0:
            return None  # (the room's messages before the match)
        if kind in ("played", "board", "gems", "turn", "match_over"):
            return self._event(kind, message)
        if kind == "chain":
            return self._chain(message)
        return None

    def _snapshot(self, message: Message) -> str | None:
        if message["version"] < self.version:  # the page keeps what it has (static/js/match_moves.js): noted
            self.notes.append(
                f"a match snapshot at version {message['version']}, older than the page's {self.version}"
            )
            return None
        chain: list[list[int]] | None = message["chain"]
        drag, shown = self.drag or [], chain or []
        if message["turn_no"] == self.turn_no and len(shown) < len(drag) and shown == drag[: len(shown)]:
            # The same turn, with less of its drag than the page was shown: a drag under way is
            # held by the process that runs it, not in the stored document that a snapshot from
            # another process is made of. The drag goes on (noted, not counted as stale).
            self.notes.append(f"a match snapshot (version {message['version']}) without the drag {self.drag}")
            chain = self.drag
        elif not chain:
            chain = None  # (nor does a page know, from a snapshot, of a drag under way elsewhere)
        self.version = message["version"]
        self.turn, self.turn_no, self.phase = message["turn"], message["turn_no"], message["phase"]
        self.letters = [[tile["letter"].upper() for tile in row] for row in message["board"]]
        self.drag = chain
        return None

    def _event(self, kind: str, message: Message) -> str | None:
        version = message["version"]
        if version < self.version:  # the page drops it (static/js/match.js, versionCheck): noted
            self.notes.append(f"{kind} of version {version}, older than the page's {self.version} (dropped)")
            return None
        self.version = version
        if kind == "turn":
            if message["turn_no"] != self.turn_no:
                self.drag = []
            self.turn, self.turn_no, self.phase = message["turn"], message["turn_no"], message["phase"]
        elif kind == "played":
            self.drag = []
        elif kind == "board":
            for tile in message["changed"]:
                self.letters[tile["row"]][tile["col"]] = tile["letter"].upper()
        elif kind == "match_over":
            self.phase = "over"
        return None

    def _chain(self, message: Message) -> str | None:
        chain, seat = message["chain"], message["seat"]
        if message["version"] < self.version:  # a drag on an older match: the page drops it, noted
            self.notes.append(
                f"a drag {chain} of version {message['version']}, older than the page's {self.version}"
            )
            return None
        where = f"turn_no {self.turn_no} (seat {self.turn}, {self.phase}) at version {self.version}"
        problem = None
        if self.phase != "playing" or seat != self.turn:
            problem = f"a drag {chain} of seat {seat} on {where}"
        elif chain and "".join(self.letters[r][c] for r, c in chain) != message["word"].upper():
            problem = f"a drag {chain} spelling {message['word']} on tiles that spell otherwise, on {where}"
        # (A press begins a drag afresh: a bot's drag that another process takes over once the
        # lease of the one dragging it ran out begins again there. A drag may skip a step the
        # page never got, dropped with a backlog older than a catch-up: each says its whole chain.)
        elif len(chain) > 1 and self.drag is not None and chain[: len(self.drag)] != self.drag:
            problem = f"a drag {chain} that does not continue {self.drag}, on {where}"
        self.drag = list(chain)
        return problem


def stale(page: Page, woke: float) -> tuple[list[str], list[str]]:
    """What contradicts the page's own view among every message it read, and what was noted (each
    with its moment, in seconds from when A woke)."""
    view, found, notes = View(), [], []
    for moment, message in page.messages():
        problem = view.read(message)
        when = f"{page.name} {moment - woke:+.2f} s:"
        if problem is not None:
            found.append(f"{when} {problem}")
        notes += [f"{when} {note}" for note in view.notes]
        view.notes.clear()
    return found, notes


def ann_shown(message: Message) -> tuple[bool, bool] | None:
    """(connected, away) for Ann's seat, if ``message`` says it."""
    if message["type"] == "presence" and message["seat"] == ANN:
        return bool(message["connected"]), bool(message.get("away"))
    if message["type"] == "room" and message["seats"][ANN] is not None:
        seat = message["seats"][ANN]
        return bool(seat["connected"]), bool(seat["away"])
    return None


def brief(moment: float, message: Message) -> str:
    """A message in a few characters, for the log: its type, seat (or turn), version and moment."""
    kind, seat = str(message["type"]), message.get("seat", message.get("turn"))
    version = message.get("version") if kind != "room" else None
    return (
        kind
        + ("" if seat is None else f"[{seat}]")
        + ("" if version is None else f"v{version}")
        + f"@{moment:.2f}"
    )


def set_up_room(a: LiveServer, b: LiveServer, n: int) -> tuple[Page, Page]:
    """Ann hosts a room on A (seat 0), Bo sits on B (seat 1), a bot in seat 2; the match started."""
    ann, bo = Page(a, f"Ann{n}"), Page(b, f"Bo{n}")
    ann.send({"type": "create_room", "name": "Ann", "rules": RULES})
    code = ann.wait("room")["code"]
    ann.seat = ANN
    bo.send({"type": "join_room", "code": code, "name": "Bo"})
    bo.wait("room")
    bo.send({"type": "take_seat", "seat": BO})
    bo.wait("room", lambda m: m["you"] == BO)
    bo.seat = BO
    ann.send({"type": "set_seat", "seat": BOT, "bot": "easy"})
    ann.wait("room", lambda m: m["seats"][BO] is not None and m["seats"][BOT] is not None)
    ann.send({"type": "start_match"})
    for page in (ann, bo):
        assert page.wait("match")["you"] == page.seat
    return ann, bo


@pytest.fixture
def processes(redis_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    started: list[LiveServer] = []

    def serve() -> None:
        started.append(LiveServer("--redis", redis_url, env=SETTINGS))

    threads = [threading.Thread(target=serve) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert len(started) == 2, "a server did not start"
        yield started[0], started[1]
    finally:
        for server in started:
            if server.alive():
                os.kill(server.process.pid, signal.SIGCONT)
            server.stop()


class Pinger:
    """Every page says ``ping`` once it has sent nothing for ``PING_AFTER`` s, as the page's
    heartbeat does, so that no server closes it for silence."""

    def __init__(self, pages: list[Page]) -> None:
        self.pages = pages
        self._quiet = threading.Event()
        self._thread = threading.Thread(target=self._ping, name="pinger", daemon=True)
        self._thread.start()

    def _ping(self) -> None:
        while not self._quiet.wait(1.0):
            for page in list(self.pages):
                if time.monotonic() - page.sent > PING_AFTER:
                    try:
                        page.send({"type": "ping"})
                    except Exception:
                        pass

    def stop(self) -> None:
        self._quiet.set()
        self._thread.join(5)


def pause_past_presence(a: LiveServer, rooms: list[tuple[Page, Page]]) -> tuple[float, float, list[int]]:
    """Play a while, stop A just as the first room's turn passes to its bot there (the others, where
    the people pass at once, are mostly on their bots' turns too), keep it stopped
    until every Bo's page is told Ann is away (and a while more: a stand-in plays), wake it.
    Returns how long it was stopped, when it woke, and each room's version on Bo's page then."""
    for page in (page for room in rooms for page in room):
        page.passes(True)
    time.sleep(PLAY_BEFORE)
    first = rooms[0][0]
    mark = first.mark()
    first.wait("turn", lambda m: m["turn"] == BOT and m["phase"] == "playing", since=mark)
    for ann, _ in rooms:
        ann.passes(False)  # Ann's pages send nothing more (a pass may be on its way in another room)
    os.kill(a.process.pid, signal.SIGSTOP)
    stopped = time.monotonic()
    try:
        for _, bo in rooms:  # B takes A for dead, and Ann for gone: Bo's page is told she is away
            bo.wait("presence", lambda m: m["seat"] == ANN and m["away"], timeout=MAX_PAUSE)
        time.sleep(STAND_IN)
        versions = [
            max(m["version"] for _, m in bo.messages() if m["type"] in ("match", "turn")) for _, bo in rooms
        ]
    finally:
        os.kill(a.process.pid, signal.SIGCONT)
    woke = time.monotonic()
    return woke - stopped, woke, versions


def after_waking(n: int, ann: Page, bo: Page, woke: float, version: int) -> list[str]:
    """What went wrong in room ``n`` once A woke (its pages' messages printed for the log)."""
    heard_by_bo = bo.messages()
    back = next((t - woke for t, m in heard_by_bo if t >= woke and ann_shown(m) == (True, False)), None)
    plays_for_ann = [round(t - woke, 2) for t, m in heard_by_bo if m["type"] == "played" and m["seat"] == ANN]
    stand_in = [t for t in plays_for_ann if t > (0.0 if back is None else back) + 1.0]
    connected = [t for t in plays_for_ann if 0 < t < (WATCH if back is None else back)]
    woken = [(t, m) for t, m in ann.messages() if t >= woke]
    snapshot = next((m for _, m in woken if m["type"] == "match"), None)
    shown = [state for _, m in ann.messages() if (state := ann_shown(m)) is not None]
    (stale_to_ann, noted_by_ann), (stale_to_bo, noted_by_bo) = stale(ann, woke), stale(bo, woke)
    reached = max((m["version"] for _, m in ann.messages() if m["type"] in ("match", "turn")), default=-1)
    print(
        f"room {n}: Ann back on Bo's page: "
        + ("never" if back is None else f"{back:.2f} s after SIGCONT")
        + f"; Ann's page read {len(woken)} messages after SIGCONT, "
        + ("no match snapshot" if snapshot is None else f"a match snapshot at version {snapshot['version']}")
        + f" (Bo's page was at version {version}; Ann's ends at {reached}); "
        + f"stale: {len(stale_to_ann)} to Ann, {len(stale_to_bo)} to Bo; "
        + f"a stand-in played for Ann {len(connected)} times after SIGCONT before she was back"
    )
    print("    Ann's page after SIGCONT:", " ".join(brief(t - woke, m) for t, m in woken[:60]))
    near = [(t, m) for t, m in heard_by_bo if -1.0 < t - woke < 1.0 and m["type"] != "pong"]
    print("    Bo's page from -1 s to +1 s:", " ".join(brief(t - woke, m) for t, m in near))
    for line in stale_to_ann[:10] + stale_to_bo[:10]:
        print("    stale:", line)
    for line in noted_by_ann + noted_by_bo:
        print("    noted:", line)

    problems = [f"room {n}: stale: {line}" for line in stale_to_ann + stale_to_bo]
    if back is None or back > BACK_WITHIN:
        late = "not within the watch" if back is None else f"only {back:.1f} s"
        problems.append(f"room {n}: Ann was back on Bo's page {late} after A woke (limit {BACK_WITHIN} s)")
    if stand_in:
        problems.append(f"room {n}: a stand-in played for Ann, connected, at {stand_in} s after A woke")
    if shown and shown[-1] != (True, False):
        problems.append(f"room {n}: Ann's own page ends showing her (connected, away) as {shown[-1]}")
    if reached < version:
        problems.append(f"room {n}: Ann's page ends at version {reached}, behind Bo's {version} at SIGCONT")
    return problems


def test_a_process_woken_after_a_pause_brings_its_people_back_at_once_and_tells_nothing_stale(
    processes: tuple[LiveServer, LiveServer],
) -> None:
    a, b = processes
    rooms: list[tuple[Page, Page]] = []
    pinger = Pinger([])
    try:
        for n in range(ROOMS):
            rooms.append(set_up_room(a, b, n))
            pinger.pages += rooms[-1]
        paused, woke, versions = pause_past_presence(a, rooms)
        time.sleep(WATCH)
    finally:
        pinger.stop()
        for page in (page for room in rooms for page in room):
            page.close()
    print(f"\nA was stopped {paused:.1f} s")
    problems = []
    for n, ((ann, bo), version) in enumerate(zip(rooms, versions, strict=True)):
        problems += after_waking(n, ann, bo, woke, version)
    assert not problems, "\n".join(problems)
