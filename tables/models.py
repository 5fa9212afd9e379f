"""Tables, limit profiles (versioned), dealers and rotation, table sessions, hands and their event log.

DESIGN.md "tables/". Money on these models is ``Decimal`` in EUR (the edge); engines get cents.
Status fields move only through :func:`casino.status.status_transition` with the ``ALLOWED`` tables
declared here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from casino.text_limits import NOTE_MAX_CHARS, text_length_checks
from rules.registry import GAMES

#: The games, from the one list of games (:data:`rules.registry.GAMES`): members ``SEVEN_CARD_STUD``,
#: ``RAZZ``, ``SEVEN_CARD_STUD_HI_LO``, ``FORTY_ONE``, ``CAPSA_SUSUN`` ... A new game changes these choices:
#: its migration records them.
Game = models.TextChoices("Game", [(spec.name.upper(), (spec.name, _(spec.label))) for spec in GAMES])

#: Players per hand of each game, from the registry (R1.1 stud 2-8; B.9 Forty-one 3-7; A.2 Capsa 2-4).
SEAT_RANGE: dict[str, tuple[int, int]] = {spec.name: spec.players for spec in GAMES}


class Table(models.Model):
    """A gaming table: one game, a fixed number of seats, a status (closed / open / paused)."""

    class Status(models.TextChoices):
        # A table is "geschlossen" in German, a hand or a gaming day "abgeschlossen": one msgid per sense.
        CLOSED = "closed", pgettext_lazy("table status", "closed")
        OPEN = "open", _("open")
        PAUSED = "paused", _("paused")

    ALLOWED = {
        Status.CLOSED: {Status.OPEN},
        Status.OPEN: {Status.PAUSED, Status.CLOSED},
        Status.PAUSED: {Status.OPEN, Status.CLOSED},
    }

    name = models.CharField(_("name"), max_length=64, unique=True)
    game = models.CharField(_("game"), max_length=32, choices=Game.choices)
    seats = models.PositiveSmallIntegerField(_("seats"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.CLOSED)
    #: The dealer button (stud, Capsa) or forehand (Forty-one) of the table's next hand; moves clockwise.
    button_seat = models.PositiveSmallIntegerField(_("button seat"), null=True, blank=True)
    #: The croupier's screen asks for every down card (a house that records them, e.g. from a camera);
    #: off: face-down cards are logged as unknown (``??``) and named when shown (issue 15).
    record_down_cards = models.BooleanField(
        default=False, verbose_name=_("record down cards"),
        help_text=_("The croupier's screen asks for every face-down card (e.g. a house with a camera); off: they "
                    "are logged as unknown and named when shown."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.CheckConstraint(condition=Q(seats__gte=2) & Q(seats__lte=8), name="table_seats_2_to_8")]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return self.name


class LimitProfile(models.Model):
    """One version of a table's limits: the engine config keys of its game, validated by the engine.

    ``config`` holds the spec's config keys (``docs/rules/*.md`` configuration keys), money
    as EUR decimal strings. Versions are immutable once a hand used them: a change is a new version
    with a higher ``version`` that applies from the table's next hand.
    """

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="limit_profiles")
    version = models.PositiveIntegerField(_("version"))
    game = models.CharField(_("game"), max_length=32, choices=Game.choices)
    #: Human label of the limit level for reports, e.g. "5/10" or "2-4 @ 1.00".
    limit_label = models.CharField(_("limit label"), max_length=64)
    config = models.JSONField(_("config"), default=dict)
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    chip_unit = models.DecimalField(_("chip unit"), max_digits=10, decimal_places=2, default="1.00")
    effective_from = models.DateTimeField(_("effective from"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    reason = models.TextField(_("reason"), blank=True, default="", max_length=NOTE_MAX_CHARS)

    class Meta:
        ordering = ["table", "-version"]
        constraints = [models.UniqueConstraint(fields=["table", "version"], name="limit_profile_version_unique"),
                       *text_length_checks("limit_profile", "reason")]
        verbose_name = _("limit profile")
        verbose_name_plural = _("limit profiles")

    def __str__(self) -> str:
        return f"{self.table} v{self.version} {self.limit_label}"


class LimitChangeRequest(models.Model):
    """Players' request for a different limit (house sheets), approved or rejected by the floor."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    ALLOWED = {Status.PENDING: {Status.APPROVED, Status.REJECTED}}

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="limit_change_requests")
    limit_label = models.CharField(_("limit label"), max_length=64)
    requested_config = models.JSONField(_("requested config"), default=dict)
    note = models.TextField(_("note"), blank=True, default="", max_length=NOTE_MAX_CHARS)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("requested by"), null=True, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision_note = models.TextField(_("decision note"), blank=True, default="", max_length=NOTE_MAX_CHARS)
    resulting_profile = models.OneToOneField(LimitProfile, verbose_name=_("resulting profile"), null=True, blank=True, on_delete=models.PROTECT,
                                             related_name="request")

    class Meta:
        ordering = ["-requested_at"]
        verbose_name = _("limit change request")
        verbose_name_plural = _("limit change requests")
        constraints = text_length_checks("limit_change_request", "note", "decision_note")

    def __str__(self) -> str:
        return f"{self.table}: {self.limit_label} ({self.status})"


