"""Benchmark: the Capsa Susun replay that reconciliation runs for every hand, beside the other games (issue 19).

Reconciliation rebuilds every closed hand through :func:`rules.replay.replay_settlement` (the engine's
``replay`` of the stored events, then its ``settlement``); a gaming day is one third each Seven Card Stud,
Forty-one and Capsa Susun. This bench builds the hands the way ``bench/reconcile.py``'s ``build_pool``
does (3 or 4 seats of 1 to 6, 200.00 stacks, the button on the lowest seat, the test limits of
``tests/accounting/helpers.RAW``, each game's own random generator), stores each event as JSON and reads
it back as the service does, and times the replay alone on the same hands:

* per game, ``replay_settlement`` with the config built once (reconciliation's batches), in hands/s
  and microseconds per hand: the Capsa figure against the stud and Forty-one peers of the same run;
* the Capsa floor: parsing the hands' cards alone (``rules.engines.cards.parse_cards`` of every card
  text of the events, the part of a replay no engine can skip), and the pure-Python share left above it.

The hands are distinct (no card text repeats across hands except by chance) and the card parser's cache
is emptied before each pass, so it helps no more than on a real day. Times are CPU time of this process (``time.process_time``), the best of
``--rounds``; for a load-independent figure run it under callgrind (``--only capsa`` replays the Capsa
hands only): ``valgrind --tool=callgrind python bench/capsa_replay.py --only capsa --rounds 1`` with and
without ``--no-replay``; the difference divided by ``--hands`` is instructions per hand.

Run from the repo root: ``python bench/capsa_replay.py [--hands N] [--seed S] [--rounds K] [--only GAME]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from _acct_bench import best_cpu

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.engines import cards  # noqa: E402
from rules.engines.cards import DECK_52, parse_cards  # noqa: E402
from rules.registry import get_engine, get_game  # noqa: E402
from rules.replay import replay_settlement  # noqa: E402

GAMES = ("seven_card_stud", "forty_one", "capsa_susun")
STACK = 200_00
#: The limits of ``tests/accounting/helpers.RAW`` (what ``bench/reconcile.py`` deals), without importing Django.
RAW: dict[str, dict[str, Any]] = {
    "seven_card_stud": {"lower": "5.00", "higher": "10.00", "ante": "1.00", "taxe_amount": "2.00"},
    "forty_one": {"ante": "2.00", "limits": ["5.00", "10.00"], "tax_cap": "10.00", "bonus_41_amount": "50.00"},
    "capsa_susun": {"unit_value": "1.00", "fee_mode": "per_seat", "fee_per_seat": "0.50"},
}
#: The per-hand budget of the issue-19 reconciliation target (2,000 hands/s in one process: 500 us per
#: hand for everything: loading, replaying, comparing and writing).
RECONCILE_BUDGET_US = 500.0


def build_hands(game: str, n: int, seed: int) -> tuple[Any, dict[str, Any], list[tuple[Any, ...]]]:
    """``n`` random legal hands of ``game``: (config, snapshot, [(seats, button, events as read back)])."""
    rng = random.Random(seed)
    engine = get_engine(game)
    config = engine.build_config(RAW[game])
    generate = get_game(game).random_hand
    hands = []
    for _ in range(n):
        seats = tuple(sorted(rng.sample(range(1, 7), rng.randint(3, 4))))
        stacks = {s: STACK for s in seats}
        events = generate(config, stacks, seats[0], rng)
        stored = {str(s): {"stack": STACK, "player_ref": None} for s in seats}
        hands.append((stored, seats[0], [json.loads(json.dumps(e)) for e in events]))
    return config, engine.config_to_dict(config), hands


def cpu_best(fn: Any, items: list[Any], rounds: int) -> float:
    """Best CPU seconds of ``rounds`` passes of ``fn`` over ``items``; the card parser's cache is emptied
    before each pass, so every pass reads its cards as a worker meeting the day's hands for the first time."""
    return best_cpu(fn, items, rounds, before_pass=cards._PARSE_CACHE.clear)


def line(label: str, n: int, seconds: float) -> str:
    rate = n / seconds if seconds else float("inf")
    return f"  {label:38s}: {rate:10,.0f} hands/s   {seconds / n * 1e6:8.1f} us per hand"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2_000, help="hands per game")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", choices=GAMES, help="build and time one game only")
    parser.add_argument("--no-replay", action="store_true", help="build the hands only (a callgrind baseline)")
    args = parser.parse_args()

    games = (args.only,) if args.only else GAMES
    built = {game: build_hands(game, args.hands, args.seed) for game in games}
    if args.no_replay:
        return
    times: dict[str, float] = {}
    for game in games:
        config, snapshot, hands = built[game]

        def one(hand: tuple[Any, ...], game: str = game, config: Any = config, snapshot: Any = snapshot) -> None:
            replay_settlement(game=game, snapshot=snapshot, seats=hand[0], button=hand[1], events=hand[2],
                              config=config)

        times[game] = cpu_best(one, hands, args.rounds)
    print(f"replay_settlement (reconciliation's engine replay), {args.hands} distinct hands per game "
          f"(seed {args.seed}), CPU time, best of {args.rounds}")
    for game in games:
        print(line(game, args.hands, times[game]))
    if "capsa_susun" in games:
        _c, _s, hands = built["capsa_susun"]
        texts = [v for _st, _b, events in hands for e in events
                 for k, v in e.items() if k in ("cards", "front", "middle", "back") and isinstance(v, str)]

        def parse(text: str) -> None:
            parse_cards(text, deck=DECK_52)

        floor = cpu_best(parse, texts, args.rounds)
        n = args.hands
        print(line("floor: parsing the Capsa cards alone", n, floor))
        print(f"  Capsa above the floor                 : {(times['capsa_susun'] - floor) / n * 1e6:8.1f} us per hand;"
              f" replay share of the {RECONCILE_BUDGET_US:.0f} us reconciliation budget: "
              f"{times['capsa_susun'] / n * 1e6 / RECONCILE_BUDGET_US:.0%}")
        if len(games) == 3:
            mean = sum(times.values()) / 3 / n * 1e6
            print(f"  a day's mix (one third each)          : {mean:8.1f} us per hand of engine replay")


if __name__ == "__main__":
    main()
