"""Benchmark (issue 14): what answering the typed ``view`` beside ``state`` costs one logged action, per game.

Every hand API answer that carries the engine's ``state`` carries the typed view of the same state too
(:mod:`tables.api.view_serializers`), built from the state the request already replayed. This measures,
for every state of ``--hands`` random legal hands of each game (the game's simulator, seeded), in this
process and without a database (the view adds no query: ``tests/tables/test_hands_queries.py``):

* **replay**: the hand's events replayed up to that state (:func:`rules.replay.replay_hand`), what every
  logged action does anyway;
* **state** (the peer): the engine's answer rendered as the API did before (``engine.view`` + ``money_out``);
* **view**: the game's typed view of the same state, as JSON (``hand_view`` + ``as_dict``) and in EUR
  (``view_out``): the work the new field adds.

Figures are microseconds per action, CPU time of this process (``time.process_time()``, the best of
``--rounds``; a shared, busy machine's other processes do not count), and the ratios view / state and
view / (replay + state). Run from the repo root: ``python bench/hand_view.py [--hands 40] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

from _acct_bench import best_cpu

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=40, help="random hands per game")
    parser.add_argument("--rounds", type=int, default=3, help="timed passes; the best counts")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args(argv)

    import django

    django.setup()
    from rules import contract
    from rules.registry import GAMES
    from rules.replay import replay_hand
    from tables.api.hands_serializers import money_out
    from tables.api.view_serializers import view_out

    print(f"the typed view beside the state, per logged action (CPU us, best of {args.rounds}; {args.hands} hands a game)")
    print(f"  {'game':24s} {'actions':>7s} {'replay':>8s} {'state':>8s} {'view':>8s}  view/state  view/(replay+state)")
    for spec in GAMES:
        rng = random.Random(args.seed)
        config = spec.engine.build_config(spec.example_config)
        snapshot = spec.engine.config_to_dict(config)
        low, high = spec.players
        cases = []  # (seats, button, events so far, state after them)
        for _ in range(args.hands):
            seats = {s: rng.randint(50, 400) * 100 for s in range(1, rng.randint(low, min(high, 6)) + 1)}
            button = max(seats)
            state = spec.engine.new_hand(config, seats, button=button)
            records = []
            for event in spec.random_hand(config, seats, button, rng):
                state, record = contract.act(spec, state, event)
                records.append(record)
                cases.append(({str(s): {"stack": c} for s, c in seats.items()}, button, list(records), state))
        states = [case[3] for case in cases]
        replay = best_cpu(lambda c, spec=spec, snapshot=snapshot: replay_hand(
            game=spec.name, snapshot=snapshot, seats=c[0], button=c[1], events=c[2]), cases, args.rounds)
        answer = best_cpu(lambda s, spec=spec: money_out(dict(spec.engine.view(s))), states, args.rounds)
        view = best_cpu(lambda s, spec=spec: view_out(spec.hand_view(s).as_dict()), states, args.rounds)
        n = len(states)
        us = [t / n * 1e6 for t in (replay, answer, view)]
        print(f"  {spec.name:24s} {n:7d} {us[0]:8.1f} {us[1]:8.1f} {us[2]:8.1f}  {us[2] / us[1]:10.2f}  "
              f"{us[2] / (us[0] + us[1]):19.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
