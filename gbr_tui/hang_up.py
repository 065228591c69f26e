"""The app ends when what it reads its keys from goes: its terminal hung up on, or (served on
the web) its server's pipe closed, also when no signal says so.

A terminal that has gone (an ssh connection dropped, a server killed) answers every read at
once with end-of-file, and Textual's input thread then reads it again and again, a core busy for
as long as the process lives (Textual pull request 6690); its output thread dies at the first
write, and the app's next writes wait for it forever. The kernel's SIGHUP ends the app first,
unless the app was started with it ignored (``nohup``, some launchers pass it on so); an app
served on the web reads a pipe, and gets no signal at all when its server is killed: it stayed,
idle, for ever. So the app takes SIGHUP's default back, and sends it to itself once its input
has hung up: it ends as any program does whose terminal hangs up (a clean exit would write to
the dead terminal).
"""

from __future__ import annotations

import os
import select
import signal

from textual.app import App

#: How often the app looks whether its input is still there.
CHECK_SECONDS = 1.0


def hung_up(fd: int) -> bool:
    """Whether the other end of ``fd`` has gone: a terminal hung up, a pipe with no writer left."""
    poll = select.poll()
    poll.register(fd, select.POLLIN)
    return any(events & select.POLLHUP for _, events in poll.poll(0))


def end_with_the_input(app: App, input_fd: int) -> None:
    """End on SIGHUP whatever its inherited disposition, and once ``input_fd`` has hung up."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)

    def check() -> None:
        if hung_up(input_fd):
            os.kill(os.getpid(), signal.SIGHUP)

    app.set_interval(CHECK_SECONDS, check)
