"""Time ranking all C(32, 4) = 35,960 Forty-one hands (spec B.3, F-25; issue 3 target: under 0.5 s).

Run: ``.venv/bin/python bench/forty_one_rank.py``. Prints the time for keying and sorting every hand with
the fast path (:func:`hand_key`) and with the full :func:`evaluate`, and the category counts.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.engines.cards import PIQUET_32  # noqa: E402
from rules.engines.evaluators.forty_one import evaluate, hand_key  # noqa: E402

TARGET_SECONDS = 0.5


def main() -> None:
    hands = list(combinations(sorted(PIQUET_32), 4))
    start = time.perf_counter()
    ranked = sorted(hands, key=hand_key, reverse=True)
    fast = time.perf_counter() - start
    start = time.perf_counter()
    counts = Counter(evaluate(h).category for h in hands)
    full = time.perf_counter() - start
    print(f"hands: {len(ranked)}")
    print(f"hand_key + sort: {fast:.3f} s (target < {TARGET_SECONDS} s) {'OK' if fast < TARGET_SECONDS else 'SLOW'}")
    print(f"evaluate (full objects): {full:.3f} s")
    print("categories:", dict(sorted(counts.items())))


if __name__ == "__main__":
    main()
