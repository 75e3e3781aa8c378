"""A match against a bot, then its replay, reached from the end screen: stepped through with the
buttons and the arrow keys, it shows every turn's word and points as the end screen listed them,
and ends on the scores the end screen ranked."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_match import BOT, MatchPage, match_page, match_server  # noqa: F401 (fixtures)
from wibble.core import Trie

pytestmark = pytest.mark.e2e

TURN_ENDS = ("play", "pass", "timeout", "away")


def number(text: str) -> int:
    return int(re.findall(r"\d+", text)[0])


def test_a_matchs_replay_steps_through_every_turn_and_ends_on_the_end_screens_scores(
    match_page: MatchPage,  # noqa: F811
    en_trie: Trie,
) -> None:
    game, page = match_page, match_page.page
    game.start(rounds=2)

    # Round 1: a shuffle, then a word. Round 2: a pass. The bot plays its own turns.
    game.power("Shuffle").click()
    game.wait_my_turn()
    word, path, _ = game.gem_word(en_trie)
    game.drag(path)
    game.saw("breakdown", f"You played {word.upper()}: ")  # (the bot's word may follow at once)
    game.wait_my_turn()
    expect(game.round).to_have_text("Round 2 of 2")
    game.power("Pass").click()
    expect(game.body).to_have_attribute("data-screen", "over", timeout=20_000)
    match_id = game.match_id()

    # What the end screen says: every turn, and the scores it ranks.
    turns = page.get_by_test_id("turns").locator("li")
    expect(turns).to_have_count(4)
    ended = [
        (
            item.locator(".turn-who").inner_text(),
            item.locator(".turn-played").inner_text(),
            item.locator(".turn-best").inner_text(),
        )
        for item in turns.all()
    ]
    ranking = page.get_by_test_id("ranking").locator("li")
    scores = {
        item.locator(".rank-name").inner_text(): int(
            re.findall(r"\d+", item.locator(".rank-score").inner_text())[0]
        )
        for item in ranking.all()
    }
    assert set(scores) == {"You", BOT}

    # "Your games" links the replay of the match on screen, as the end screen does.
    expect(page.get_by_test_id("replay-link")).to_have_attribute("href", f"/replay/{match_id}")
    page.get_by_test_id("match-over").get_by_role("link", name="Watch the replay, step by step").click()

    expect(page).to_have_url(re.compile(f"/replay/{match_id}$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    step = page.get_by_test_id("replay-step")
    steps = page.get_by_test_id("replay-steps").locator("[data-step]")
    count = steps.count()
    expect(step).to_have_text(f"Step 1 of {count}")
    actions = steps.evaluate_all("els => els.map(e => e.dataset.action)")
    assert actions[0] == "shuffle"
    assert actions.count("shuffle") >= 1
    assert [a for a in actions if a in ("play", "pass", "timeout", "away")] == [
        "play",
        "play",
        "pass",
        "play",
    ]
    expect(page.get_by_test_id("replay-seats").locator(".seat-score")).to_have_text(["0 points", "0 points"])

    # Step through it all, the buttons and the arrow keys in turn, reading each turn's end.
    seen = []
    for index in range(count):
        expect(step).to_have_text(f"Step {index + 1} of {count}")
        expect(steps.nth(index)).to_have_attribute("aria-current", "step")
        if actions[index] in TURN_ENDS:
            who = page.get_by_test_id("replay-action").inner_text()
            shown_word = page.get_by_test_id("replay-word").inner_text()
            shown_points = page.get_by_test_id("replay-points").inner_text()
            best = page.get_by_test_id("replay-best-text").inner_text()
            seen.append((who, shown_word, shown_points, best))
            if actions[index] == "play":
                expect(page.get_by_test_id("replay-board").locator(".tile.selected")).to_have_count(
                    len(shown_word)
                )
                expect(page.get_by_test_id("replay-breakdown")).to_contain_text("letters")
        if index % 2:
            page.keyboard.press("ArrowRight")
        else:
            page.get_by_test_id("replay-next").click()

    assert len(seen) == len(ended)
    for (who, shown_word, shown_points, best), (turn_who, played, turn_best) in zip(seen, ended, strict=True):
        assert who.split()[0] == turn_who.split("·")[-1].strip()
        if played == "Passed":
            assert (shown_word, shown_points, who) == ("", "", "You passed")
        else:
            assert played == f"{shown_word} {shown_points.lstrip('+')} pts"
        assert best.startswith(turn_best)

    # The end: the last board, and every seat's score as the end screen ranked them.
    expect(step).to_have_text(f"End of the match: {count} steps")
    end = page.get_by_test_id("replay-end")
    expect(end).to_be_visible()
    seats = page.get_by_test_id("replay-seats").locator("li")
    shown = {
        seat.locator(".seat-name").inner_text(): int(seat.locator(".seat-score span").first.inner_text())
        for seat in seats.all()
    }
    assert shown == scores
    expect(end.locator(".rank-score")).to_have_text(
        [f"{score} pts" for score in sorted(scores.values(), reverse=True)]
    )
    expect(page.get_by_test_id("replay-next")).to_be_disabled()

    # Back one step with the keyboard; Start; and from two steps before the end (a step lasts 1.4 s)
    # Play runs on to the end by itself.
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Step {count} of {count}")
    page.get_by_role("button", name="Start").click()
    expect(step).to_have_text(f"Step 1 of {count}")
    page.get_by_test_id("replay-last").click()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Step {count - 1} of {count}")
    page.get_by_test_id("replay-play").click()
    expect(page.get_by_test_id("replay-play")).to_have_text("Pause")
    expect(step).to_have_text(f"End of the match: {count} steps", timeout=3 * 2_000 + 5_000)
    expect(page.get_by_test_id("replay-play")).to_have_text("Play")