class Dealer(models.Model):
    """A croupier: a staff user and the games they may deal (list of game names)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.PROTECT, related_name="dealer")
    games = models.JSONField(_("games"), default=list)
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        ordering = ["user__username"]
        verbose_name = _("dealer")
        verbose_name_plural = _("dealers")

    def __str__(self) -> str:
        return self.user.get_username()

    def may_deal(self, game: str) -> bool:
        return game in self.games


class RotationPlan(models.Model):
    """A proposed dealer rotation for a shift window; the floor may edit its slots before publishing."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("proposed")
        PUBLISHED = "published", _("published")
        CANCELLED = "cancelled", _("cancelled")

    ALLOWED = {Status.PROPOSED: {Status.PUBLISHED, Status.CANCELLED}, Status.PUBLISHED: {Status.CANCELLED}}

    name = models.CharField(_("name"), max_length=128)
    shift_start = models.DateTimeField(_("shift start"))
    shift_end = models.DateTimeField(_("shift end"))
    period_minutes = models.PositiveIntegerField(_("period minutes"), default=30)
    periods_before_break = models.PositiveIntegerField(_("periods before break"), default=2)
    tables = models.ManyToManyField(Table, verbose_name=_("tables"), related_name="rotation_plans")
    dealers = models.ManyToManyField(Dealer, verbose_name=_("dealers"), related_name="rotation_plans")
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PROPOSED)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-shift_start"]
        verbose_name = _("rotation plan")
        verbose_name_plural = _("rotation plans")

    def __str__(self) -> str:
        return self.name


class RotationSlot(models.Model):
    """One period of a plan for one dealer: at a table, or on a break (``table`` null)."""

    plan = models.ForeignKey(RotationPlan, verbose_name=_("plan"), on_delete=models.CASCADE, related_name="slots")
    dealer = models.ForeignKey(Dealer, verbose_name=_("dealer"), on_delete=models.PROTECT, related_name="rotation_slots")
    table = models.ForeignKey(Table, verbose_name=_("table"), null=True, blank=True, on_delete=models.PROTECT, related_name="rotation_slots")
    start = models.DateTimeField(_("start"))
    end = models.DateTimeField(_("end"))

    class Meta:
        ordering = ["plan", "start", "dealer"]
        constraints = [models.CheckConstraint(condition=Q(end__gt=models.F("start")), name="rotation_slot_end_after_start")]
        verbose_name = _("rotation slot")
        verbose_name_plural = _("rotation slots")

    def __str__(self) -> str:
        return f"{self.dealer} {self.table or 'break'} {self.start:%H:%M}-{self.end:%H:%M}"


