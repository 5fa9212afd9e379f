"""Fixtures of the fault tests: a private Redis the test starts on its own port and stops."""

from __future__ import annotations

import shutil

import pytest

from tests.faults.support import PrivateRedis


@pytest.fixture
def private_redis(tmp_path):
    """A running ``redis-server`` on a free port (never the shared 6379); stopped after the test."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (Debian package redis-server; .ci/run has it)")
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
