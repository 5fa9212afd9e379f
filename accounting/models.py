"""Double-entry ledger, reconciliation discrepancies, drop counts and report jobs.

DESIGN.md "accounting/", after django-hordak: a :class:`JournalEntry` has :class:`Posting` legs whose
signed amounts (debit positive, credit negative, EUR ``Decimal`` with two places) sum to zero; the
database refuses otherwise on PostgreSQL (a deferred constraint trigger, see the migrations), and the
posting service checks on every backend. Entries are never edited: a correction is a reversing entry
that points to the original.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.text_limits import NOTE_MAX_CHARS, text_length_checks


class Account(models.Model):
    """A ledger account. ``code`` is unique and stable, e.g. ``"table:7:pot"`` or ``"house:bonus_expense"``."""

    class Kind(models.TextChoices):
        ASSET = "asset", _("asset")
        LIABILITY = "liability", _("liability")
        REVENUE = "revenue", _("revenue")
        EXPENSE = "expense", _("expense")
        CLEARING = "clearing", _("clearing")

    code = models.CharField(_("code"), max_length=96, unique=True)
    name = models.CharField(_("name"), max_length=160)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    table = models.ForeignKey("tables.Table", verbose_name=_("table"), null=True, blank=True, on_delete=models.PROTECT, related_name="accounts")
    currency = models.CharField(_("currency"), max_length=3, default="EUR")

    class Meta:
        ordering = ["code"]
        verbose_name = _("account")
        verbose_name_plural = _("accounts")

    def __str__(self) -> str:
        return self.code


class JournalEntry(models.Model):
    """One balanced ledger transaction; ``idempotency_key`` unique so a replay posts nothing twice."""

    class Kind(models.TextChoices):
        HAND_SETTLEMENT = "hand_settlement", _("hand settlement")
        HAND_VOID = "hand_void", _("hand void")
        REVERSAL = "reversal", _("reversal")
        DROP_COUNT = "drop_count", _("drop count")
        ADJUSTMENT = "adjustment", _("adjustment")

    idempotency_key = models.CharField(_("idempotency key"), max_length=128, unique=True)
    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices)
    memo = models.CharField(_("memo"), max_length=255, blank=True, default="")
    hand = models.ForeignKey("tables.Hand", verbose_name=_("hand"), null=True, blank=True, on_delete=models.PROTECT, related_name="journal_entries")
    table = models.ForeignKey("tables.Table", verbose_name=_("table"), null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField(_("gaming day"), db_index=True)
    posted_at = models.DateTimeField(_("posted at"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    reverses = models.OneToOneField("self", verbose_name=_("reverses"), null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by")
    reason = models.TextField(_("reason"), blank=True, default="", max_length=NOTE_MAX_CHARS)
    digest = models.CharField(_("digest"), max_length=64, blank=True, default="",
                              help_text="this entry's link of the ledger's digest chain (casino.digests)")

    class Meta:
        ordering = ["-posted_at", "-id"]
        verbose_name = _("journal entry")
        verbose_name_plural = _("journal entries")
        constraints = text_length_checks("journal_entry", "reason")

    def __str__(self) -> str:
        return f"{self.kind} {self.idempotency_key}"


class Posting(models.Model):
    """One leg of an entry: ``amount`` EUR, signed (debit > 0, credit < 0), never zero.

    ``seat`` / ``player_ref`` say which seat a player-chips leg belongs to; ``role`` what the leg is
    (``contribution``, ``award``, ``returned``, ``tax``, ``fee``, ``bonus``, ``transfer``).
    """

    entry = models.ForeignKey(JournalEntry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="postings")
    account = models.ForeignKey(Account, verbose_name=_("account"), on_delete=models.PROTECT, related_name="postings")
    amount = models.DecimalField(_("amount"), max_digits=14, decimal_places=2)
    role = models.CharField(_("role"), max_length=32, blank=True, default="")
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    player_ref = models.CharField(_("player ref"), max_length=64, blank=True, default="")
    pot_index = models.PositiveSmallIntegerField(_("pot index"), null=True, blank=True)

    class Meta:
        ordering = ["entry", "id"]
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="posting_amount_not_zero")]
        verbose_name = _("posting")
        verbose_name_plural = _("postings")

    def __str__(self) -> str:
        return f"{self.account} {self.amount}"


class Discrepancy(models.Model):
    """A difference found by reconciliation: what, expected, found, where. Never fixed automatically."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVED = "resolved", _("resolved")

    ALLOWED = {Status.OPEN: {Status.RESOLVED}}

    check_key = models.CharField(_("check key"), max_length=160, unique=True)
    kind = models.CharField(_("kind"), max_length=64)
    what = models.CharField(_("what"), max_length=255)
    expected = models.CharField(_("expected"), max_length=255, blank=True, default="")
    found = models.CharField(_("found"), max_length=255, blank=True, default="")
    #: The text's stable code (``accounting.findings.FINDING_TEXTS``) and its parameters (with the
    #: ``expected`` / ``found`` sides): the text is rendered from them in the reader's language; ``what``,
    #: ``expected`` and ``found`` keep the English for exports and audits. Blank for rows written before.
    what_code = models.CharField(_("text code"), max_length=64, blank=True, default="")
    what_params = models.JSONField(_("text parameters"), default=dict, blank=True)
    hand = models.ForeignKey("tables.Hand", verbose_name=_("hand"), null=True, blank=True, on_delete=models.PROTECT, related_name="discrepancies")
    table = models.ForeignKey("tables.Table", verbose_name=_("table"), null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField(_("gaming day"), null=True, blank=True, db_index=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OPEN)
    found_at = models.DateTimeField(_("found at"), auto_now_add=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("resolved by"), null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    resolution_note = models.TextField(_("resolution note"), blank=True, default="", max_length=NOTE_MAX_CHARS)

    class Meta:
        ordering = ["-found_at"]
        verbose_name = _("discrepancy")
        verbose_name_plural = _("discrepancies")
        constraints = text_length_checks("discrepancy", "resolution_note")

    def __str__(self) -> str:
        return f"{self.kind_text}: {self.what_text}"

    @property
    def what_text(self) -> str:
        """What differs, in the active language (:func:`accounting.findings.discrepancy_what`)."""
        from accounting.findings import discrepancy_what

        return discrepancy_what(self)

    @property
    def expected_text(self) -> str:
        """The expected side in the active language (amounts ``40,00`` in German)."""
        from accounting.findings import discrepancy_expected

        return discrepancy_expected(self)

    @property
    def found_text(self) -> str:
        """The found side in the active language (amounts ``40,00`` in German)."""
        from accounting.findings import discrepancy_found

        return discrepancy_found(self)

    @property
    def kind_text(self) -> str:
        """The kind of finding in words of the active language."""
        from accounting.findings import discrepancy_kind

        return discrepancy_kind(self.kind)

    @property
    def resolution_note_text(self) -> str:
        """The resolution note, its "(approved by ...)" in the active language (:func:`casino.i18n.stored_text`)."""
        from casino.i18n import stored_text

        return stored_text(self.resolution_note)


class ReconciliationRun(models.Model):
    """One claimed reconciliation of a hand or a gaming day (unique ``key``: a task run twice does it once)."""

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        OK = "ok", _("ok")
        DISCREPANCY = "discrepancy", _("discrepancy")
        FAILED = "failed", _("failed")

    class Scope(models.TextChoices):
        HAND = "hand", _("hand")
        DAY = "day", _("gaming day")

    key = models.CharField(_("key"), max_length=160, unique=True)
    scope = models.CharField(_("scope"), max_length=16, choices=Scope.choices)
    hand = models.ForeignKey("tables.Hand", verbose_name=_("hand"), null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField(_("gaming day"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.RUNNING)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    summary = models.JSONField(_("summary"), default=dict, blank=True)

    class Meta:
        verbose_name = _("reconciliation run")
        verbose_name_plural = _("reconciliation runs")

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"


class DropCount(models.Model):
    """The count team's counted contents of one table's drop box for a gaming day or shift (EUR)."""

    class Status(models.TextChoices):
        RECORDED = "recorded", _("recorded")
        NEEDS_SIGN_OFF = "needs_sign_off", _("needs sign off")
        SIGNED_OFF = "signed_off", _("signed off")

    ALLOWED = {Status.NEEDS_SIGN_OFF: {Status.SIGNED_OFF}}

    table = models.ForeignKey("tables.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="drop_counts")
    gaming_day = models.DateField(_("gaming day"))
    shift = models.CharField(_("shift"), max_length=32, blank=True, default="")
    counted = models.DecimalField(_("counted"), max_digits=14, decimal_places=2)
    logged = models.DecimalField(_("logged"), max_digits=14, decimal_places=2)
    variance = models.DecimalField(_("variance"), max_digits=14, decimal_places=2)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.RECORDED)
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("counted by"), null=True, on_delete=models.PROTECT, related_name="+")
    counted_at = models.DateTimeField(_("counted at"), auto_now_add=True)
    signed_off_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("signed off by"), null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="+")
    signed_off_at = models.DateTimeField(_("signed off at"), null=True, blank=True)
    sign_off_note = models.TextField(_("sign off note"), blank=True, default="", max_length=NOTE_MAX_CHARS)
    #: Four eyes (issue 17): a second accountant, not the one who counted, confirms the count.
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("confirmed by"), null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+")
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        ordering = ["-gaming_day", "table"]
        constraints = [models.UniqueConstraint(fields=["table", "gaming_day", "shift"], name="drop_count_unique"),
                       *text_length_checks("drop_count", "sign_off_note")]
        verbose_name = _("drop count")
        verbose_name_plural = _("drop counts")

    def __str__(self) -> str:
        return f"{self.table} {self.gaming_day} {self.shift}: {self.counted}"


class ReportJob(models.Model):
    """A tax report built by a Celery job for a large period, with progress the accountant can watch."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    kind = models.CharField(_("kind"), max_length=32, default="tax_report")
    fmt = models.CharField(_("fmt"), max_length=8)
    date_from = models.DateField(_("date from"))
    date_to = models.DateField(_("date to"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    file = models.FileField(_("file"), upload_to="reports/", blank=True)
    error = models.TextField(_("error"), blank=True, default="", max_length=NOTE_MAX_CHARS)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("requested by"), null=True, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("report job")
        verbose_name_plural = _("report jobs")
        constraints = text_length_checks("report_job", "error")

    def __str__(self) -> str:
        return f"{self.kind} {self.fmt} {self.date_from}..{self.date_to} ({self.status})"


class TroncCount(models.Model):
    """The counted tronc (tips) box of one table for a gaming day and shift (EUR): the staff's, not the house's.

    Counted like the drop (issue 17): recorded by one accountant, confirmed by a second. It is never
    part of gross gaming revenue and has no ledger side to compare with.
    """

    table = models.ForeignKey("tables.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="tronc_counts")
    gaming_day = models.DateField(_("gaming day"), db_index=True)
    shift = models.CharField(_("shift"), max_length=32, blank=True, default="")
    counted = models.DecimalField(_("counted"), max_digits=14, decimal_places=2)
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("counted by"), null=True, on_delete=models.PROTECT, related_name="+")
    counted_at = models.DateTimeField(_("counted at"), auto_now_add=True)
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("confirmed by"), null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+")
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        ordering = ["-gaming_day", "table"]
        constraints = [models.UniqueConstraint(fields=["table", "gaming_day", "shift"], name="tronc_count_unique")]
        verbose_name = _("tronc count")
        verbose_name_plural = _("tronc counts")

    def __str__(self) -> str:
        return f"tronc {self.table} {self.gaming_day} {self.shift}: {self.counted}"


class GamingDay(models.Model):
    """The close of a gaming day (issue 17). A day without a row is open.

    Closing stores the day's report (``report``: its rows, tronc and totals as JSON) and the SHA-256
    ``checksum`` of it; the report of a closed day is read from here and never changes. Re-opening
    needs a reason and a second person (an :class:`Approval`); both are audited.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", pgettext_lazy("gaming day status", "closed")

    ALLOWED = {Status.OPEN: {Status.CLOSED}, Status.CLOSED: {Status.OPEN}}

    day = models.DateField(_("day"), unique=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OPEN)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("closed by"), null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    report = models.JSONField(_("report"), default=dict, blank=True)
    checksum = models.CharField(_("checksum"), max_length=64, blank=True, default="")
    closings = models.PositiveIntegerField(_("closings"), default=0)

    class Meta:
        ordering = ["-day"]
        verbose_name = _("gaming day")
        verbose_name_plural = _("gaming days")

    def __str__(self) -> str:
        return self.day.isoformat()


class Approval(models.Model):
    """A step that needs a second person (issue 17): requested by one, approved or rejected by another.

    ``kind`` says what is done on approval (resolve a discrepancy, reverse a journal entry, reopen a
    gaming day); ``subject_id`` is the discrepancy, entry or ``YYYY-MM-DD`` day; ``amount`` (EUR) what
    made it need the approval; ``note`` the requester's note or reason.
    """

    class Kind(models.TextChoices):
        DISCREPANCY_RESOLVE = "discrepancy_resolve", _("discrepancy resolve")
        ENTRY_REVERSE = "entry_reverse", _("entry reverse")
        GAMING_DAY_REOPEN = "gaming_day_reopen", _("gaming day reopen")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    ALLOWED = {Status.PENDING: {Status.APPROVED, Status.REJECTED}}

    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices)
    subject_id = models.CharField(_("subject id"), max_length=64)
    gaming_day = models.DateField(_("gaming day"), null=True, blank=True, db_index=True)
    amount = models.DecimalField(_("amount"), max_digits=14, decimal_places=2, null=True, blank=True)
    note = models.TextField(_("note"), max_length=NOTE_MAX_CHARS)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("requested by"), on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    result_id = models.CharField(_("result id"), max_length=64, blank=True, default="")

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["kind", "subject_id"], condition=Q(status="pending"),
                                               name="approval_one_pending_per_subject"),
                       *text_length_checks("approval", "note")]
        verbose_name = _("approval")
        verbose_name_plural = _("approvals")

    def __str__(self) -> str:
        return f"{self.kind} {self.subject_id} ({self.status})"