class DealerAssignment(models.Model):
    """Who actually dealt at which table and when (``end`` null = dealing now)."""

    dealer = models.ForeignKey(Dealer, verbose_name=_("dealer"), on_delete=models.PROTECT, related_name="assignments")
    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="assignments")
    start = models.DateTimeField(_("start"))
    end = models.DateTimeField(_("end"), null=True, blank=True)
    slot = models.ForeignKey(RotationSlot, verbose_name=_("slot"), null=True, blank=True, on_delete=models.SET_NULL, related_name="assignments")

    class Meta:
        ordering = ["-start"]
        constraints = [
            models.CheckConstraint(condition=Q(end__isnull=True) | Q(end__gt=models.F("start")),
                                   name="assignment_end_after_start"),
        ]
        verbose_name = _("dealer assignment")
        verbose_name_plural = _("dealer assignments")

    def __str__(self) -> str:
        return f"{self.dealer} at {self.table} from {self.start:%H:%M}"


class DutyCorrection(models.Model):
    """A correction of the duty roster after the fact (issue 20): who really dealt at which table from
    ``start`` to ``end``, recorded with a reason beside the assignments (``assignment``: the one it corrects,
    if any). Assignments in the past are never edited: hands keep pointing to who was on duty then."""

    dealer = models.ForeignKey(Dealer, verbose_name=_("dealer"), on_delete=models.PROTECT, related_name="duty_corrections")
    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="duty_corrections")
    start = models.DateTimeField(_("start"))
    end = models.DateTimeField(_("end"))
    assignment = models.ForeignKey(DealerAssignment, verbose_name=_("dealer assignment"), null=True, blank=True,
                                   on_delete=models.PROTECT, related_name="corrections")
    reason = models.TextField(_("reason"), max_length=NOTE_MAX_CHARS)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("recorded by"), on_delete=models.PROTECT,
                                    related_name="+")
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        ordering = ["-recorded_at", "-id"]
        verbose_name = _("duty correction")
        verbose_name_plural = _("duty corrections")
        constraints = [
            models.CheckConstraint(condition=Q(end__gt=models.F("start")), name="duty_correction_end_after_start"),
            models.CheckConstraint(condition=~Q(reason=""), name="duty_correction_reason_required"),
            *text_length_checks("duty_correction", "reason"),
        ]

    def __str__(self) -> str:
        return f"correction: {self.dealer} at {self.table} {self.start:%H:%M}-{self.end:%H:%M}"


