"""``gbr-tui serve``: the app for anyone who connects, over SSH or in a browser.

Over SSH (asyncssh) every session gets its own app process on its own pseudo-terminal, sized
from the client and resized with it. Nothing else is offered: no shell, no commands, no
forwarding of ports, agents or X11, no SFTP. The app runs in served mode, where it opens and
saves no files.

``ssh`` is the SSH server (its connections, who may log in, serving until stopped), ``config``
its options, host key and what a client may send, ``session`` one session's app and its bytes,
``pty`` starts one app on a pseudo-terminal and ends it, ``web`` serves the app in a browser.
"""
