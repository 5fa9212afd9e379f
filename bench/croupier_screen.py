"""The croupier's table screen under load: 50 tables logging stud hands through the page's own endpoints at a
live pace, against the bare JSON API in the same run (issue 15).

Run from the repo root (PostgreSQL and Redis running): ``.venv/bin/python bench/croupier_screen.py``
[``--croupiers 50``] [``--hands 1``] [``--players 4``] [``--think 1.5``] [``--workers 4 --threads 2``].

What it does, on this machine only, and stops again what it started (the set-up, the gunicorn and Celery
processes and the fresh database are those of ``bench/api_load.py``, reused, not copied):

1. a fresh database ``casino_bench_screen`` migrated; one open split-limit stud table (5/10, ante 1.00,
   Taxe 2.00) per croupier with its croupier on duty, an API token and a signed-in browser session;
2. gunicorn (gthread) and one Celery worker on Redis;
3. every croupier (a thread with its own keep-alive connection) deals ``--hands`` hands **through the page**
   (``POST /croupier/tables/{id}/hands/`` then ``POST /croupier/hands/{id}/events/`` per action, form-encoded
   with the tap's idempotency key and ``expected_seq``, as htmx sends it, answered with the rendered
   ``#hand`` fragment) and ``--hands`` hands **through the JSON API** (``POST /api/v1/hands/{id}/events/``),
   interleaved, pausing between actions like a croupier at a live table (exponential pauses of mean
   ``--think`` s, capped at 4x), so both paths are measured under the same load;
4. prints p50/p90/p99 of one action (request to rendered fragment, or to the JSON answer) for each path,
   the ratio page / API, and the targets: p99 under 50 ms, ratio under 1.5x.

The hands are random legal stud hands from :func:`rules.engines.stud_sim.random_hand` (seeded).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import secrets
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import api_load  # noqa: E402  (the shared set-up: database, services, floor)

#: This bench's own database (``api_load`` creates and drops the one its ``BENCH_DB`` names).
api_load.BENCH_DB = "casino_bench_screen"
P99_TARGET_MS = 50.0
RATIO_TARGET = 1.5
HAND_ID = re.compile(r'data-hand="(\d+)"')
COUNT = re.compile(r'data-event-count="(\d+)"')


def browser_sessions(floor: list[tuple[int, str]]) -> list[tuple[int, str, str, str]]:
    """For each ``(table, token)``: ``(table, token, session cookie, CSRF secret)``: the croupier signed in as a
    browser would be (a session in the database; the CSRF cookie and header carry the same secret)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from rest_framework.authtoken.models import Token

    out = []
    for table, token in floor:
        user = Token.objects.select_related("user").get(key=token).user
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        # the backend a password login records (the lockout backend first in the list only refuses)
        session[BACKEND_SESSION_KEY] = next(b for b in settings.AUTHENTICATION_BACKENDS if b.endswith("ModelBackend"))
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        out.append((table, token, session.session_key, secrets.token_hex(16)))
    return out


def page_form(event: dict) -> list[tuple[str, str]]:
    """An engine event (cents) as the table page's form sends it: ``type``, ``seat``, ``to`` in EUR, cards as
    repeated ``card`` fields."""
    from rules.engines.money import format_cents

    fields = [("type", event["type"])]
    if event.get("seat") is not None:
        fields.append(("seat", str(event["seat"])))
    if isinstance(event.get("to"), int):
        fields.append(("to", format_cents(event["to"])))
    for key in ("cards", "card"):
        if isinstance(event.get(key), str):
            fields += [("card", c) for c in event[key].split()]
    return fields


