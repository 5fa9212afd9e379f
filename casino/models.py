"""Project-wide models: the audit trail every status change and approval writes to."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.text_limits import NOTE_MAX_CHARS, text_length_checks


class AuditEntry(models.Model):
    """One audited change: who, when, what, from which status to which, and why.

    Written in the same transaction as the change it records (STYLE.md rule 7). ``subject`` is the
    model label (``"tables.table"``) and ``subject_id`` its primary key, so one trail serves every model.
    """

    subject = models.CharField(_("subject"), max_length=64, db_index=True)
    subject_id = models.CharField(_("subject id"), max_length=64, db_index=True)
    action = models.CharField(_("action"), max_length=64)
    from_status = models.CharField(_("from status"), max_length=32, blank=True, default="")
    to_status = models.CharField(_("to status"), max_length=32, blank=True, default="")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("actor"), null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+")
    reason = models.TextField(_("reason"), blank=True, default="", max_length=NOTE_MAX_CHARS)
    data = models.JSONField(_("data"), default=dict, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        constraints = text_length_checks("audit_entry", "reason")

    def __str__(self) -> str:
        return f"{self.subject}#{self.subject_id} {self.action} {self.from_status}->{self.to_status}"


class StaffPreference(models.Model):
    """A staff member's saved settings: the language the service speaks to them (issue 18).

    ``language`` is one of ``settings.LANGUAGES`` (``"de-at"``, ``"en"``) or blank for "as the browser asks".
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_preference",
                                verbose_name=_("user"))
    language = models.CharField(_("language"), max_length=10, blank=True, default="", choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("staff preference")
        verbose_name_plural = _("staff preferences")

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'}"
