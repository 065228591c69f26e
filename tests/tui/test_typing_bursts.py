"""The editor's keys give the same board whatever their timing: typed slowly, in one burst (a
fast typist, a laggy SSH link, tmux ``send-keys -l``) or pasted (a bracketed paste).

A burst is posted to the app at once, as the terminal driver does with what one read brought;
"slowly" is a key, then 80 ms, then the next, as a person types.
"""

from __future__ import annotations

import asyncio
from itertools import chain

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from textual import events

from tests.support.tui import KeyedApp, burst, one_by_one, toasts, until

#: Two of the issue's bursts and what they set up: ``/`` turns to Black's men after White's.
ISSUE_BURSTS = [
    ("Kb6 c6/", "8/8/1KP5/8/8/8/8/8"),
    ("Kb6 c6/Ka1 Rd5", "8/8/1KP5/3r4/8/8/8/k7"),
]


@pytest.mark.parametrize(("typed", "placement"), ISSUE_BURSTS)
async def test_m_reads_men_typed_in_one_burst_in_the_order_they_came(typed, placement):
    """Fails before: ``/`` was read as it passed the screen, before the men typed ahead of it:
    ``Kb6 c6/`` gave two Black men."""
    app = KeyedApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, ["c", "m"])
        await burst(pilot, [*typed])
        assert app.editor.setup.board.board_fen() == placement


async def test_a_figurine_typed_ahead_after_m_waits_for_its_turn():
    """``m`` then ``♔b6`` in one burst: the figurine is no key's binding, yet it types a White
    king as it does when typed slowly (before, it came before ``m`` had acted and was lost)."""
    app = KeyedApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, ["m"])
        await burst(pilot, ["♔", "b", "6", "enter"])
        assert app.editor.setup.board.board_fen() == "8/8/1K6/8/8/8/8/8"


async def test_a_key_no_man_has_typed_ahead_after_m_is_said():
    """Fails before: ``m`` and ``Kz9`` in one burst: z came before m had acted and vanished."""
    app = KeyedApp()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await burst(pilot, ["m", "K", "z", "9"])
        await until(pilot, lambda: toasts(app))
        assert "'z' after K: expected a file (a-h)" in toasts(app)[0]
        assert not app.editor.setup.board.occupied


@pytest.mark.parametrize("typing", [False, True], ids=["on the board", "after m"])
async def test_a_pasted_printed_piece_list_sets_the_position_up(typing):
    """Fails before: a bracketed paste placed nothing and said nothing."""
    app = KeyedApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, ["m"] if typing else [])
        app.post_message(events.Paste("White: Kb6, Pc6. Black: Ka1, Rd5. +"))
        await until(pilot, lambda: app.editor.setup.board.occupied)
        assert app.editor.setup.board.board_fen() == "8/8/1KP5/3r4/8/8/8/k7"
        assert app.editor.setup.stipulation == "+"
        assert app.editor.typing is None  # the position is set up: typing men is over


async def test_a_paste_of_some_men_after_m_types_them():
    app = KeyedApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, ["c", "m", "K", "a", "1", "space"])
        app.post_message(events.Paste("Kb6 c6"))
        await until(pilot, lambda: len(app.editor.setup.board.piece_map()) == 3)
        assert app.editor.setup.board.board_fen() == "8/8/1KP5/8/8/8/8/K7"
        assert app.editor.typing is not None


async def test_a_huge_paste_is_refused_at_once():
    app = KeyedApp()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await burst(pilot, ["m"])
        app.post_message(events.Paste("Kb6 " * 500))  # 2,000 characters
        await until(pilot, lambda: toasts(app))
        assert "too long for a position: at most 1000 characters" in toasts(app)[0]
        assert not app.editor.setup.board.occupied


async def test_a_paste_that_is_no_position_is_said():
    app = KeyedApp()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.post_message(events.Paste("hello\x1b[31m"))
        await until(pilot, lambda: toasts(app))
        assert "Not a position: 'hello\\x1b[31m'" in toasts(app)[0]
        assert not app.editor.setup.board.occupied


#: A random session, as the bursts the terminal brings: a man put on the cursor's square, a
#: cursor move, undo; or ``m``, then its list (men, ``/`` between the sides, a backspace) and
#: Enter in one burst, as when the list is pasted or typed ahead over SSH.
BOARD_KEYS = st.sampled_from([*"KQRBNPkqrbnpx", "up", "down", "left", "right", "u", "ctrl+z", "U"])
TYPED_MAN = st.tuples(st.sampled_from(["", *"KQRBNPkqrbnpx"]), st.sampled_from("abcdefgh"), st.sampled_from("12345678"))
TYPED_PART = st.one_of(TYPED_MAN.map(lambda man: [*"".join(man), "space"]), st.just(["/"]), st.just(["backspace"]))
M_LIST = st.lists(TYPED_PART, min_size=1, max_size=5).map(lambda parts: [["m"], [*chain.from_iterable(parts), "enter"]])
SESSIONS = st.lists(st.one_of(BOARD_KEYS.map(lambda key: [[key]]), M_LIST), min_size=1, max_size=5).map(
    lambda parts: list(chain.from_iterable(parts))
)


async def typed_board(bursts: list[list[str]], slowly: bool) -> tuple[str, str | None]:
    app = KeyedApp()
    async with app.run_test(size=(80, 24)) as pilot:
        if slowly:
            await one_by_one(pilot, list(chain.from_iterable(bursts)))
        for keys in [] if slowly else bursts:
            await burst(pilot, keys)
        return app.editor.setup.board.board_fen(), app.editor.setup.stipulation


def same_board_at_any_speed(bursts: list[list[str]]) -> None:
    slow = asyncio.run(typed_board(bursts, slowly=True))
    fast = asyncio.run(typed_board(bursts, slowly=False))
    assert fast == slow, bursts


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SESSIONS)
@example([["c"], ["m"], [*"Kb6", "space", *"c6/", "enter"], ["u"]])  # the issue's, then undo
def test_random_editor_keys_give_the_same_board_typed_slowly_or_in_bursts(bursts):
    """Fails before, for a session such as ``m`` then ``Kb6 c6/`` in one burst."""
    same_board_at_any_speed(bursts)


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SESSIONS)
def test_many_random_editor_sessions_give_the_same_board_at_any_speed(bursts):
    same_board_at_any_speed(bursts)
