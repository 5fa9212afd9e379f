"""WSGI entry point for gunicorn (``gunicorn casino.wsgi``).

Each web process loads the application here, then its URL patterns (which import every view and serializer)
and both languages' catalogues, and then moves everything loaded so far out of the garbage collector's sight
(:func:`gc.freeze`, issue 19). Python's full collection otherwise walks every object the process holds, some
hundred thousand after start-up, with the process's threads stopped: measured at 100 to 400 ms on this
machine, once every thousand or so requests, it was the slowest one percent of logged actions. Frozen objects
are the code and configuration loaded at start, which live as long as the process anyway; whatever a request
creates is collected as before.
"""

import gc
import logging
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

application = get_wsgi_application()


def _load_and_freeze() -> None:
    """Load what the first requests would load lazily (URL patterns with their views, the language catalogues),
    collect the start-up garbage once, then freeze the survivors (see the module docstring). Logs an error for a
    language catalogue that is not compiled (:func:`casino.checks.catalogue_problems`)."""
    from django.conf import settings
    from django.urls import get_resolver
    from django.utils import translation

    from casino.checks import catalogue_problems

    get_resolver().url_patterns  # noqa: B018 - imports every URL module, view and serializer
    for problem in catalogue_problems():  # casino.W001: served uncompiled, German readers would get English
        logging.getLogger("casino").error("language catalogue %s: run `make messages` (manage.py compilemessages)",
                                          problem)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("hand")
    gc.collect()
    gc.freeze()


_load_and_freeze()