class TableSession(models.Model):
    """A table's opening and closing with the chip float counted at each (EUR)."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="sessions")
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("opened by"), null=True, on_delete=models.PROTECT, related_name="+")
    opening_float = models.DecimalField(_("opening float"), max_digits=12, decimal_places=2)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("closed by"), null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")
    closing_float = models.DecimalField(_("closing float"), max_digits=12, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(fields=["table"], condition=Q(closed_at__isnull=True),
                                    name="one_open_session_per_table"),
        ]
        verbose_name = _("table session")
        verbose_name_plural = _("table sessions")

    def __str__(self) -> str:
        return f"{self.table} session {self.opened_at:%Y-%m-%d %H:%M}"


class Hand(models.Model):
    """One hand (or Capsa deal) at a table: its frozen limit snapshot, seats, and status.

    ``seats`` maps seat number (string key) to ``{"stack": cents, "player_ref": str|None}``; never a name.
    The engine state is not stored: it is rebuilt by replaying ``events`` (DESIGN.md).
    """

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", pgettext_lazy("hand status", "closed")
        VOID = "void", _("void")

    ALLOWED = {Status.OPEN: {Status.CLOSED, Status.VOID}}

    class Reconciliation(models.TextChoices):
        NOT_DUE = "not_due", _("not due")
        AWAITING = "awaiting", _("awaiting")
        RECONCILED = "reconciled", _("reconciled")
        DISCREPANCY = "discrepancy", _("discrepancy")

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="hands")
    session = models.ForeignKey(TableSession, verbose_name=_("session"), null=True, blank=True, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField(_("number"))
    game = models.CharField(_("game"), max_length=32, choices=Game.choices)
    dealer = models.ForeignKey(Dealer, verbose_name=_("dealer"), null=True, blank=True, on_delete=models.PROTECT, related_name="hands")
    button_seat = models.PositiveSmallIntegerField(_("button seat"))
    limit_profile = models.ForeignKey(LimitProfile, verbose_name=_("limit profile"), on_delete=models.PROTECT, related_name="hands")
    limit_snapshot = models.JSONField(_("limit snapshot"))
    seats = models.JSONField(_("seats"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OPEN)
    reconciliation = models.CharField(_("reconciliation"), max_length=16, choices=Reconciliation.choices, default=Reconciliation.NOT_DUE)
    event_count = models.PositiveIntegerField(_("event count"), default=0)
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("opened by"), null=True, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    #: The gaming day the hand belongs to (set from ``opened_at`` by the one gaming-day function).
    gaming_day = models.DateField(_("gaming day"), db_index=True)
    void_reason = models.TextField(_("void reason"), blank=True, default="", max_length=NOTE_MAX_CHARS)
    source = models.CharField(_("source"), max_length=32, default="live")
    digest = models.CharField(_("digest"), max_length=64, blank=True, default="",
                              help_text="head of the hand's digest chain (casino.digests): the last event's digest")

    class Meta:
        ordering = ["-opened_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique_per_table"),
                       *text_length_checks("hand", "void_reason")]
        indexes = [models.Index(fields=["table", "status"])]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")

    def __str__(self) -> str:
        return f"{self.table} #{self.number}"

    @property
    def reference(self) -> str:
        """How a message names the hand: its number at the table, which croupiers say, and its id, which
        every URL needs (``"hand #12 (id 345)"``, in the reader's language)."""
        return gettext("hand #%(number)s (id %(id)s)") % {"number": self.number, "id": self.pk}

    @property
    def reference_extra(self) -> dict[str, int]:
        """The ``extra`` of an API error about this hand: ``{"hand": id, "hand_number": number}``."""
        return {"hand": self.pk, "hand_number": self.number}


class HandEvent(models.Model):
    """One engine event of a hand: append-only, sequence-numbered, with the client's idempotency key."""

    hand = models.ForeignKey(Hand, verbose_name=_("hand"), on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(_("seq"))
    payload = models.JSONField(_("payload"))
    idempotency_key = models.CharField(_("idempotency key"), max_length=128)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    digest = models.CharField(_("digest"), max_length=64, blank=True, default="",
                              help_text="this event's link of the hand's digest chain")

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="hand_event_seq_unique"),
            models.UniqueConstraint(fields=["hand", "idempotency_key"], name="hand_event_idempotency_unique"),
        ]
        verbose_name = _("hand event")
        verbose_name_plural = _("hand events")

    def __str__(self) -> str:
        return f"{self.hand} event {self.seq}: {self.payload.get('type')}"


class FloorCall(models.Model):
    """A croupier's call for the floor manager at a table (a ruling, a dispute, chips, players asking
    for other limits ...), open until the floor resolves it. Shown as an alert on ``/floor/``."""

    class Reason(models.TextChoices):
        RULING = "ruling", _("ruling needed")
        DISPUTE = "dispute", _("dispute at the table")
        LIMIT_REQUEST = "limit_request", _("players ask for other limits")
        SEAT = "seat", _("seat open or seat change")
        CHIPS = "chips", _("chips needed (fill)")
        DEALER_RELIEF = "dealer_relief", _("dealer needs relief")
        OTHER = "other", _("other")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVED = "resolved", _("resolved")

    ALLOWED = {Status.OPEN: {Status.RESOLVED}}

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="floor_calls")
    hand = models.ForeignKey("Hand", verbose_name=_("hand"), null=True, blank=True, on_delete=models.PROTECT, related_name="floor_calls")
    reason = models.CharField(_("reason"), max_length=32, choices=Reason.choices)
    note = models.TextField(_("note"), blank=True, default="", max_length=NOTE_MAX_CHARS)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("resolved by"), null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolution_note = models.TextField(_("resolution note"), blank=True, default="", max_length=NOTE_MAX_CHARS)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "table"])]
        constraints = text_length_checks("floor_call", "note", "resolution_note")
        verbose_name = _("floor call")
        verbose_name_plural = _("floor calls")

    def __str__(self) -> str:
        return f"{self.table}: {self.reason} ({self.status})"


