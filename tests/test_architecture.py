"""Architecture: the engines stay pure Python (STYLE.md rule 1)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINES = Path(__file__).resolve().parent.parent / "rules" / "engines"
FORBIDDEN = ("django", "rest_framework", "celery", "tables", "accounting", "casino", "random", "time", "datetime")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_engines_import_neither_django_nor_the_other_apps_nor_global_random_or_clock():
    files = sorted(ENGINES.rglob("*.py"))
    assert files, "no engine modules found"
    offenders = []
    for path in files:
        for name in _imports(path):
            root = name.split(".")[0]
            if root in FORBIDDEN and not (root == "random" and _random_is_injected_only(path)):
                offenders.append(f"{path.relative_to(ENGINES)} imports {name}")
    assert offenders == []


def _random_is_injected_only(path: Path) -> bool:
    """``import random`` is allowed only for type hints of an injected ``random.Random``: no module-level
    calls of the global functions (``random.shuffle(...)``, ``random.choice(...)`` ...)."""
    text = path.read_text(encoding="utf-8")
    global_calls = ("random.shuffle(", "random.choice(", "random.randint(", "random.random(", "random.sample(",
                    "random.randrange(", "random.seed(")
    return not any(call in text for call in global_calls)
