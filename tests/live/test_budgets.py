"""What one address may cost the server: new games and failed resumes, each on its own budget."""

from __future__ import annotations

import pytest

from tests.live.players import LIST, FakeClock, Live, LiveFactory, errors
from wibble.live.budgets import Limits

GAMES_PER_MINUTE = 3
FAILED_RESUMES_PER_MINUTE = 2
ME, SOMEONE_ELSE = "198.51.100.7", "203.0.113.9"


@pytest.fixture
def live(make_live: LiveFactory) -> Live:
    return make_live(
        limits=Limits(
            connections_per_address=50,
            games_per_minute=GAMES_PER_MINUTE,
            failed_resumes_per_minute=FAILED_RESUMES_PER_MINUTE,
            board_builds_per_second=1000,
        )
    )


def new_game_codes(live: Live, address: str, count: int) -> list[str]:
    player = live.player(address)
    codes: list[str] = []
    for seed in range(count):
        [frame] = player.send(type="new_game", wordlist=LIST, seed=seed)
        codes.append(frame["code"] if frame["type"] == "error" else frame["type"])
    return codes


def test_past_its_budget_an_address_gets_no_more_new_games(live: Live) -> None:
    codes = new_game_codes(live, ME, GAMES_PER_MINUTE + 1)

    assert codes == ["game"] * GAMES_PER_MINUTE + ["limit/games"]
    assert live.store.count() == GAMES_PER_MINUTE  # the refused one was never built nor saved


def test_one_address_spending_its_budget_leaves_others_theirs(live: Live) -> None:
    new_game_codes(live, ME, GAMES_PER_MINUTE + 1)

    assert new_game_codes(live, SOMEONE_ELSE, GAMES_PER_MINUTE) == ["game"] * GAMES_PER_MINUTE


def test_the_games_budget_comes_back_with_time(live: Live, clock: FakeClock) -> None:
    new_game_codes(live, ME, GAMES_PER_MINUTE + 1)

    clock.advance(60 / GAMES_PER_MINUTE)  # one game's worth

    assert new_game_codes(live, ME, 2) == ["game", "limit/games"]


def test_after_too_many_failed_resumes_even_the_right_token_is_refused_until_time_passes(
    live: Live, clock: FakeClock
) -> None:
    owner = live.player(SOMEONE_ELSE)
    game = owner.new_game()
    guesser = live.player(ME)

    failures = [
        guesser.resume(game["game_id"], "wrong-token"),
        guesser.resume("no-such-game", game["token"]),
    ]
    refused = guesser.resume(game["game_id"], game["token"])

    assert [errors(f) for f in failures] == [["game/bad_token"], ["game/not_found"]]
    assert errors(refused) == ["limit/resumes"]
    assert guesser.session.game is None

    assert errors(live.player(SOMEONE_ELSE).resume(game["game_id"], game["token"])) == []

    clock.advance(60 / FAILED_RESUMES_PER_MINUTE)
    [snapshot] = guesser.resume(game["game_id"], game["token"])
    assert snapshot["type"] == "game"


def test_successful_resumes_cost_nothing(live: Live) -> None:
    game = live.player(ME).new_game()

    frames = [
        live.player(ME).resume(game["game_id"], game["token"]) for _ in range(FAILED_RESUMES_PER_MINUTE * 3)
    ]

    assert all(f[0]["type"] == "game" for f in frames)


def test_a_busy_server_refusing_a_new_game_costs_the_address_nothing(
    make_live: LiveFactory, clock: FakeClock
) -> None:
    """The audit's figures: 5 games a minute per address, 1 board build a second for everyone.

    Six new games at once used to give one game, four ``server/busy`` and then
    ``limit/games``, and still ``limit/games`` once the builds had refilled: every
    refusal had spent the address's budget, so a client retrying as told burned it.
    """
    live = make_live(limits=Limits(connections_per_address=50, games_per_minute=5, board_builds_per_second=1))

    assert new_game_codes(live, ME, 6) == ["game"] + ["server/busy"] * 5

    for _ in range(4):  # each retry, once the server has a build to spare, gets its game
        clock.advance(1)
        assert new_game_codes(live, ME, 1) == ["game"]
    clock.advance(1)
    assert new_game_codes(live, ME, 1) == ["limit/games"]  # five games within the minute, as set


@pytest.mark.parametrize(
    "refused",
    [
        {"type": "new_game", "wordlist": "no-such-list"},
        {"type": "new_match", "wordlist": "no-such-list", "bots": [{"level": "easy"}]},
    ],
)
def test_a_new_game_or_match_refused_for_its_word_list_costs_no_budget(
    live: Live, refused: dict[str, object]
) -> None:
    player = live.player(ME)
    for _ in range(GAMES_PER_MINUTE + 2):
        assert errors(player.send(**refused)) == ["game/unknown_wordlist"]

    assert new_game_codes(live, ME, GAMES_PER_MINUTE) == ["game"] * GAMES_PER_MINUTE


def test_a_server_full_of_games_refuses_a_new_one_without_spending_the_budget(make_live: LiveFactory) -> None:
    live = make_live(limits=Limits(games_per_minute=GAMES_PER_MINUTE), max_games=1)
    holder = live.player(SOMEONE_ELSE)
    holder.new_game()  # connected: it cannot be let go to make room
    player = live.player(ME)
    for _ in range(GAMES_PER_MINUTE + 2):
        assert errors(player.send(type="new_game", wordlist=LIST)) == ["server/full"]

    holder.leave()  # now its game may leave memory (it stays saved)
    # Five refusals against a budget of three: had they cost anything, this would be limit/games.
    assert player.send(type="new_game", wordlist=LIST)[0]["type"] == "game"
