"""The HTTP side: the page, the health check, a game's record and its replay."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.live.players import Player
from tests.support import WORDS
from tests.web.conftest import AppFactory
from wibble import protocol
from wibble.core import Pos, Record, differences, replay
from wibble.core.daily import KEY_DOC_ID
from wibble.core.match import MatchRecord, match_differences, replay_match
from wibble.core.race import Race, Runner
from wibble.live import records
from wibble.live.rooms import room_id

LIST = "en-easy"


def play_some(player: Player, words: int = 3) -> tuple[dict[str, Any], list[Any], list[dict[str, Any]]]:
    """A game with ``words`` words scored and a non-word tried between; returns its snapshot,
    the board before each release, and the ``word`` frames."""
    snapshot = player.new_game(seed=21, wordlist=LIST)
    boards, judged = [], []
    for n in range(words):
        path = player.a_word()
        if n == 1:
            boards.append(protocol.board(player.game))
            player.drag(path[:2])  # too short
            judged.append(player.send(type="release")[0])
        boards.append(protocol.board(player.game))
        player.drag(path)
        judged.append(player.send(type="release")[0])
    assert all(frame["type"] == "word" for frame in judged)
    assert [frame["result"] for frame in judged].count("scored") == words
    return snapshot, boards, judged


def test_the_page_is_served_with_the_lists_to_choose_from(client: FlaskClient) -> None:
    page = client.get("/")

    assert page.status_code == 200
    assert page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "<title>Wibble</title>" in html
    config = json.loads(
        html.split('<script id="wibble-config" type="application/json">')[1].split("</script>")[0]
    )
    assert {"en", "en-easy", "es"} <= {entry["name"] for entry in config["wordlists"]}
    assert config["default_wordlist"] == "en"
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]


def test_the_health_check_says_the_server_is_up_and_how_games_are_kept(
    app: Flask, client: FlaskClient, player: Player, tmp_path: Path
) -> None:
    before = client.get("/healthz").get_json()
    player.new_game(wordlist=LIST)
    after = client.get("/healthz").get_json()

    assert before["ok"] is True
    assert (before["games"], after["games"]) == (0, 1)
    assert before["store"] == "sqlite"
    assert str(tmp_path) not in str(before)  # never where: that is the host's business


def test_a_games_record_replays_to_where_the_game_stands(
    app: Flask, client: FlaskClient, player: Player
) -> None:
    snapshot, _, judged = play_some(player)

    response = client.get(f"/games/{snapshot['game_id']}/record")

    assert response.status_code == 200
    record = Record.from_doc(response.get_json())
    assert [move.result.value for move in record.moves] == [frame["result"] for frame in judged]
    assert [move.total for move in record.moves] == [frame["total"] for frame in judged]
    again = replay(record, app.extensions["wibble.wordlists"].get(record.wordlist))
    assert differences(again, record.final) is None
    assert again.to_doc()["board"] == player.game.to_doc()["board"]
    assert (again.total, again.version) == (player.game.total, player.game.version)


def test_a_record_never_holds_the_games_token(client: FlaskClient, player: Player) -> None:
    snapshot, _, _ = play_some(player, words=1)

    text = client.get(f"/games/{snapshot['game_id']}/record").get_data(as_text=True)

    assert snapshot["token"] not in text
    assert "token" not in text


def test_a_new_games_record_has_no_moves_and_replays(app: Flask, client: FlaskClient, player: Player) -> None:
    snapshot = player.new_game(wordlist=LIST)

    record = Record.from_doc(client.get(f"/games/{snapshot['game_id']}/record").get_json())

    assert record.moves == ()
    words = app.extensions["wibble.wordlists"].get(LIST)
    assert differences(replay(record, words), record.final) is None


@pytest.mark.parametrize("endpoint", ["record", "replay"])
def test_an_unknown_game_is_a_404_with_a_json_error(client: FlaskClient, endpoint: str) -> None:
    response = client.get(f"/games/nope/{endpoint}")

    assert response.status_code == 404
    assert response.is_json
    assert response.get_json()["code"] == "game/not_found"
    assert response.get_json()["type"] == "error"


def test_a_replay_shows_the_board_before_each_move_and_the_move(client: FlaskClient, player: Player) -> None:
    snapshot, boards, judged = play_some(player)

    response = client.get(f"/games/{snapshot['game_id']}/replay")

    assert response.status_code == 200
    replayed = response.get_json()
    assert (replayed["game_id"], replayed["wordlist"], replayed["seed"]) == (snapshot["game_id"], LIST, 21)
    assert len(replayed["frames"]) == len(judged)
    assert [frame["board"] for frame in replayed["frames"]] == boards
    assert boards[0] == snapshot["board"]
    assert [frame["move"]["word"] for frame in replayed["frames"]] == [frame["word"] for frame in judged]
    assert [frame["move"]["points"] for frame in replayed["frames"]] == [frame["points"] for frame in judged]
    assert replayed["final"] == {"board": protocol.board(player.game), "total": player.game.total}


def test_a_race_s_replay_page_is_the_race_s_and_its_replay_waits_for_the_end(
    app: Flask, client: FlaskClient
) -> None:
    """A race's id opens the race's replay page; while the race runs, its replay and record are
    a typed refusal the page reads out (tests/live/test_race_replay.py plays one to its end)."""
    race = Race("race-1", "ABCDE", 7, LIST, 60, 1000.0, [Runner(0, "Ann", "human", None, "game-1")])
    app.extensions["wibble.store"].create(race.race_id, "race", race.to_doc(), 1000.0)

    page = client.get(f"/replay/{race.race_id}").get_data(as_text=True)

    assert "race_replay.js" in page
    assert "match_replay.js" not in page
    for endpoint in ("replay", "record"):
        response = client.get(f"/games/{race.race_id}/{endpoint}")
        assert response.status_code == 409
        assert response.get_json()["code"] == "record/in_progress"
        assert "ABCDE" not in response.get_data(as_text=True)  # (nor its room's code)


def test_a_replay_link_that_names_no_game_gets_a_page_of_its_own(client: FlaskClient) -> None:
    page = client.get("/replay/some-game")

    assert page.status_code == 404
    text = page.get_data(as_text=True)
    assert "No such game" in text
    assert "Play a game of your own" in text
    assert 'data-action="play"' not in text  # nothing to play: no replay controls
    assert "some-game" not in text  # (the link's text is not echoed back)


def test_a_game_whose_list_is_gone_still_has_its_record_but_no_replay(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """The host restarted the server with a folder that no longer has the game's list."""
    before, after = tmp_path / "before", tmp_path / "after"
    for folder in (before, after):
        folder.mkdir()
        for suffix in (".txt", ".toml"):
            shutil.copy(WORDS / f"{LIST}{suffix}", folder / f"{LIST}{suffix}")
    (before / "pets.txt").write_text("cat\ndog\nrat\ntoad\ngoat\n", encoding="utf-8")
    first = make_app(WORDS_DIR=str(before), MIN_BOARD_WORDS=0)
    pets = Player(first.extensions["wibble.live"])
    snapshot = pets.new_game(wordlist="pets")
    first.extensions["wibble.store"].close()

    restarted = make_app(WORDS_DIR=str(after)).test_client()

    assert restarted.get(f"/games/{snapshot['game_id']}/record").status_code == 200
    response = restarted.get(f"/games/{snapshot['game_id']}/replay")
    assert response.status_code == 409
    assert response.get_json()["code"] == "game/unavailable"