class DealerPush(models.Model):
    """A dealer moved by the floor: assigned to a table, relieved, or sent to a break, with the reason.

    ``uncovered_table`` names the open table the push left without a dealer (the floor confirmed it).
    """

    class Kind(models.TextChoices):
        ASSIGN = "assign", _("assign to a table")
        RELIEVE = "relieve", _("relieve")
        BREAK = "break", _("send to a break")

    dealer = models.ForeignKey(Dealer, verbose_name=_("dealer"), on_delete=models.PROTECT, related_name="pushes")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    table = models.ForeignKey(Table, verbose_name=_("table"), null=True, blank=True, on_delete=models.PROTECT, related_name="pushes")
    from_table = models.ForeignKey(Table, verbose_name=_("from table"), null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    uncovered_table = models.ForeignKey(Table, verbose_name=_("uncovered table"), null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(_("reason"), max_length=200)
    at = models.DateTimeField(_("at"), db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("actor"), null=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("dealer push")
        verbose_name_plural = _("dealer pushes")

    def __str__(self) -> str:
        return f"{self.dealer} {self.kind} {self.at:%H:%M}"


class WaitingListEntry(models.Model):
    """One player on the list for a game and limit: initials or a player-card number, no other data.

    The longest-waiting first (``position``, then ``added_at``); the floor may move an entry with a note.
    Seating an entry offers ``table``/``seat`` to the croupier's next hand until ``offer_taken_at``.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        CALLED = "called", _("called")
        SEATED = "seated", _("seated")
        REMOVED = "removed", _("removed")

    ALLOWED = {
        Status.WAITING: {Status.CALLED, Status.SEATED, Status.REMOVED},
        Status.CALLED: {Status.SEATED, Status.WAITING, Status.REMOVED},
    }

    game = models.CharField(_("game"), max_length=32, choices=Game.choices)
    limit_label = models.CharField(_("limit label"), max_length=64)
    player_ref = models.CharField(_("player ref"), max_length=16)
    position = models.IntegerField(_("position"), default=0, db_index=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.WAITING)
    note = models.CharField(_("note"), max_length=200, blank=True, default="")
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("added by"), null=True, on_delete=models.PROTECT, related_name="+")
    added_at = models.DateTimeField(_("added at"))
    called_at = models.DateTimeField(_("called at"), null=True, blank=True)
    called_table = models.ForeignKey(Table, verbose_name=_("called table"), null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    seated_at = models.DateTimeField(_("seated at"), null=True, blank=True)
    table = models.ForeignKey(Table, verbose_name=_("table"), null=True, blank=True, on_delete=models.PROTECT, related_name="seated_from_list")
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    offer_taken_at = models.DateTimeField(_("offer taken at"), null=True, blank=True)
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    removed_reason = models.CharField(_("removed reason"), max_length=200, blank=True, default="")

    class Meta:
        ordering = ["game", "limit_label", "position", "added_at", "id"]
        indexes = [models.Index(fields=["status", "game", "limit_label"])]
        constraints = [
            models.UniqueConstraint(fields=["game", "limit_label", "player_ref"],
                                    condition=Q(status__in=["waiting", "called"]), name="waiting_once_per_list"),
            models.UniqueConstraint(fields=["table", "seat"], condition=Q(status="seated", offer_taken_at__isnull=True),
                                    name="one_pending_offer_per_seat"),
        ]
        verbose_name = _("waiting list entry")
        verbose_name_plural = _("the list")

    def __str__(self) -> str:
        return f"{self.player_ref} ({self.game} {self.limit_label}, {self.status})"
