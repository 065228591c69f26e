"""Modal dialogs of the terminal app, each an ``InputDialog``."""