def test_a_game_whose_list_changed_since_has_a_record_that_no_longer_replays(
    make_app: AppFactory, tmp_path: Path
) -> None:
    before, after = tmp_path / "before", tmp_path / "after"
    for folder, words in ((before, "cat\ndog\nrat\n"), (after, "cat\ndog\nrat\ngoat\n")):
        folder.mkdir()
        (folder / "pets.txt").write_text(words, encoding="utf-8")
    first = make_app(WORDS_DIR=str(before), MIN_BOARD_WORDS=0)
    snapshot = Player(first.extensions["wibble.live"]).new_game(wordlist="pets")
    first.extensions["wibble.store"].close()

    response = make_app(WORDS_DIR=str(after)).test_client().get(f"/games/{snapshot['game_id']}/replay")

    assert response.status_code == 409
    assert response.get_json()["code"] == "record/wordlist_changed"


# -- games damaged in the store ----------------------------------------------------------------


def damage(app: Flask, sql: str, *args: Any) -> None:
    """Change the database behind the server's back, as a failing disk or a careless hand would."""
    store = app.extensions["wibble.store"]
    with closing(sqlite3.connect(store.path)) as db, db:
        db.execute(sql, args)


@pytest.mark.parametrize(
    "move",
    ["garbage", json.dumps({"version": 1, "path": "a1", "word": "x"})],
    ids=["not-json", "not-a-move"],
)
@pytest.mark.parametrize("endpoint", ["record", "replay"])
def test_a_game_whose_stored_moves_are_damaged_is_unavailable(
    app: Flask, client: FlaskClient, player: Player, move: str, endpoint: str
) -> None:
    snapshot, _, _ = play_some(player, words=1)
    damage(app, "UPDATE records SET move = ?", move)

    response = client.get(f"/games/{snapshot['game_id']}/{endpoint}")

    assert (response.status_code, response.get_json()["code"]) == (409, "game/unavailable")


