"""gbr-tui: the chess GBR code in the terminal."""

__version__ = "0.1.0"
