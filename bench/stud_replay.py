"""Benchmark: replay stud hands through our engine and through PokerKit 0.7.7 in the same run (issue 4).

Two corpora:

* the eight real PHH hands in ``../shared/data/phh/wsop-2023-43-5/`` (each replayed ``--repeat`` times);
* ``--hands`` (default 10,000) generated hands, seeded (``--seed``), 2-6 players, US settings
  (bring-in 2 on 5/10 with completion, no open pair, no Taxe) and deep stacks so that both engines
  play the same rules; they are written as PHH and fed to PokerKit.

Timed: our ``replay_phh_hand`` (PHH actions -> events -> state) and ``stud.replay`` (stored events,
the service's path) against PokerKit iterating ``HandHistory`` (its replay of the same PHH actions).
TOML parsing is done before timing for both. Also timed: ``legal_actions`` and ``view`` on a live hand.

Run from the repo root: ``python bench/stud_replay.py [--hands N] [--seed S] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pokerkit import HandHistory  # noqa: E402

from rules.engines import stud  # noqa: E402
from rules.engines.phh import dumps_phh, load_phh, loads_phh, replay_phh_hand  # noqa: E402
from rules.engines.stud_sim import play_random_hand  # noqa: E402

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "phh" / "wsop-2023-43-5"
if not DATA.exists():
    DATA = Path("/work/shared/data/phh/wsop-2023-43-5")

US_RULES = {
    "lower": "5", "higher": "10", "ante": "1", "bring_in_mode": "partial_with_completion", "bring_in": "2",
    "open_pair_option": "off", "taxe_amount": "0", "chip_unit": "0.01",
}


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds else float("inf")


def time_it(fn, items, repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for item in items:
            fn(item)
    return time.perf_counter() - start


def generate(n_hands: int, seed: int):
    rng = random.Random(seed)
    cfg = stud.build_config(US_RULES)
    hands = []
    for _ in range(n_hands):
        n = rng.randint(2, 6)
        seats = {k + 1: rng.randint(20_000, 100_000) for k in range(n)}
        state, events = play_random_hand(rng, cfg, seats, button=n, fold_weight=0.2, wager_weight=0.3, muck_weight=0.0)
        hands.append((seats, n, events, state.stack))
    return cfg, hands


def pokerkit_replay(hh: HandHistory):
    state = None
    for state in hh:  # noqa: B007 - the loop replays; the last state is the result
        pass
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=20230622)
    parser.add_argument("--repeat", type=int, default=200, help="replays of the real corpus")
    args = parser.parse_args()

    files = sorted(DATA.glob("*.phh"))
    ours = [load_phh(p) for p in files]
    theirs = [HandHistory.load(p.open("rb")) for p in files]
    for hand, hh in zip(ours, theirs):
        mine = replay_phh_hand(hand).state.stack
        pk = pokerkit_replay(hh).stacks
        assert list(mine) == list(pk) == [hand.finishing_stacks[s] for s in sorted(hand.finishing_stacks)], hand.name
    n_real = len(files) * args.repeat
    t_ours = time_it(replay_phh_hand, ours, args.repeat)
    t_pk = time_it(pokerkit_replay, theirs, args.repeat)
    print(f"real PHH corpus: {len(files)} hands x {args.repeat}")
    print(f"  ours     replay_phh_hand: {rate(n_real, t_ours):10,.0f} hands/s")
    print(f"  pokerkit HandHistory     : {rate(n_real, t_pk):10,.0f} hands/s")
    print(f"  ratio                    : {t_pk / t_ours:10.1f}x")

    t0 = time.perf_counter()
    cfg, hands = generate(args.hands, args.seed)
    t_gen = time.perf_counter() - t0
    texts = [dumps_phh(cfg, seats, events, button=n) for seats, n, events, _ in hands]
    phh_ours = [loads_phh(t) for t in texts]
    phh_pk = [HandHistory.loads(t) for t in texts]
    t_events = time.perf_counter()
    for seats, n, events, _ in hands:
        stud.replay(cfg, seats, events, button=n)
    t_events = time.perf_counter() - t_events
    t_ours = time_it(replay_phh_hand, phh_ours)
    agree = failed = 0
    t_pk = time.perf_counter()
    finals = []
    for hh in phh_pk:
        try:
            finals.append(pokerkit_replay(hh).stacks)
        except Exception:  # noqa: BLE001 - a rule PokerKit plays differently (spec §16)
            finals.append(None)
            failed += 1
    t_pk = time.perf_counter() - t_pk
    for (_seats, _n, _events, stacks), pk in zip(hands, finals):
        agree += pk is not None and list(pk) == list(stacks)
    print(f"generated: {args.hands} hands (seed {args.seed}, generated in {t_gen:.1f}s)")
    print(f"  ours     stud.replay(events): {rate(args.hands, t_events):10,.0f} hands/s")
    print(f"  ours     replay_phh_hand    : {rate(args.hands, t_ours):10,.0f} hands/s")
    print(f"  pokerkit HandHistory        : {rate(args.hands, t_pk):10,.0f} hands/s"
          f"  ({failed} refused by PokerKit)")
    print(f"  ratio (PHH path)            : {t_pk / t_ours:10.1f}x")
    print(f"  same finishing stacks       : {agree}/{args.hands}")

    # a live hand: 4 players, 4th street, open pair, facing a raise
    live = stud.new_hand({"lower": "5", "higher": "10", "ante": "1", "taxe_amount": "5"},
                         {1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000}, button=4)
    for ev in ([{"type": "ante", "seat": s} for s in (1, 2, 3, 4)]
               + [{"type": "deal", "seat": s, "cards": t} for s, t in
                  {1: "Ah Kc Qs", 2: "9d 9c Kd", 3: "4s 7h 2c", 4: "Jd Td 2h"}.items()]
               + [{"type": "bring_in", "seat": 3}, {"type": "raise", "seat": 4, "to": 1000},
                  {"type": "call", "seat": 1}, {"type": "call", "seat": 2}, {"type": "call", "seat": 3}]
               + [{"type": "deal", "seat": s, "cards": t} for s, t in {1: "Qh", 2: "5s", 3: "8d", 4: "As"}.items()]
               + [{"type": "bet", "seat": 1, "to": 500}, {"type": "raise", "seat": 2, "to": 1500}]):
        live = stud.apply(live, ev)
    k = 20_000
    t = time.perf_counter()
    for _ in range(k):
        stud.legal_actions(live)
    t_legal = (time.perf_counter() - t) / k
    t = time.perf_counter()
    for _ in range(k // 10):
        stud.view(live)
    t_view = (time.perf_counter() - t) / (k // 10)
    print(f"legal_actions on a live hand: {t_legal * 1e6:8.1f} us   view(): {t_view * 1e6:8.1f} us")


if __name__ == "__main__":
    main()
