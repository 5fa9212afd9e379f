"""System checks of this service (``manage.py check``, which ``migrate`` and ``runserver`` run too, and
``check --deploy`` before a release).

``casino.W001``: a language catalogue is not compiled. The catalogues' sources (``locale/<language>/LC_MESSAGES/
django.po``) are in the repository; what Django reads is the compiled ``django.mo`` beside each, which is not
(``.gitignore``): ``make messages`` or ``python manage.py compilemessages`` makes it. A checkout served without it
answers German readers in English, with only Django's own texts in German (break-test finding). A web process
also logs it at start (``casino/wsgi.py``).
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.checks import Tags, Warning, register


def catalogue_problems() -> list[str]:
    """Each catalogue source under ``settings.LOCALE_PATHS`` whose compiled ``.mo`` is missing or older than it,
    as ``"<path of the .po>: <what is wrong>"`` (English, for operators' logs); empty when all are compiled."""
    problems = []
    for folder in settings.LOCALE_PATHS:
        for source in sorted(Path(folder).glob("*/LC_MESSAGES/*.po")):
            compiled = source.with_suffix(".mo")
            if not compiled.exists():
                problems.append(f"{source}: not compiled (no {compiled.name})")
            elif compiled.stat().st_mtime < source.stat().st_mtime:
                problems.append(f"{source}: changed after {compiled.name} was compiled")
    return problems


@register(Tags.translation)
def catalogues_compiled(app_configs, **kwargs) -> list[Warning]:
    """``casino.W001`` for each catalogue :func:`catalogue_problems` finds (see the module docstring)."""
    return [Warning(f"language catalogue {problem}: its readers get English texts",
                    hint="run `make messages` (python manage.py compilemessages) before serving", id="casino.W001")
            for problem in catalogue_problems()]