@pytest.mark.parametrize(
    ("field", "value"),
    [("seed", "x"), ("size", "5")],
)
def test_a_game_whose_stored_document_is_damaged_is_unavailable_and_never_a_server_error(
    app: Flask, client: FlaskClient, player: Player, field: str, value: Any
) -> None:
    snapshot = player.new_game(wordlist=LIST)
    doc = player.game.to_doc()
    damage(app, "UPDATE documents SET doc = ?", json.dumps({**doc, field: value}))

    replayed = client.get(f"/games/{snapshot['game_id']}/replay")
    record = client.get(f"/games/{snapshot['game_id']}/record")

    assert (replayed.status_code, replayed.is_json) == (409, True)
    assert replayed.get_json()["code"] == "game/unavailable"
    # The record is refused too, or else it is one that reads back as a record.
    if record.status_code == 200:
        Record.from_doc(record.get_json())
    else:
        assert (record.status_code, record.get_json()["code"]) == (409, "game/unavailable")


def test_a_matchs_record_has_its_moves_and_never_a_token(client: FlaskClient, app: Flask) -> None:
    """A match is saved like a game: its record lists every committed move. Until it is over, the
    record keeps the seed and the draw counts secret: they tell every tile to come; and its
    replay, played from that record, waits for the end too."""
    player = Player(app.extensions["wibble.live"])
    [snapshot] = player.send(type="new_match", bots=[{"level": "easy"}], seed=5)
    player.send(type="pass")

    record = client.get(f"/games/{snapshot['match_id']}/record")
    assert record.status_code == 200
    doc = record.get_json()
    assert doc["kind"] == "match"
    assert doc["seed"] is None
    assert not {"seed", "draws", "bot_draws"} & set(doc["final"])
    assert [move["action"] for move in doc["moves"]] == ["pass"]
    assert [seat["kind"] for seat in doc["seats"]] == ["human", "bot"]
    assert snapshot["token"] not in record.get_data(as_text=True)
    assert "tokens" not in doc["final"]
    replay = client.get(f"/games/{snapshot['match_id']}/replay")
    assert replay.status_code == 409
    assert replay.get_json()["code"] == "record/in_progress"
    assert set(replay.get_json()) == {"type", "code", "message"}  # nothing of the match in it


# -- a match's replay --------------------------------------------------------------------------


def play_a_match(app: Flask) -> tuple[str, list[Any]]:
    """One seat, three rounds, no pause between them: a shuffle and the word over the most gems,
    a pass, a hint and the best word. Returns the match's id and every frame its player got."""
    live = app.extensions["wibble.live"]
    player = Player(live)
    [snapshot] = player.send(type="new_match", wordlist=LIST, seed=5, rounds=3, bots=[])
    held = live.matches.get(snapshot["match_id"])
    assert held is not None
    match = held.match

    def play(path: Sequence[Pos]) -> None:
        player.drag(path)
        assert player.send(type="release")[0]["type"] == "played"

    assert player.send(type="shuffle")[-1] == {"type": "gems", "seat": 0, "gems": 2, "version": 1}
    gems = match.specials.gems
    play(max(match.solve(), key=lambda found: (len(gems.intersection(found.path)), found.score)).path)
    player.send(type="pass")
    assert match.seats[0].gems >= 4, "the word over the most gems earns enough for a hint"
    assert player.send(type="hint")[0]["type"] == "hint"
    best = match.best()
    assert best is not None
    play(best.path)
    return snapshot["match_id"], player.frames


