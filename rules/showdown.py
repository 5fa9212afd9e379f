"""The showdown tool for every game of the registry (issues 3, 14): ``manage.py showdown`` and
``POST /api/v1/rules/showdown/`` call :func:`run_showdown`, which hands the document to the game's own
ranking (its registry entry's ``showdown``). Input and output: see :mod:`rules.engines.showdown`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.errors import ConfigError
from rules.engines.messages import gettext_noop
from rules.engines.showdown import MalformedShowdown, require_document

__all__ = ["run_showdown"]


def run_showdown(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Rank the hands of a showdown document; pure, JSON-able in and out (see the module docstring).

    Each game ranks its own hands: the registry entry's ``showdown`` (:mod:`rules.registry`);
    ``seven_card_stud`` is :func:`rules.engines.showdown.stud_showdown` (best five of 5-7 cards, R2.2-R2.6).
    Raises a :class:`RuleViolation` subclass for every bad input (see module docstring).
    """
    from rules.registry import GAMES as SPECS

    names = tuple(g.name for g in SPECS if g.showdown is not None)
    doc = require_document(doc)
    game = doc.get("game")
    if game is None:
        raise MalformedShowdown(gettext_noop("the showdown document has no \"game\" (one of %(games)s)",
                                             games=", ".join(names)), extra={"field": "game"})
    spec = next((g for g in SPECS if g.name == game and g.showdown is not None), None)
    if spec is None or spec.showdown is None:
        raise ConfigError("game", gettext_noop("unknown game %(game)s; expected one of %(games)s", game=repr(game),
                                               games=", ".join(names)))
    return spec.showdown(doc)
