"""The screenshot command writes one SVG per shot, of the screen the shot's keys lead to."""

from __future__ import annotations

from gbr_tui.screenshots import SHOTS, Shot, take_all


async def test_each_shot_writes_an_svg_of_its_screen(tmp_path):
    shots = (Shot("editor", (80, 24)), Shot("help", (80, 24), keys=("f1",)))
    paths = await take_all(tmp_path / "shots", shots)
    assert [path.name for path in paths] == ["editor.svg", "help.svg"]
    editor, help_screen = (path.read_text() for path in paths)
    assert "KBBP&#160;v&#160;KRNPP" in editor and "KBBP&#160;v&#160;KRNPP" not in help_screen
    assert "Guy-Blandford-Roycroft" in help_screen


def test_the_shots_have_distinct_names():
    assert len({shot.name for shot in SHOTS}) == len(SHOTS)
