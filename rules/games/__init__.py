"""One package per game; each exposes its :class:`~rules.core.game_spec.GameSpec` as ``SPEC`` and is
listed once in :mod:`rules.registry`."""
