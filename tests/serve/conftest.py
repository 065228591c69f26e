from __future__ import annotations

import pytest

from gbr_tui.serve.ssh import AppServer, ServeOptions, ensure_host_key
from tests.serve.client import free_port


@pytest.fixture
def host_key(tmp_path):
    return ensure_host_key(tmp_path / "host_key")


@pytest.fixture
async def server(host_key):
    """A running server with anonymous access; yields (AppServer, port)."""
    started = []

    async def start(**overrides):
        options = ServeOptions(port=free_port(), host_key=host_key, allow_anonymous=True, **overrides)
        app_server = AppServer(options)
        await app_server.start()
        started.append(app_server)
        return app_server, options.port

    yield start
    for app_server in started:
        await app_server.stop()
        assert not app_server.sessions
