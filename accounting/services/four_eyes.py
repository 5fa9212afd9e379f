"""Four eyes (issue 17): a step that must be done by a person other than the ones before it.

Drop and tronc counts are recorded by one accountant and confirmed by a second; a variance over the
threshold is signed off by a third who did neither; resolving a discrepancy or reversing an entry
above ``FOUR_EYES_APPROVAL_AMOUNT`` (EUR, default 50.00) needs a second person's approval; re-opening
a closed gaming day always does.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from django.conf import settings
from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from casino.roles import ACCOUNTANT, has_role
from rules.engines.money import from_cents, to_cents

DEFAULT_APPROVAL_AMOUNT = "50.00"


def approval_amount() -> Decimal:
    """``FOUR_EYES_APPROVAL_AMOUNT`` (EUR): above it, resolving a discrepancy or reversing an entry needs a
    second person's approval."""
    return from_cents(to_cents(str(getattr(settings, "FOUR_EYES_APPROVAL_AMOUNT", DEFAULT_APPROVAL_AMOUNT)),
                               field="FOUR_EYES_APPROVAL_AMOUNT"))


def accountant_check(actor, *, step: str) -> None:
    """Refuse ``step`` (a readable verb phrase) to anyone who is not an accountant (403)."""
    if not has_role(actor, ACCOUNTANT):
        raise ApplicationError(_("only an accountant may %(step)s") % {"step": step}, code="permission_denied",
                               status_code=403)


def second_person_check(*, actor, earlier: Iterable, step: str) -> None:
    """Refuse ``step`` to a person who already did an earlier step of the same thing.

    ``earlier`` are the users (or ``None``) of the earlier steps. Raises
    ``ApplicationError(code="second_person_required", status_code=403)`` with a message that says why.
    """
    ids = {getattr(user, "pk", None) for user in earlier} - {None}
    if getattr(actor, "pk", None) in ids:
        raise ApplicationError(
            _("four eyes: you already did an earlier step, so %(step)s must be done by another accountant")
            % {"step": step}, code="second_person_required", status_code=403)
