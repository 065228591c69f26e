from __future__ import annotations

import pytest

from gbr_tui.serve.config import ServeOptions, ensure_host_key
from gbr_tui.serve.ssh import AppServer


@pytest.fixture
def host_key(tmp_path):
    return ensure_host_key(tmp_path / "host_key")


@pytest.fixture
async def server(host_key):
    """A running server with anonymous access; yields (AppServer, port).

    Port 0: the system picks a free port as the server binds it, so parallel test workers
    never race for one.
    """
    started = []

    async def start(**overrides):
        options = ServeOptions(port=0, host_key=host_key, allow_anonymous=True, **overrides)
        app_server = AppServer(options)
        acceptor = await app_server.start()
        started.append(app_server)
        return app_server, acceptor.get_port()

    yield start
    for app_server in started:
        await app_server.stop()
        assert not app_server.sessions