def test_a_finished_matchs_replay_has_each_move_with_its_board_and_ends_as_the_end_screen(
    make_app: AppFactory,
) -> None:
    app = make_app(ROUND_PAUSE_SECONDS=0)
    match_id, frames = play_a_match(app)
    [over] = [frame for frame in frames if frame["type"] == "match_over"]
    hinted = next(frame for frame in frames if frame["type"] == "hint")
    played = [frame for frame in frames if frame["type"] == "played"]

    response = app.test_client().get(f"/games/{match_id}/replay")

    assert response.status_code == 200
    replayed = response.get_json()
    assert (replayed["kind"], replayed["match_id"], replayed["seed"]) == ("match", match_id, 5)
    assert [seat["name"] for seat in replayed["seats"]] == ["You"]
    steps = replayed["steps"]
    assert [step["action"] for step in steps] == ["shuffle", "play", "pass", "hint", "play"]
    assert [step["round"] for step in steps] == [1, 1, 2, 3, 3]
    # Every turn as the end screen has it: what was played, and the best word beside it.
    ends = [step for step in steps if "ended" in step]
    assert [step["ended"] for step in ends] == [turn["ended"] for turn in over["turns"]]
    assert [step["best"] for step in ends] == [turn["best"] for turn in over["turns"]]
    plays = [step for step in steps if step["action"] == "play"]
    assert [{k: p[k] for k in ("word", "path", "points", "breakdown")} for p in plays] == [
        {k: p[k] for k in ("word", "path", "points", "breakdown")} for p in played
    ]
    assert [p["gems_earned"] for p in plays] == [p["gems_earned"] for p in played]
    assert [p["scores"] for p in plays] == [[p["score"]] for p in played]
    for step in plays:  # each word is read off the board as it stood when it was played
        assert "".join(step["board"][r][c]["letter"] for r, c in step["path"]) == step["word"]
        assert [mark["letter"] for mark in step["marks"]] == list(step["word"])
    assert steps[3]["hint"] == {key: hinted[key] for key in ("word", "path", "points")}
    assert [step["gems"] for step in steps[:1]] == [[2]]  # the shuffle's gem
    assert replayed["final"]["ranking"] == over["ranking"]
    assert replayed["final"]["best_words"] == over["best_words"]
    assert replayed["final"]["scores"] == [over["ranking"][0]["score"]]


