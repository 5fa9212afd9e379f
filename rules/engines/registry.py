"""Kept for old imports: the one list of games is :mod:`rules.registry` (issue 14)."""

from __future__ import annotations

from rules.registry import GAME_NAMES as GAMES
from rules.registry import get_engine

__all__ = ["GAMES", "get_engine"]
