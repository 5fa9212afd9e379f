"""Where the tests find the shared real hands, and how they behave when the folder is missing.

Outside CI a test that needs the PHH sample hands is skipped, saying so; in CI (``CI=true``, where
``shared/`` always lies beside the clone) a missing folder fails the test instead of skipping it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

PHH_DIR: Path = Path(settings.PHH_SAMPLE_DIR)
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require_phh() -> Path:
    """Return the PHH folder; skip (outside CI) or fail (in CI) when it is missing."""
    if not PHH_DIR.is_dir() or not any(PHH_DIR.glob("*.phh")):
        message = f"the PHH sample hands are not at {PHH_DIR} (set SHARED_DATA_DIR)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return PHH_DIR
