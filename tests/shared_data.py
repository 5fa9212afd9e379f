"""Where the tests find the real hands the repository carries (``data/phh/``, MIT licence beside them).

The folders are part of the repository, so a test that needs them never skips: a missing folder is a
broken checkout and fails the test.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

#: The eight real Seven Card Stud hands (``data/phh/wsop-2023-43-5/``).
PHH_DIR: Path = Path(settings.PHH_SAMPLE_DIR)
#: The seven real Razz (``01-*``) and Seven Card Stud Hi-Lo (``02-*``) hands (``data/phh/wsop-2023-43-5-razz-hilo/``).
PHH_RAZZ_HILO_DIR: Path = Path(settings.PHH_RAZZ_HILO_DIR)


def require_phh(folder: Path = PHH_DIR) -> Path:
    """Return ``folder`` after checking it holds PHH files; raises ``AssertionError`` (a failed test) if not."""
    assert folder.is_dir() and any(folder.glob("*.phh")), f"the PHH hands are missing from the checkout at {folder}"
    return folder
