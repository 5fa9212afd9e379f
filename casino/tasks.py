"""Project-level Celery tasks (the broker round-trip check)."""

from celery import shared_task


@shared_task(name="casino.ping", acks_late=True, time_limit=30, soft_time_limit=20)
def ping(value: str = "ping") -> str:
    """Return ``"pong:<value>"``; proves a task makes the round trip through the broker and a worker."""
    return f"pong:{value}"
