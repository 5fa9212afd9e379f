"""The repository stands on its own (issue 13): nothing reads ``../shared/`` or an absolute path of this machine."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
#: A path outside the checkout: the sibling ``shared`` folder (in any spelling) or this machine's ``/work``.
OUTSIDE = re.compile(r"""\.\./shared|["']shared["']\s*/|/work/|parent\.parent\.parent""")


def _tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    return [ROOT / name for name in listed if not name.startswith(("data/", "locale/", ".venv"))]


def test_no_file_of_the_repository_reads_outside_the_checkout():
    offenders = []
    for path in _tracked_files():
        if path.resolve() == Path(__file__).resolve() or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        offenders += [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
                      if OUTSIDE.search(line)]
    assert offenders == [], "\n".join(offenders)


def test_the_real_hands_and_their_licence_are_in_the_repository():
    phh = ROOT / "data" / "phh"
    assert len(list((phh / "wsop-2023-43-5").glob("*.phh"))) == 8
    assert len(list((phh / "wsop-2023-43-5-razz-hilo").glob("*.phh"))) == 7
    assert "MIT License" in (phh / "LICENSE").read_text(encoding="utf-8")
    assert "University of Toronto" in (phh / "README.md").read_text(encoding="utf-8")
    assert Path(settings.PHH_SAMPLE_DIR).resolve().is_relative_to(ROOT.resolve())
