"""Benchmark: the Forty-one replay that reconciliation runs, per hand (issue 19).

A pool of ``--hands`` random legal Forty-one hands is built as ``bench/reconcile.py``'s ``build_pool``
builds it (the test limits ``tests.accounting.helpers.RAW``, 3-4 of six seats, stacks ``STACK``, the
events from ``tests.accounting.helpers.random_events``); the events go through ``json.dumps`` and
``json.loads`` as they do on their way through the database. Timed, on the same hands in one run:

* ``replay_settlement``: :func:`rules.replay.replay_settlement` with the config built once (what
  :func:`accounting.services.reconciliation.replay_settlement` calls for every hand);
* ``engine.replay``: the engine's replay alone (no settlement lookup);
* the floor: the same loop that only copies each event (``dict(event)``) and builds nothing.

Figures are CPU time of this process (``time.process_time()``, the best of ``--rounds``), as hands/s and
µs per hand. For a load-independent figure run it under callgrind with ``--only replay``, e.g.
``valgrind --tool=callgrind python bench/forty_one_replay.py --hands 2000 --rounds 1 --only replay``
minus the same run with ``--only floor``, divided by the hands.

No database is touched (Django is set up only to import the test helpers).
Run from the repo root: ``python bench/forty_one_replay.py [--hands N] [--seed S] [--rounds K]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

from _acct_bench import best_cpu

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key")


def build_pool(n: int, seed: int):
    """``n`` random legal Forty-one hands as (stored seats, button, events as loaded from JSON)."""
    from rules.registry import get_engine
    from tests.accounting.helpers import RAW, STACK, random_events

    engine = get_engine("forty_one")
    config = engine.build_config(RAW["forty_one"])
    rng = random.Random(seed)
    hands = []
    for _ in range(n):
        seats = tuple(sorted(rng.sample(range(1, 7), rng.randint(3, 4))))
        stacks = {s: STACK for s in seats}
        events = random_events("forty_one", config, stacks, seats[0], rng)
        stored = {str(s): {"stack": STACK, "player_ref": None} for s in seats}
        hands.append((stored, seats[0], [json.loads(json.dumps(e)) for e in events]))
    return engine.config_to_dict(config), hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", choices=("replay", "floor"), help="time one loop only (for callgrind)")
    args = parser.parse_args()

    import django

    django.setup()
    from rules.registry import get_engine
    from rules.replay import hand_config, replay_settlement

    snapshot, hands = build_pool(args.hands, args.seed)
    engine = get_engine("forty_one")
    config = hand_config("forty_one", snapshot)
    n_events = sum(len(h[2]) for h in hands)

    def settle(hand) -> None:
        replay_settlement(game="forty_one", snapshot=snapshot, seats=hand[0], button=hand[1], events=hand[2],
                          config=config)

    def bare(hand) -> None:
        engine.replay(config, {int(s): v["stack"] for s, v in hand[0].items()}, hand[2], button=hand[1])

    def floor(hand) -> None:
        for event in hand[2]:
            dict(event)

    loops = {"replay_settlement": settle, "engine.replay": bare, "floor (events copied)": floor}
    if args.only == "replay":
        loops = {"replay_settlement": settle}
    elif args.only == "floor":
        loops = {"floor (events copied)": floor}
    print(f"{args.hands} Forty-one hands (seed {args.seed}), {n_events / args.hands:.1f} events per hand;"
          f" CPU time, best of {args.rounds} rounds")
    for label, fn in loops.items():
        cpu = best_cpu(fn, hands, args.rounds)
        print(f"  {label:24s}: {args.hands / cpu:10,.0f} hands/s   {cpu / args.hands * 1e6:8.1f} µs per hand")


if __name__ == "__main__":
    main()
