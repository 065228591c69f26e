"""The app's own theme: high contrast. Themes are chosen in the command palette ("Theme").

Every theme, Textual's own too, draws the board in ``widgets.board.BOARD_COLOURS`` unless it
sets the variables ``board-light``, ``board-dark`` and ``board-men`` itself.
"""

from __future__ import annotations

from textual.theme import Theme

#: Black and white with one bright colour for what has the focus; no dimmed text, no tints.
HIGH_CONTRAST = Theme(
    name="gbr-high-contrast",
    primary="#ffff00",
    secondary="#ffffff",
    accent="#ffff00",
    warning="#ffff00",
    error="#ff6060",
    success="#00ff00",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#000000",
    boost="#000000",
    dark=True,
    variables={
        "board-light": "#ffffff",
        "board-dark": "#ffd700",
        "board-men": "#000000",
        "text-muted": "#ffffff",
        "foreground-muted": "#ffffff",
        "text-disabled": "#c0c0c0",
        "border": "#ffff00",
        "border-blurred": "#ffffff",
        "block-cursor-background": "#ffff00",
        "block-cursor-foreground": "#000000",
        "block-cursor-blurred-background": "#ffffff",
        "block-cursor-blurred-foreground": "#000000",
        "input-cursor-background": "#ffff00",
        "input-cursor-foreground": "#000000",
        "input-selection-background": "#ffff00",
        "footer-background": "#000000",
        "footer-key-foreground": "#ffff00",
        "footer-description-foreground": "#ffffff",
        "scrollbar": "#ffffff",
        "scrollbar-background": "#000000",
    },
)

THEMES = (HIGH_CONTRAST,)
