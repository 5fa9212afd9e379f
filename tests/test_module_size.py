"""Issue 14: no module of the project over about 500 lines without a reason stated at its top.

Every Python module outside the tests and the migrations (the apps, ``rules/``, ``bench/``, ``manage.py``)
of more than :data:`MAX_LINES` lines says why in its first :data:`HEAD_LINES` lines, in a sentence starting
``Long module:`` (usually the module docstring's second paragraph). A module that grows past the limit
without one fails here: split it along its seams, or state the reason.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 500
HEAD_LINES = 40
MARK = "Long module:"
#: Directories that hold no module of the project's own (tests and migrations are excepted by the rule).
SKIPPED_DIRS = frozenset({"tests", "migrations", "var", "node_modules", "__pycache__"})


def project_modules() -> list[Path]:
    """The project's Python modules: every ``*.py`` under the repository root except in hidden directories
    (``.venv``, ``.git`` ...), :data:`SKIPPED_DIRS` and ``tests/``."""
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts[:-1]
        if any(part.startswith(".") or part in SKIPPED_DIRS for part in parts):
            continue
        out.append(path)
    return out


def long_modules_without_a_reason(paths: list[Path], root: Path = ROOT) -> list[str]:
    """``"path: N lines"`` (relative to ``root``) for each module over :data:`MAX_LINES` lines without
    :data:`MARK` in its first :data:`HEAD_LINES` lines."""
    offenders = []
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > MAX_LINES and not any(MARK in line for line in lines[:HEAD_LINES]):
            offenders.append(f"{path.relative_to(root)}: {len(lines)} lines")
    return offenders


def test_every_module_over_500_lines_states_why_at_its_top():
    paths = project_modules()
    assert len(paths) > 100 and ROOT / "manage.py" in paths
    assert not any("migrations" in p.parts or p.parts[len(ROOT.parts)] == "tests" for p in paths)
    assert long_modules_without_a_reason(paths) == [], (
        f"modules over {MAX_LINES} lines need '{MARK} <the reason>' in their first {HEAD_LINES} lines (or a split)")


def test_the_check_catches_a_long_module_without_a_reason_and_accepts_one_with_it(tmp_path):
    long_body = "\n".join(f"x{i} = {i}" for i in range(MAX_LINES + 1))
    bare = tmp_path / "bare.py"
    bare.write_text('"""A module."""\n' + long_body, encoding="utf-8")
    reasoned = tmp_path / "reasoned.py"
    reasoned.write_text(f'"""A module.\n\n{MARK} one table of the rules, read top to bottom."""\n' + long_body,
                        encoding="utf-8")
    short = tmp_path / "short.py"
    short.write_text("x = 1\n", encoding="utf-8")
    late = tmp_path / "late.py"
    late.write_text(long_body + f"\n# {MARK} too late to count\n", encoding="utf-8")
    assert long_modules_without_a_reason([bare, reasoned, short, late], root=tmp_path) == [
        f"bare.py: {MAX_LINES + 2} lines", f"late.py: {MAX_LINES + 2} lines"]
