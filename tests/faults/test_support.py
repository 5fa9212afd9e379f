"""The fault tests' own support: pointing the project's Celery app at a private broker and back must leave the
app answering for shared tasks (``app.close()`` took it out of Celery's active apps, so a task module imported
later, e.g. ``casino.tasks``, never registered: ``NotRegistered 'casino.ping'`` in a later test)."""

from __future__ import annotations

from celery import shared_task

from tests.faults.support import celery_app_on


def test_a_shared_task_defined_after_the_broker_switch_registers_with_the_project_app():
    from casino.celery import app as project_app

    project_app.finalize()  # as in a test session that has published a task: later tasks register at once
    with celery_app_on("redis://127.0.0.1:1/0") as app:  # never connected to: nothing is published here
        pass

    @shared_task(name="tests.faults.defined_after_the_switch")
    def defined_after_the_switch() -> str:
        return "registered"

    assert "tests.faults.defined_after_the_switch" in app.tasks
    assert app.tasks["tests.faults.defined_after_the_switch"].name == defined_after_the_switch.name
