"""Playing over the wire: a real websocket client against a live ``wibble serve``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support import Client, LiveServer
from tests.wire import (
    Connect,
    Path_,
    a_word,
    apply_changes,
    committed_view,
    drag,
    expect_error,
    expect_silence,
    final_of,
    is_word,
    new_game,
    play,
    points_on,
    record_of,
    resume_of,
    resume_state,
    state,
    word_on,
    words_on,
)

URLSAFE = re.compile(r"^[A-Za-z0-9_-]+$")


def test_new_game_snapshot_has_every_documented_field(connect: Connect) -> None:
    client = connect()
    game = new_game(client)
    expected = {
        "type": str,
        "game_id": str,
        "token": str,
        "seed": int,
        "wordlist": str,
        "wordlist_title": str,
        "language": str,
        "min_length": int,
        "letters": dict,
        "size": int,
        "board": list,
        "phase": str,
        "chain": list,
        "word": str,
        "points": int,
        "status": str,
        "already_found": bool,
        "total": int,
        "found": list,
        "words_left": int,
        "version": int,
    }
    for name, kind in expected.items():
        assert name in game, name
        assert isinstance(game[name], kind), (name, game[name])
        if kind is not bool:
            assert not isinstance(game[name], bool), (name, game[name])
    assert game["wordlist"] == "en"  # the server's default
    assert game["language"] == "en"
    assert game["wordlist_title"]
    assert game["min_length"] == 3
    assert 0 <= game["seed"] <= 2**53 - 1
    assert game["size"] == 5
    assert len(game["board"]) == 5
    assert all(len(row) == 5 for row in game["board"])
    for row in game["board"]:
        for tile in row:
            assert set(tile) == {"letter", "score"}
            assert tile["letter"] in game["letters"]
            assert tile["letter"] == tile["letter"].upper()
            assert len(tile["letter"]) == 1
            assert tile["score"] == game["letters"][tile["letter"]]["score"]
    for face, entry in game["letters"].items():
        assert face == face.upper()
        assert isinstance(entry["score"], int)
        assert isinstance(entry["weight"], int | float)
    assert game["phase"] == "idle"
    assert game["chain"] == []
    assert game["word"] == ""
    assert game["points"] == 0
    assert game["status"] == "none"
    assert game["already_found"] is False
    assert game["total"] == 0
    assert game["found"] == []
    assert game["words_left"] >= 30  # the server's default minimum; tests/processes/test_board_words.py
    assert game["version"] == 0
    # The token is a secret: url-safe text with at least 128 bits in it, different every game.
    assert URLSAFE.match(game["token"]), game["token"]
    assert len(game["token"]) >= 22, game["token"]
    assert URLSAFE.match(game["game_id"]), game["game_id"]
    others = [new_game(client) for _ in range(3)]
    assert len({g["token"] for g in [game, *others]}) == 4
    assert len({g["game_id"] for g in [game, *others]}) == 4
    assert len({g["seed"] for g in [game, *others]}) == 4


def test_playing_a_word_scores_it_and_replaces_exactly_its_tiles(
    server: LiveServer, connect: Connect
) -> None:
    client = connect()
    game = new_game(client, seed=1234)
    word, path = a_word(game)
    assert len(path) >= 4, word  # long enough to see prefixes on the way
    chains, judged, board = play(client, path)

    for i, message in enumerate(chains, start=1):
        assert message["chain"] == [list(p) for p in path[:i]]
        assert message["word"] == word_on(game, path[:i]) == word[:i].upper()
        assert message["points"] == points_on(game, path[:i])
        prefix = message["word"]
        expected = "word" if i >= game["min_length"] and is_word(prefix) else "prefix"
        assert message["status"] == expected, message
        assert message["already_found"] is False
        # A drag commits nothing: chain messages carry the game's version unchanged.
        assert message["version"] == game["version"] == 0, message
    assert chains[-1]["status"] == "word"

    points = points_on(game, path)
    assert {key: value for key, value in judged.items() if key not in ("changed", "words_left")} == {
        "type": "word",
        "word": word.upper(),
        "result": "scored",
        "points": points,
        "total": points,
        "version": judged["version"],
    }
    # The release is the one committed change: the version grows by exactly one, and the
    # refill of its tiles is part of the same change, in the same message.
    assert judged["version"] == game["version"] + 1
    assert board is judged
    assert isinstance(judged["words_left"], int)
    assert sorted((c["row"], c["col"]) for c in board["changed"]) == sorted(path)
    for change in board["changed"]:
        assert set(change) == {"row", "col", "letter", "score"}
        assert change["score"] == game["letters"][change["letter"]]["score"]
    expect_silence(client, 0.3)

    after = resume_state(connect, game)
    assert after["board"] == apply_changes(game, board)
    untouched = {(r, c) for r in range(5) for c in range(5)} - set(path)
    for r, c in untouched:
        assert after["board"][r][c] == game["board"][r][c]
    assert after["phase"] == "idle"
    assert after["chain"] == []
    assert after["word"] == ""
    assert after["status"] == "none"
    assert after["points"] == 0
    assert after["total"] == points
    assert after["found"] == [{"word": word.upper(), "points": points}]
    assert after["version"] == board["version"]
    # The record holds the move and the same committed state.
    record = record_of(server, game)
    assert record["seed"] == 1234
    assert record["moves"] == [
        {
            "version": judged["version"],
            "path": [list(p) for p in path],
            "word": word,
            "result": "scored",
            "points": points,
            "total": points,
        }
    ]
    assert final_of(record) == committed_view(after)


def test_a_chain_that_is_no_word_is_not_a_word(connect: Connect) -> None:
    client = connect()
    game = new_game(client, seed=77)
    words = {w for w, _ in words_on(game)}
    # Any straight line of three tiles that does not spell a word.
    for r in range(5):
        path = [(r, 0), (r, 1), (r, 2)]
        if word_on(game, path).lower() not in words:
            break
    else:  # pragma: no cover - five rows of words in a row is not this seed
        pytest.fail("no non-word found")
    before = resume_state(connect, game)
    chains, judged, board = play(client, path)
    assert chains[-1]["status"] in {"prefix", "none"}
    assert judged["result"] == "not_a_word"
    assert judged["points"] == 0
    assert judged["total"] == 0
    assert judged["word"] == word_on(game, path)
    assert board is None
    expect_silence(client, 0.3)  # no board message: nothing was replaced
    after = resume_state(connect, game)
    assert after["board"] == before["board"]
    assert after["found"] == []
    assert after["total"] == 0
    assert after["chain"] == []
    assert after["phase"] == "idle"
    # Judging a chain is a committed change even when it scores nothing.
    assert judged["version"] == before["version"] + 1
    assert after["version"] == judged["version"]


@pytest.mark.parametrize("length", [1, 2])
def test_too_short(connect: Connect, length: int) -> None:
    client = connect()
    game = new_game(client, seed=78)
    path = [(0, 0), (1, 1)][:length]
    chains, judged, board = play(client, path)
    assert chains[-1]["status"] != "word"
    assert judged["result"] == "too_short"
    assert judged["points"] == 0
    assert judged["total"] == 0
    assert board is None
    after = resume_state(connect, game)
    assert after["board"] == game["board"]
    assert after["found"] == []
    assert after["phase"] == "idle"


def twice_on_one_board(client: Client) -> tuple[dict[str, Any], str, Path_, Path_]:
    """A seed whose board has one word along two paths that share no tile."""
    for seed in range(1, 300):
        game = new_game(client, seed=seed)
        paths: dict[str, list[Path_]] = {}
        for word, path in words_on(game):
            paths.setdefault(word, []).append(path)
        for word, options in sorted(paths.items()):
            for first in options:
                for second in options:
                    if not set(first) & set(second):
                        return game, word, first, second
    pytest.fail("no seed with a word on the board twice")


def test_the_same_word_again_is_already_found(connect: Connect) -> None:
    client = connect()
    game, word, first, second = twice_on_one_board(client)
    _, judged, board = play(client, first)
    assert judged["result"] == "scored"
    assert board is not None
    total = judged["total"]
    chains, again, board2 = play(client, second)
    assert chains[-1]["word"] == word.upper()
    assert chains[-1]["status"] == "word"
    assert chains[-1]["already_found"] is True
    assert again["result"] == "already_found"
    assert again["points"] == 0
    assert again["total"] == total
    assert board2 is None
    expect_silence(client, 0.3)
    after = resume_state(connect, game)
    assert after["found"] == [{"word": word.upper(), "points": total}]
    assert after["total"] == total
    assert after["board"] == apply_changes(game, board)


def test_backtracking_onto_the_second_to_last_tile_and_cancel(connect: Connect) -> None:
    client = connect()
    game = new_game(client, seed=5)
    a, b, c = (0, 0), (0, 1), (1, 2)
    first = drag(client, [a, b, c])
    back = client.ask({"type": "enter", "row": b[0], "col": b[1]})
    assert back["type"] == "chain"
    assert back["chain"] == [list(a), list(b)]
    assert back["word"] == word_on(game, [a, b])
    assert back["points"] == points_on(game, [a, b])
    back2 = client.ask({"type": "enter", "row": a[0], "col": a[1]})
    assert back2["chain"] == [list(a)]
    assert back2["word"] == word_on(game, [a])
    # Dragging commits nothing: every chain message carries the new game's version, 0.
    assert {m["version"] for m in [*first, back, back2]} == {game["version"]} == {0}
    # With one tile there is nothing to step back to: the tile is simply repeated.
    client.send({"type": "enter", "row": a[0], "col": a[1]})
    expect_error(client, "move/repeated_tile")
    forward = client.ask({"type": "enter", "row": 1, "col": 1})
    assert forward["chain"] == [list(a), [1, 1]]
    # The server holds what the chain messages said. (Asked by the dragger itself: a
    # resume from another connection would take the game over and cancel the chain.)
    mid = state(client.ask(resume_of(game)))
    assert mid["phase"] == "chaining"
    assert mid["chain"] == [list(a), [1, 1]]
    assert mid["word"] == forward["word"]
    assert mid["points"] == forward["points"]
    assert mid["status"] == forward["status"]
    assert mid["version"] == forward["version"]

    cancelled = client.ask({"type": "cancel"})
    assert cancelled == {
        "type": "chain",
        "chain": [],
        "word": "",
        "points": 0,
        "status": "none",
        "already_found": False,
        "version": game["version"],
    }
    after = resume_state(connect, game)
    assert after["phase"] == "idle"
    assert after["chain"] == []
    assert after["board"] == game["board"]
    assert after["version"] == cancelled["version"]
    assert after["total"] == 0
    # Cancelled means idle: a new chain can start.
    assert client.ask({"type": "press", "row": 4, "col": 4})["chain"] == [[4, 4]]


def test_same_seed_same_board_and_same_refills(connect: Connect) -> None:
    one, two = connect(), connect()
    g1 = new_game(one, seed=424242, wordlist="en")
    g2 = new_game(two, seed=424242)
    assert g1["game_id"] != g2["game_id"]
    assert g1["token"] != g2["token"]
    assert g1["seed"] == g2["seed"] == 424242
    assert g1["board"] == g2["board"]
    other = new_game(connect(), seed=424243)
    assert other["board"] != g1["board"]

    snapshot = g1
    for _ in range(3):  # three words in a row: the refills follow the seed each time
        _, path = a_word(snapshot)
        _, j1, b1 = play(one, path)
        _, j2, b2 = play(two, path)
        assert j1 == j2
        assert j1["result"] == "scored"
        assert b1 is not None
        assert b1 == b2
        snapshot = {**snapshot, "board": apply_changes(snapshot, b1)}
    assert resume_state(connect, g1)["board"] == resume_state(connect, g2)["board"] == snapshot["board"]


@pytest.mark.parametrize("seed", [0, 1, 2**53 - 1])
def test_seed_range_ends_are_accepted(connect: Connect, seed: int) -> None:
    game = new_game(connect(), seed=seed)
    assert game["seed"] == seed


def test_null_seed_and_wordlist_mean_the_defaults(connect: Connect) -> None:
    game = new_game(connect(), seed=None, wordlist=None, extra="ignored", more={"x": [1]})
    assert game["wordlist"] == "en"
    assert isinstance(game["seed"], int)


IDLE_CHAIN = {"phase": "idle", "chain": [], "word": "", "points": 0, "status": "none", "already_found": False}


def test_resume_with_the_right_token_gives_the_same_snapshot(connect: Connect) -> None:
    owner = connect()
    game = new_game(owner, seed=99)
    _, path = a_word(game)
    play(owner, path)
    chains = drag(owner, [(0, 0), (0, 1)])
    current = owner.ask(resume_of(game))  # the owner may resume its own game too...
    assert current["phase"] == "chaining"  # ...and its own chain goes on
    assert current["chain"] == chains[-1]["chain"] == [[0, 0], [0, 1]]
    assert len(current["found"]) == 1

    # Another connection with the token takes over at once (a phone on a new network,
    # its old socket still half open): the chain in progress is cancelled for everyone,
    # then the resumer gets the same game, idle.
    taker = connect()
    again = taker.ask({**resume_of(game), "unknown": "fields are ignored"})
    cancelled = owner.recv()
    assert cancelled == {
        "type": "chain",
        "chain": [],
        "word": "",
        "points": 0,
        "status": "none",
        "already_found": False,
        "version": current["version"],
    }
    assert again == {**current, **IDLE_CHAIN}
    assert again["game_id"] == game["game_id"]
    assert again["token"] == game["token"]
    assert again["seed"] == 99
    assert len(again["found"]) == 1
    # The old connection's drag is over; the new one plays at once, and both hear it.
    owner.send({"type": "enter", "row": 1, "col": 1})
    expect_error(owner, "state/not_chaining")
    pressed = taker.ask({"type": "press", "row": 4, "col": 4})
    assert pressed["chain"] == [[4, 4]]
    assert owner.recv() == pressed


def test_a_new_game_leaves_the_old_one_saved_and_resumable(server: LiveServer, connect: Connect) -> None:
    client = connect()
    old = new_game(client, seed=4321)
    _, path = a_word(old)
    _, judged, _ = play(client, path)
    assert judged["result"] == "scored"
    played = state(client.ask(resume_of(old)))
    # "New game" on the same connection: the old game is not discarded...
    fresh = new_game(client, seed=4322)
    assert fresh["game_id"] != old["game_id"]
    assert fresh["version"] == 0
    # ...its record is still there, and its id and token open it as it was left.
    assert final_of(record_of(server, old)) == committed_view(played)
    assert resume_state(connect, old) == played
    # The same connection may go back to it, and then hears it, not the new game.
    watcher = connect()
    watcher.ask(resume_of(fresh))
    assert state(client.ask(resume_of(old))) == played
    pressed = watcher.ask({"type": "press", "row": 0, "col": 0})
    assert pressed["type"] == "chain"
    expect_silence(client, 0.3)


def test_resume_with_a_wrong_token_or_unknown_id(connect: Connect) -> None:
    client = connect()
    game = new_game(client, seed=100)
    other = new_game(connect(), seed=100)
    before = resume_state(connect, game)
    probe = connect()
    token = game["token"]
    # Its last character changed: always to another one (a token ending in "A" once made
    # "replace it with A" the right token, one run in 64).
    one_off = token[:-1] + ("B" if token.endswith("A") else "A")
    cases = [
        ({"game_id": game["game_id"], "token": one_off}, "game/bad_token"),
        ({"game_id": game["game_id"], "token": other["token"]}, "game/bad_token"),
        ({"game_id": game["game_id"], "token": "x"}, "game/bad_token"),
        ({"game_id": game["game_id"], "token": "é" * 20}, "game/bad_token"),
        ({"game_id": "no-such-game", "token": game["token"]}, "game/not_found"),
        ({"game_id": game["game_id"] + "x", "token": game["token"]}, "game/not_found"),
        ({"game_id": game["token"], "token": game["game_id"]}, "game/not_found"),
    ]
    for fields, code in cases:
        probe.send({"type": "resume", **fields})
        reply = expect_error(probe, code)
        assert reply["request"] == "resume"
        assert game["token"] not in reply["message"]
        # A refused resume attaches nothing: moves still have no game.
        probe.send({"type": "press", "row": 0, "col": 0})
        expect_error(probe, "game/none")
    assert resume_state(connect, game) == before


def test_every_change_reaches_every_connection_and_errors_only_the_sender(connect: Connect) -> None:
    a, b = connect(), connect()
    game = new_game(a, seed=2024)
    assert state(b.ask(resume_of(game))) == state(game)
    _, path = a_word(game)

    chains = drag(a, path)
    judged = a.ask({"type": "release"})
    seen_by_b = [b.recv() for _ in range(len(chains) + 1)]
    assert seen_by_b == [*chains, judged]
    assert seen_by_b[-1]["type"] == "word"
    assert seen_by_b[-1]["changed"]  # the refill comes with the word
    expect_silence(b, 0.3)

    # The other way round: b plays, a hears.
    pressed = b.ask({"type": "press", "row": 2, "col": 2})
    assert a.recv() == pressed
    # b's mistake is b's alone.
    b.send({"type": "enter", "row": 0, "col": 0})
    expect_error(b, "move/not_adjacent")
    a.send({"type": "press", "row": 1, "col": 1})
    expect_error(a, "state/already_chaining")
    expect_silence(a, 0.3)
    expect_silence(b, 0.3)
    cancelled = b.ask({"type": "cancel"})
    assert a.recv() == cancelled

    # new_game leaves the old game: b stops hearing a.
    new_game(b)
    a.ask({"type": "press", "row": 0, "col": 0})
    expect_silence(b, 0.3)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "enter", "row": 0, "col": 1},
        {"type": "enter", "row": 1, "col": 1},  # the tile to backtrack to
        {"type": "release"},
        {"type": "cancel"},
        {"type": "press", "row": 4, "col": 4},
    ],
    ids=["enter", "backtrack", "release", "cancel", "press"],
)
def test_only_the_tab_that_pressed_may_drive_the_chain(
    server: LiveServer, connect: Connect, message: dict[str, Any]
) -> None:
    dragger, other = connect(), connect()
    game = new_game(dragger, seed=4040)
    other.ask(resume_of(game))
    chains = drag(dragger, [(1, 1), (1, 2)])
    for chain in chains:
        assert other.recv() == chain
    before = record_of(server, game)
    other.send(message)
    code = "state/already_chaining" if message["type"] == "press" else "state/not_your_chain"
    reply = expect_error(other, code)
    assert reply["request"] == message["type"]
    expect_silence(dragger, 0.3)
    # Nothing was committed (a refused release judges nothing)...
    assert record_of(server, game) == before
    # ...and the chain is untouched: the dragger carries on from it, the other tab hears
    # that and nothing before it.
    moved = dragger.ask({"type": "enter", "row": 2, "col": 2})
    assert moved["chain"] == [[1, 1], [1, 2], [2, 2]]
    assert moved["word"].startswith(chains[-1]["word"])
    assert moved["version"] == chains[-1]["version"]
    assert other.recv() == moved
    # The server holds that chain (asked by the dragger: another connection's resume would take over).
    assert dragger.ask(resume_of(game))["chain"] == moved["chain"]


@pytest.mark.parametrize("how", ["close", "drop"])
def test_a_client_closing_mid_chain_leaves_a_consistent_game(connect: Connect, how: str) -> None:
    leaver, watcher = connect(), connect()
    game = new_game(leaver, seed=31337)
    watcher.ask(resume_of(game))
    path = [(0, 0), (1, 1), (2, 2)]
    chains = drag(leaver, path)
    assert [watcher.recv() for _ in path] == chains
    if how == "close":
        leaver.close()  # a websocket close frame
    else:
        leaver.ws.sock.close()  # the TCP connection just goes
    # The chain was the leaver's: everyone hears it cancelled.
    cancelled = watcher.recv()
    assert cancelled["type"] == "chain"
    assert cancelled["chain"] == []
    assert cancelled["word"] == ""
    assert cancelled["status"] == "none"
    assert cancelled["version"] == chains[-1]["version"] == game["version"]  # nothing was committed
    resumer = connect()
    snap = resumer.ask(resume_of(game))
    assert snap["board"] == game["board"]
    assert snap["phase"] == "idle"
    assert snap["chain"] == []
    assert snap["word"] == ""
    assert snap["points"] == 0
    assert snap["status"] == "none"
    assert snap["total"] == 0
    assert snap["found"] == []
    assert snap["version"] == cancelled["version"]
    # ...and anyone left can play on: a new chain, released and judged.
    _, judged, _ = play(resumer, path[:2])
    assert judged["result"] == "too_short"
    assert watcher.recv()["type"] == "chain"


def test_spanish_list_has_its_own_letters(connect: Connect) -> None:
    client = connect()
    game = new_game(client, wordlist="es", seed=1)
    assert game["wordlist"] == "es"
    assert game["language"] == "es"
    assert "Ñ" in game["letters"]
    assert "K" not in game["letters"]
    assert "W" not in game["letters"]
    with_enye = None
    for seed in range(1, 400):
        board = game["board"] if seed == 1 else new_game(client, wordlist="es", seed=seed)["board"]
        faces = {tile["letter"] for row in board for tile in row}
        assert not faces & {"K", "W"}, faces
        assert faces <= set(game["letters"]), faces
        if "Ñ" in faces:
            with_enye = (seed, board)
            break
    assert with_enye is not None, "no Ñ on 400 Spanish boards"
    seed, board = with_enye
    game = new_game(client, wordlist="es", seed=seed)
    r, c = next((r, c) for r in range(5) for c in range(5) if board[r][c]["letter"] == "Ñ")
    pressed = client.ask({"type": "press", "row": r, "col": c})
    assert pressed["word"] == "Ñ"
    assert pressed["points"] == game["letters"]["Ñ"]["score"]


def test_a_spanish_word_scores(connect: Connect) -> None:
    client = connect()
    game = new_game(client, wordlist="es", seed=8)
    word, path = a_word(game, "es")
    _, judged, board = play(client, path)
    assert judged["result"] == "scored"
    assert judged["word"] == word.upper()
    assert judged["points"] == points_on(game, path)
    assert board is not None


def test_live_server_fixture_is_up(server: LiveServer) -> None:
    assert server.alive()
