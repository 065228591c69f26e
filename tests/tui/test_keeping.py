"""What the app keeps between runs (the theme, the rule, the position left on the board), in a
temporary settings file, never the user's; and never when served."""

from __future__ import annotations

import json

from textual.widgets._toast import Toast

from gbr_tui.app import make_app
from gbr_tui.core import Rule
from tests.support.tui import KUBBEL_FEN, shown_digits, toasts

KUBBEL = KUBBEL_FEN + " w - - 0 1"


async def _run_and_quit(app, *keys: str, size=(80, 24)) -> list[str]:
    """Start the app, press ``keys``, quit with ctrl+q (q on the board is a Black queen); the
    notifications shown on the way."""
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.pause()
        shown = toasts(app)
        await pilot.press(*keys)
        await pilot.press("ctrl+q")
    return shown


async def test_the_position_left_on_the_board_is_set_up_again_at_the_next_start(tmp_path):
    settings = tmp_path / "gbr-tui" / "settings.json"
    await _run_and_quit(make_app(settings_file=settings), "i", *KUBBEL_FEN, "enter", "equals_sign")
    again = make_app(settings_file=settings)
    shown = await _run_and_quit(again)
    assert again.editor.setup.board.fen() == KUBBEL and again.editor.setup.stipulation == "="
    assert any(f"Set up as you left it: {KUBBEL}, = White to play and draw" in toast for toast in shown)


async def test_an_empty_board_left_gives_an_empty_board_and_no_notice(tmp_path):
    settings = tmp_path / "settings.json"
    await _run_and_quit(make_app(settings_file=settings), "K", "right", "k")
    await _run_and_quit(make_app(settings_file=settings), "c")  # restored, then cleared
    again = make_app(settings_file=settings)
    shown = await _run_and_quit(again)
    assert again.editor.setup.board.fen() == "8/8/8/8/8/8/8/8 w - - 0 1"
    assert not any("as you left it" in toast for toast in shown)


async def test_the_theme_and_the_rule_are_kept(tmp_path):
    settings = tmp_path / "settings.json"
    first = make_app(settings_file=settings)
    async with first.run_test(size=(80, 24)) as pilot:
        first.theme = "textual-light"
        first.action_toggle_rule()
        await pilot.pause()
    # Written when changed: a crash later does not lose them.
    assert json.loads(settings.read_text()) == {"rule": "promoted", "theme": "textual-light"}
    again = make_app(settings_file=settings)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == "textual-light" and again.rule == Rule.PROMOTED
        assert again.screen.code_pane.border_title == "Code · promoted rule"


async def test_a_served_app_keeps_nothing_and_reads_nothing(tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"theme": "textual-light", "fen": KUBBEL}))
    app = make_app(served=True, settings_file=settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme != "textual-light" and not app.editor.setup.board.occupied
        app.theme = "nord"
        await pilot.press("K", "ctrl+q")
    assert json.loads(settings.read_text()) == {"theme": "textual-light", "fen": KUBBEL}  # untouched


async def test_a_damaged_settings_file_gives_a_notice_and_the_defaults(tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_bytes(b'{"theme": "textual-light", "fen": ')  # cut off
    app = make_app(settings_file=settings)
    shown = await _run_and_quit(app)
    assert any("is damaged (not JSON): using the defaults" in toast for toast in shown)
    assert app.theme == "textual-dark" and not app.editor.setup.board.occupied


async def test_values_that_make_no_sense_are_said_and_left_at_their_defaults(tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"theme": "no-such-theme", "rule": "promoted", "fen": "8/8/8 w"}))
    app = make_app(settings_file=settings)
    shown = await _run_and_quit(app)
    assert app.rule == Rule.PROMOTED  # the one good value is kept
    assert any("the kept position is not a FEN" in toast for toast in shown)
    assert any("'no-such-theme' is not one of this version's" in toast for toast in shown)


async def test_settings_that_cannot_be_written_are_said_once_and_the_app_goes_on(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    app = make_app(settings_file=blocker / "settings.json")  # its directory cannot be made
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.theme = "textual-light"
        app.action_toggle_rule()
        await pilot.pause()
        said = [toast for toast in toasts(app) if "Settings cannot be kept" in toast]
        assert len(said) == 1 and "they last until you quit" in said[0]
        await pilot.press("K")
        assert app.editor.setup.board.occupied  # still editing


def test_the_command_keeps_settings_in_the_config_dir_but_not_when_served(tmp_path, monkeypatch):
    import gbr_tui.app

    made = []

    class NotRun:
        def run(self, mouse: bool) -> None:
            pass

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr(gbr_tui.app, "make_app", lambda **options: made.append(options) or NotRun())
    gbr_tui.app.run_app()
    gbr_tui.app.run_app(served=True)
    assert [options["settings_file"] for options in made] == [tmp_path / "gbr-tui" / "settings.json", None]


async def test_the_first_start_opens_on_a_study_and_says_how_to_clear_it(tmp_path):
    """Fails before: the very first start showed an empty board under three warnings. It opens
    on Kubbel's study (the spec's =0323.12g3g1) and says that c clears it; the next start, with
    the board cleared, is empty: the first start is once."""
    settings = tmp_path / "gbr-tui" / "settings.json"
    first = make_app(settings_file=settings)
    shown = await _run_and_quit(first, "c")
    assert any("Kubbel" in toast and "c clears the board" in toast for toast in shown)
    assert settings.exists()
    again = make_app(settings_file=settings)
    shown = await _run_and_quit(again)
    assert not again.editor.setup.board.occupied
    assert not any("Kubbel" in toast for toast in shown)


async def test_the_first_start_shows_kubbel_with_its_published_code(tmp_path):
    app = make_app(settings_file=tmp_path / "settings.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.editor.setup.board.fen() == KUBBEL and app.editor.setup.stipulation == "="
        assert shown_digits(app) == "0323.12"


async def test_the_first_start_in_a_terminal_too_small_shows_the_message_alone(tmp_path):
    # The welcome toast was drawn over "terminal too small", the two cut into each other.
    app = make_app(settings_file=tmp_path / "settings.json")
    async with app.run_test(size=(40, 12), notifications=True) as pilot:
        await pilot.pause()
        assert app.covered
        hidden = list(app.screen.query(Toast))
        assert hidden and not any(toast.visible for toast in hidden)  # the welcome, not drawn
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert any("Kubbel" in toast for toast in toasts(app))  # shown once there is room
