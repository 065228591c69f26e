"""The app ends with its terminal: when it is hung up on, and when it is gone without a word.

A terminal that has gone (an ssh connection dropped, a server killed) answers every read at
once with end-of-file, and Textual's input thread then reads it again and again, a core busy for
as long as the process lives (Textual pull request 6690); its output thread dies at the first
write, and the app's next writes wait for it forever. The kernel's SIGHUP ends the app first,
unless the app was started with it ignored (``nohup``, some launchers pass it on so). So the app
takes SIGHUP's default back, and sends it to itself once its terminal is no longer one: it ends
as any program does whose terminal hangs up (a clean exit would write to the dead terminal).
"""

from __future__ import annotations

import os
import signal

from textual.app import App

#: How often the app looks whether its terminal is still there.
CHECK_SECONDS = 1.0


def end_with_the_terminal(app: App, terminal_fd: int) -> None:
    """End on SIGHUP whatever its inherited disposition, and once ``terminal_fd`` is no longer
    a terminal (a hung-up one is not)."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)

    def check() -> None:
        if not os.isatty(terminal_fd):
            os.kill(os.getpid(), signal.SIGHUP)

    app.set_interval(CHECK_SECONDS, check)