def test_a_finished_matchs_replay_is_computed_once_and_kept_while_its_record_stays(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(ROUND_PAUSE_SECONDS=0)
    match_id, _ = play_a_match(app)
    client = app.test_client()
    first = client.get(f"/games/{match_id}/replay")

    def no_second_replay(*_: Any) -> Any:
        raise AssertionError("a finished match was replayed again")

    monkeypatch.setattr(records, "match_replay", no_second_replay)
    again = client.get(f"/games/{match_id}/replay")

    assert (first.status_code, again.status_code) == (200, 200)
    assert again.get_json() == first.get_json()
    assert again.mimetype == "application/json"
    app.extensions["wibble.store"].delete(match_id)
    assert client.get(f"/games/{match_id}/replay").status_code == 404  # the record is read every time


def test_a_finished_matchs_record_replays_with_the_cli_check_too(make_app: AppFactory) -> None:
    app = make_app(ROUND_PAUSE_SECONDS=0)
    match_id, _ = play_a_match(app)
    doc = app.test_client().get(f"/games/{match_id}/record").get_json()

    record = MatchRecord.from_doc(doc)
    again = replay_match(record, app.extensions["wibble.wordlists"].get(LIST))

    assert doc["seed"] == 5
    assert match_differences(again, record.final) is None


def test_a_match_replay_whose_stored_record_does_not_replay_is_refused_not_shown(
    make_app: AppFactory,
) -> None:
    app = make_app(ROUND_PAUSE_SECONDS=0)
    match_id, _ = play_a_match(app)
    damage(
        app,
        "UPDATE records SET move = ? WHERE version = 3",  # the first word (the next round began with it)
        json.dumps({"version": 3, "seat": 0, "action": "play", "word": "zzz", "points": 1, "path": [[0, 0]]}),
    )

    response = app.test_client().get(f"/games/{match_id}/replay")

    assert (response.status_code, response.get_json()["code"]) == (409, "record/mismatch")


def test_the_replay_page_of_a_match_is_the_match_replay_page(make_app: AppFactory) -> None:
    app = make_app(ROUND_PAUSE_SECONDS=0)
    match_id, _ = play_a_match(app)
    client = app.test_client()
    game = Player(app.extensions["wibble.live"]).new_game(wordlist=LIST)

    match_page = client.get(f"/replay/{match_id}").get_data(as_text=True)
    game_page = client.get(f"/replay/{game['game_id']}").get_data(as_text=True)

    assert "js/match_replay.js" in match_page
    assert match_id in match_page
    assert "js/replay.js" in game_page
    assert "js/match_replay.js" not in game_page


def page_config(page: Any) -> dict[str, Any]:
    html = page.get_data(as_text=True)
    config: dict[str, Any] = json.loads(
        html.split('<script id="wibble-config" type="application/json">')[1].split("</script>")[0]
    )
    return config


def test_a_rooms_link_tells_the_page_whether_the_room_exists(app: Flask, client: FlaskClient) -> None:
    """A code of the wrong shape, or one no stored room has, is said at once (the page then asks
    no name); a room that exists is joined as before."""
    host = Player(app.extensions["wibble.live"])
    [room] = [frame for frame in host.send(type="create_room", name="Ann") if frame["type"] == "room"]
    code = room["code"]

    found = page_config(client.get(f"/r/{code.lower()}"))
    assert found["room"] == code
    assert "room_gone" not in found
    for link in ("/r/ZZZZZZ", "/r/nope", "/r/K7QX2M0"):
        config = page_config(client.get(link))
        assert config["room_gone"] is True, link
        assert config["room"] == link[3:].upper()


def test_the_replay_page_is_no_way_to_tell_an_open_rooms_code_from_none(
    app: Flask, client: FlaskClient
) -> None:
    """A room has no replay: its id answers as no game at all, as a code that names nothing
    does (else anyone could try codes here, past the failed joins' budget, and watch a room found)."""
    host = Player(app.extensions["wibble.live"])
    [room] = [frame for frame in host.send(type="create_room", name="Ann") if frame["type"] == "room"]
    opened = client.get(f"/replay/{room_id(room['code'])}")
    nothing = client.get(f"/replay/{room_id('ZZZZZZ')}")
    assert opened.status_code == nothing.status_code == 404
    assert opened.get_data() == nothing.get_data()
    assert client.get(f"/games/{room_id(room['code'])}/record").status_code == 404


def test_the_hosts_daily_key_is_served_to_nobody(app: Flask, client: FlaskClient) -> None:
    """The key that draws the daily boards is a document in the store, as games are: no page or
    record gives it away (it would tell every board to come)."""
    ann = Player(app.extensions["wibble.live"])
    assert [frame["type"] for frame in ann.send(type="new_daily", player="ann-" + "a" * 28, name="Ann")] == [
        "game"
    ]
    assert app.extensions["wibble.store"].load(KEY_DOC_ID) is not None
    for url in (f"/replay/{KEY_DOC_ID}", f"/games/{KEY_DOC_ID}/record"):
        answer = client.get(url)
        assert answer.status_code == 404, url
        assert b"secret" not in answer.get_data()


def test_a_rooms_link_is_no_way_round_the_failed_joins_budget(make_app: AppFactory) -> None:
    """Codes that name no room count as failed joins from the address; once its budget is spent,
    a link tells nothing more (the join is refused as before) and the websocket's join is refused too."""
    app = make_app(FAILED_JOINS_PER_MINUTE=2)
    client = app.test_client()
    told = [
        "room_gone" in page_config(client.get(link, environ_base={"REMOTE_ADDR": "192.0.2.7"}))
        for link in ("/r/nope", "/r/ZZZZZZ", "/r/ZZZZZY", "/r/ZZZZZX")
    ]
    # The wrong shape costs nothing (anyone can tell it from the code); two misses spend the budget.
    assert told == [True, True, True, False]
    other = page_config(client.get("/r/ZZZZZX", environ_base={"REMOTE_ADDR": "192.0.2.8"}))
    assert other["room_gone"] is True
    guesser = Player(app.extensions["wibble.live"], address="192.0.2.7")
    [refused] = guesser.send(type="join_room", code="ZZZZZW", name="Cy")
    assert refused["code"] == "limit/joins"