class Croupier(threading.Thread):
    """Deals hands at one table, alternating the page and the API; records each action's latency per path."""

    def __init__(self, *, index: int, port: int, table: int, token: str, session: str, csrf: str, hands: int,
                 think: float, config, players: int) -> None:
        super().__init__(daemon=True)
        self.index, self.port, self.table, self.token = index, port, table, token
        self.session, self.csrf, self.hands, self.think = session, csrf, hands, think
        self.config, self.players = config, players
        self.latencies: dict[str, list[float]] = {"page": [], "api": []}
        self.errors: list[str] = []
        self.start_gate: threading.Event | None = None

    def _page(self, conn, path: str, fields: list[tuple[str, str]]) -> tuple[int, str]:
        conn.request("POST", path, body=urlencode(fields), headers={
            "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true", "X-CSRFToken": self.csrf,
            "Cookie": f"sessionid={self.session}; csrftoken={self.csrf}", "Referer": f"http://127.0.0.1:{self.port}/"})
        response = conn.getresponse()
        return response.status, response.read().decode()

    def _api(self, conn, path: str, body: dict) -> tuple[int, dict]:
        conn.request("POST", path, body=json.dumps(body),
                     headers={"Authorization": f"Token {self.token}", "Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else {})

    def _pause(self, rng: random.Random) -> None:
        if self.think:
            time.sleep(min(rng.expovariate(1 / self.think), 4 * self.think))

    def _hand_by_page(self, conn, rng, seats: dict[int, int]) -> None:
        from rules.engines.stud_sim import random_hand
        from tables.models import Hand

        fields = [(f"seat_{s}", "1") for s in seats] + [(f"stack_{s}", "500.00") for s in seats]
        status, html = self._page(conn, f"/croupier/tables/{self.table}/hands/", fields)
        found = HAND_ID.search(html)
        if status != 200 or not found:
            raise RuntimeError(f"page open: {status} {html[:200]}")
        hand = Hand.objects.get(pk=int(found.group(1)))
        for seq, event in enumerate(random_hand(self.config, seats, hand.button_seat, rng)):
            form = page_form(event) + [("idempotency_key", f"page-{hand.pk}-{seq + 1}"), ("expected_seq", str(seq))]
            start = time.perf_counter()
            status, html = self._page(conn, f"/croupier/hands/{hand.pk}/events/", form)
            self.latencies["page"].append((time.perf_counter() - start) * 1000)
            count = COUNT.search(html)
            if status != 200 or not count or int(count.group(1)) != seq + 1:
                raise RuntimeError(f"page hand {hand.pk} event {seq + 1}: {status} {html[:300]}")
            self._pause(rng)

    def _hand_by_api(self, conn, rng, seats: dict[int, int]) -> None:
        from rules.engines.stud_sim import random_hand
        from tests.tables.hands_support import event_to_api

        body = {"table": self.table, "seats": [{"seat": s, "stack": "500.00"} for s in seats]}
        status, hand = self._api(conn, "/api/v1/hands/", body)
        if status != 201:
            raise RuntimeError(f"api open: {status} {str(hand)[:200]}")
        for seq, event in enumerate(random_hand(self.config, seats, hand["button_seat"], rng)):
            body = {"idempotency_key": f"api-{hand['id']}-{seq + 1}", "expected_seq": seq, "event": event_to_api(event)}
            start = time.perf_counter()
            status, answer = self._api(conn, f"/api/v1/hands/{hand['id']}/events/", body)
            self.latencies["api"].append((time.perf_counter() - start) * 1000)
            if status != 201:
                raise RuntimeError(f"api hand {hand['id']} event {seq + 1}: {status} {str(answer)[:200]}")
            self._pause(rng)

    def run(self) -> None:
        from django.db import connections

        rng = random.Random(f"screen:{self.index}")
        seats = {seat: 50000 for seat in range(1, self.players + 1)}
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        if self.start_gate is not None:
            self.start_gate.wait()
        time.sleep(rng.random() * max(self.think, 0.05))
        try:
            for k in range(self.hands):  # the page first for half the tables, the API first for the others
                for path in (("page", "api") if (self.index + k) % 2 == 0 else ("api", "page")):
                    (self._hand_by_page if path == "page" else self._hand_by_api)(conn, rng, seats)
        except (OSError, http.client.HTTPException, RuntimeError) as exc:
            self.errors.append(str(exc))
        finally:
            conn.close()
            connections.close_all()


def report(name: str, latencies: list[float]) -> tuple[str, float, float]:
    p50, p90, p99 = (api_load._percentile(latencies, p) for p in (50, 90, 99))
    line = (f"  {name}: {len(latencies)} actions, p50 {p50:.1f} ms, p90 {p90:.1f} ms, p99 {p99:.1f} ms, "
            f"max {max(latencies or [0]):.1f} ms")
    return line, p50, p99


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--croupiers", type=int, default=50)
    parser.add_argument("--hands", type=int, default=1, help="hands per croupier on each path (page and API)")
    parser.add_argument("--players", type=int, default=4, help="players in each hand (2-8)")
    parser.add_argument("--think", type=float, default=1.5, help="mean pause between a croupier's actions, s")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=2, help="threads per gunicorn worker (gthread)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--redis", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15"))
    args = parser.parse_args(argv)

    total_start = time.perf_counter()
    setup = api_load.bench_database_setup(args.database_url, args.redis, name="bench/croupier_screen.py")
    if setup is None:
        return 0
    server, env = setup
    import django

    django.setup()
    from django.db import connections

    from rules.engines import stud

    floor = browser_sessions(api_load.floor_setup(args.croupiers))
    config = stud.build_config(api_load.STUD_CONFIG)
    connections.close_all()
    port = api_load._free_port()
    services = api_load.Services(env, port, args.workers, args.threads, "gthread")
    errors: list[str] = []
    try:
        services.start()
        print(f"gunicorn on 127.0.0.1:{port} ({args.workers} gthread workers x {args.threads} threads), one Celery "
              f"worker; {args.croupiers} tables, {args.players} players a hand, think {args.think:.1f} s; "
              f"set-up {time.perf_counter() - total_start:.0f} s")
        gate = threading.Event()
        threads = [Croupier(index=i, port=port, table=table, token=token, session=session, csrf=csrf,
                            hands=args.hands, think=args.think, config=config, players=args.players)
                   for i, (table, token, session, csrf) in enumerate(floor)]
        for thread in threads:
            thread.start_gate = gate
            thread.start()
        start = time.perf_counter()
        gate.set()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - start
        page = [x for t in threads for x in t.latencies["page"]]
        api = [x for t in threads for x in t.latencies["api"]]
        errors = [e for t in threads for e in t.errors]
        print(f"paced: {len(page) + len(api)} actions in {wall:.1f} s = {(len(page) + len(api)) / wall:.1f} actions/s; "
              f"machine load average (1 min) at the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        page_line, page50, page99 = report("page (request to rendered #hand fragment)", page)
        api_line, api50, api99 = report("bare JSON API (request to JSON answer)", api)
        print(page_line)
        print(api_line)
        print(f"  ratio page / API: p50 x{page50 / api50:.2f}, p99 x{page99 / api99:.2f}")
        print(f"  targets: page p99 < {P99_TARGET_MS:.0f} ms: {'met' if page99 < P99_TARGET_MS else 'NOT met'}; "
              f"p99 ratio < {RATIO_TARGET}x: {'met' if page99 / api99 < RATIO_TARGET else 'NOT met'}")
        if errors:
            print(f"  ERRORS ({len(errors)}): " + "; ".join(errors[:3]))
    finally:
        services.stop()
        connections.close_all()
        api_load.database_drop(server)
    print(f"bench: done in {time.perf_counter() - total_start:.0f} s")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
