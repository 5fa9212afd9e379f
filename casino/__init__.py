"""The casino back-office project package: settings, urls, Celery app, API root and error handler."""

from casino.celery import app as celery_app

__all__ = ("celery_app",)
