"""Admin pages of floor management (issue 7): tables, limit versions, limit change requests, dealers,
rotation plans, live assignments and table sessions, each with its audit history.

Every write goes through :mod:`tables.services.floor` (the same rules and audit rows as the API);
forms show the service's readable message on the field at fault. Limit versions, sessions and
assignments are read-only here once written (a change is a new version or a takeover).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from casino.admin_mixins import ReadOnlyAdminMixin
from casino.errors import ApplicationError
from casino.i18n import (
    audit_action_text,
    audit_data_text,
    audit_status_text,
    local_datetime_text,
    message_text,
    stored_text,
)
from casino.roles import ACCOUNTANT, FLOOR_MANAGER, has_role
from tables import selectors
from tables.models import (
    Dealer,
    DealerAssignment,
    DutyCorrection,
    Game,
    LimitChangeRequest,
    LimitProfile,
    RotationPlan,
    RotationSlot,
    Table,
    TableSession,
)
from tables.services import floor as services


def _form_error(err: ApplicationError, fields: list[str]) -> ValidationError:
    field = str(err.extra.get("field", "")).split(".")[0]
    message = message_text(err.message)
    return ValidationError({field: message} if field in fields else message)


class AuditHistoryMixin:
    """Adds a read-only "Audit history" field listing who changed what, when and why, and opens the floor
    pages by role (the role groups carry no model permissions): floor managers view, add and change
    (each admin's own overrides still make limit versions, sessions and assignments read-only);
    accountants view. Anyone else needs the model permission."""

    def has_module_permission(self, request):
        return has_role(request.user, FLOOR_MANAGER, ACCOUNTANT) or super().has_module_permission(request)

    def has_view_permission(self, request, obj=None):
        return has_role(request.user, FLOOR_MANAGER, ACCOUNTANT) or super().has_view_permission(request, obj)

    def has_add_permission(self, request, *args, **kwargs):
        return has_role(request.user, FLOOR_MANAGER) or super().has_add_permission(request, *args, **kwargs)

    def has_change_permission(self, request, obj=None):
        return has_role(request.user, FLOOR_MANAGER) or super().has_change_permission(request, obj)

    @admin.display(description=_("Audit history"))
    def audit_history(self, obj):
        if obj is None or obj.pk is None:
            return "-"
        rows = format_html_join(
            "", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            ((local_datetime_text(e.at), e.actor or "-", audit_action_text(e.action),
              (f"{audit_status_text(e.subject, e.action, e.from_status)} → "
               f"{audit_status_text(e.subject, e.action, e.to_status)}") if e.to_status else "",
              stored_text(e.reason), audit_data_text(e.data))
             for e in selectors.audit_history(obj=obj)[:200]),
        )
        return format_html("<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>{}"
                           "</table>", _("when"), _("who"), _("what"), _("status"), _("why"), _("details"), rows)


def _run(modeladmin, request, queryset, call, done: str):
    ok = 0
    for obj in queryset:
        try:
            call(obj)
            ok += 1
        except ApplicationError as err:
            modeladmin.message_user(request, f"{obj}: {message_text(err.message)}", messages.ERROR)
    if ok:
        modeladmin.message_user(request, f"{ok} {done}", messages.SUCCESS)


# ---- tables -------------------------------------------------------------------------------------

class TableForm(forms.ModelForm):
    reason = forms.CharField(label=_("reason"), required=False, help_text=_("why (audited)"))

    class Meta:
        model = Table
        fields = ["name", "game", "seats", "record_down_cards"]

    def clean(self):
        data = super().clean()
        game = data.get("game") or (self.instance.game if self.instance.pk else None)
        if game and data.get("seats") is not None:
            try:
                services.table_seats_check(game=game, seats=data["seats"])
            except ApplicationError as err:
                raise _form_error(err, ["seats", "game"]) from None
        return data


class FloatForm(forms.Form):
    amount = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0, label=_("Counted chip float (EUR)"))
    reason = forms.CharField(label=_("reason"), required=False)


def _float_action(modeladmin, request, queryset, *, title: str, call, done: str):
    if "apply" in request.POST:
        form = FloatForm(request.POST)
        if form.is_valid():
            _run(modeladmin, request, queryset,
                 lambda t: call(t, form.cleaned_data["amount"], form.cleaned_data["reason"]), done)
            return None
    else:
        form = FloatForm()
    return render(request, "admin/tables/float_form.html", {
        **modeladmin.admin_site.each_context(request), "title": title, "form": form, "queryset": queryset,
        "action": request.POST.get("action"), "opts": modeladmin.model._meta,
    })


@admin.register(Table)
class TableAdmin(AuditHistoryMixin, admin.ModelAdmin):
    form = TableForm
    list_display = ["name", "game", "seats", "status", "button_seat"]
    list_filter = ["game", "status"]
    search_fields = ["name"]
    readonly_fields = ["status", "button_seat", "created_at", "audit_history"]
    actions = ["open_tables", "pause_tables", "resume_tables", "close_tables"]

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, "game"] if obj else self.readonly_fields

    def save_model(self, request, obj, form, change):
        reason = form.cleaned_data.get("reason", "")
        if change:
            table = services.table_update(table=obj, actor=request.user, name=obj.name, seats=obj.seats,
                                          record_down_cards=obj.record_down_cards, reason=reason)
        else:
            table = services.table_create(name=obj.name, game=obj.game, seats=obj.seats, actor=request.user,
                                          reason=reason)
        obj.pk = table.pk
        obj.__dict__.update({k: v for k, v in table.__dict__.items() if not k.startswith("_")})

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Open the selected tables (count the float)"))
    def open_tables(self, request, queryset):
        return _float_action(self, request, queryset, title=_("Open tables: opening float"), done=_("table(s) opened"),
                             call=lambda t, amount, reason: services.table_open(
                                 table=t, opening_float=amount, actor=request.user, reason=reason))

    @admin.action(description=_("Close the selected tables (count the float)"))
    def close_tables(self, request, queryset):
        return _float_action(self, request, queryset, title=_("Close tables: closing float"), done=_("table(s) closed"),
                             call=lambda t, amount, reason: services.table_close(
                                 table=t, closing_float=amount, actor=request.user, reason=reason))

    @admin.action(description=_("Pause the selected tables"))
    def pause_tables(self, request, queryset):
        _run(self, request, queryset, lambda t: services.table_pause(table=t, actor=request.user), "table(s) paused")

    @admin.action(description=_("Resume the selected tables"))
    def resume_tables(self, request, queryset):
        _run(self, request, queryset, lambda t: services.table_resume(table=t, actor=request.user),
             "table(s) resumed")


# ---- limit profiles and requests ----------------------------------------------------------------

class GeneratedLimitsForm(forms.ModelForm):
    """A model form whose game keys come from the generated limit form (:class:`tables.limit_form.LimitConfigForm`,
    one field per described key, prefilled with the limits in force); :meth:`for_table` adds them for a
    table's game and ``clean`` puts the checked config into ``cleaned_data[config_key]``."""

    config_key = "config"
    generated_names: tuple[str, ...] = ()
    game = ""
    base_config: dict = {}

    @classmethod
    def for_table(cls, table):
        from tables.limit_form import LimitConfigForm

        current = selectors.limit_profile_in_force(table=table)
        base = current.config if current else {}
        generated = LimitConfigForm(game=table.game, initial_config=base, advanced=True)
        extra = {n: f for n, f in generated.fields.items() if n not in ("limit_label", "reason")}
        return type(cls.__name__ + "For" + table.game.title().replace("_", ""), (cls,),
                    {**extra, "generated_names": tuple(extra), "game": table.game, "base_config": base})

    def clean(self):
        from tables.limit_form import LimitConfigForm

        data = super().clean()
        table = data.get("table")
        if table is None or not self.game:
            return data
        if table.game != self.game:
            raise ValidationError({"table": gettext_lazy("Choose the table first, then fill in its game's limits.")})
        generated = LimitConfigForm(self.data, game=self.game, initial_config=self.base_config, advanced=True)
        if generated.is_valid():
            data[self.config_key] = generated.config
        else:
            for name, errors in generated.errors.items():
                for error in errors:
                    self.add_error(name if name in self.fields else None, error)
        return data


class LimitProfileForm(GeneratedLimitsForm):
    """A new limit version in the admin (the game's keys generated, see :class:`GeneratedLimitsForm`)."""

    effective_from = forms.DateTimeField(required=False, help_text=gettext_lazy("empty = from the table's next hand"))

    class Meta:
        model = LimitProfile
        fields = ["table", "limit_label", "currency", "chip_unit", "effective_from", "reason"]


class PickTableFirstMixin:
    """Admin add views whose form depends on the table's game: first pick the table, then the generated form."""

    generated_form: type[GeneratedLimitsForm]

    def _table_of(self, request):
        pk = request.POST.get("table") or request.GET.get("table")
        return Table.objects.filter(pk=pk).first() if pk and str(pk).isdigit() else None

    def get_form(self, request, obj=None, change=False, **kwargs):
        table = self._table_of(request) if obj is None else None
        if table is not None:
            kwargs["form"] = self.generated_form.for_table(table)
            kwargs["fields"] = [*self.generated_form.Meta.fields, *kwargs["form"].generated_names]
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj:
            return self.get_readonly_fields(request, obj)
        table = self._table_of(request)
        generated = self.generated_form.for_table(table).generated_names if table else ()
        return [*self.generated_form.Meta.fields, *generated]

    def add_view(self, request, form_url="", extra_context=None):
        if self._table_of(request) is None:
            return render(request, "admin/tables/limitprofile/pick_table.html",
                          {**self.admin_site.each_context(request), "opts": self.model._meta,
                           "tables": Table.objects.order_by("name"), "title": gettext_lazy("Which table?")})
        return super().add_view(request, form_url, extra_context)


@admin.register(LimitProfile)
class LimitProfileAdmin(PickTableFirstMixin, AuditHistoryMixin, admin.ModelAdmin):
    form = LimitProfileForm
    generated_form = LimitProfileForm
    list_display = ["table", "version", "limit_label", "game", "currency", "effective_from", "created_by"]
    list_select_related = ["table", "created_by"]
    list_filter = ["game", "table"]
    readonly_fields = ["audit_history"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return ["table", "version", "game", "limit_label", "config", "currency", "chip_unit", "effective_from",
                "created_at", "created_by", "reason", "audit_history"]

    def save_model(self, request, obj, form, change):
        try:
            profile = services.limit_profile_create(
                table=obj.table, config=form.cleaned_data["config"], actor=request.user, limit_label=obj.limit_label,
                reason=obj.reason, effective_from=form.cleaned_data.get("effective_from"), currency=obj.currency,
                chip_unit=obj.chip_unit)
        except ApplicationError as err:
            self.message_user(request, message_text(err.message), messages.ERROR)
            raise
        obj.pk = profile.pk
        obj.__dict__.update({k: v for k, v in profile.__dict__.items() if not k.startswith("_")})

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class LimitChangeRequestForm(GeneratedLimitsForm):
    """The players' request in the admin: the requested limits through the generated form."""

    config_key = "requested_config"

    class Meta:
        model = LimitChangeRequest
        fields = ["table", "limit_label", "note"]


@admin.register(LimitChangeRequest)
class LimitChangeRequestAdmin(PickTableFirstMixin, AuditHistoryMixin, admin.ModelAdmin):
    form = LimitChangeRequestForm
    generated_form = LimitChangeRequestForm
    list_display = ["table", "limit_label", "status", "requested_by", "requested_at", "decided_by", "resulting_profile"]
    list_select_related = ["table", "requested_by", "decided_by", "resulting_profile__table"]
    list_filter = ["status", "table"]
    actions = ["approve", "reject"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return ["table", "limit_label", "requested_config", "note", "status", "requested_by", "requested_at",
                "decided_by", "decided_at", "decision_note", "resulting_profile", "audit_history"]

    def save_model(self, request, obj, form, change):
        req = services.limit_change_request_create(
            table=obj.table, requested_config=form.cleaned_data["requested_config"], actor=request.user,
            limit_label=obj.limit_label, note=obj.note)
        obj.pk = req.pk
        obj.__dict__.update({k: v for k, v in req.__dict__.items() if not k.startswith("_")})

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Approve (new limit version from each table's next hand)"))
    def approve(self, request, queryset):
        _run(self, request, queryset,
             lambda r: services.limit_change_request_approve(request=r, actor=request.user), "request(s) approved")

    @admin.action(description=_("Reject"))
    def reject(self, request, queryset):
        _run(self, request, queryset,
             lambda r: services.limit_change_request_reject(request=r, actor=request.user), "request(s) rejected")


# ---- dealers ------------------------------------------------------------------------------------

class DealerForm(forms.ModelForm):
    games = forms.MultipleChoiceField(label=_("games"), choices=Game.choices, widget=forms.CheckboxSelectMultiple)

    class Meta:
        model = Dealer
        fields = ["user", "games", "active"]


@admin.register(Dealer)
class DealerAdmin(AuditHistoryMixin, admin.ModelAdmin):
    form = DealerForm
    list_display = ["user", "games", "active"]
    list_select_related = ["user"]
    list_filter = ["active"]
    search_fields = ["user__username"]
    readonly_fields = ["audit_history"]

    def get_readonly_fields(self, request, obj=None):
        return ["user", "audit_history"] if obj else []

    def save_model(self, request, obj, form, change):
        if change:
            dealer = services.dealer_update(dealer=obj, actor=request.user, games=form.cleaned_data["games"],
                                            active=form.cleaned_data["active"])
        else:
            dealer = services.dealer_create(user=form.cleaned_data["user"], games=form.cleaned_data["games"],
                                            actor=request.user)
        obj.pk = dealer.pk
        obj.__dict__.update({k: v for k, v in dealer.__dict__.items() if not k.startswith("_")})

    def has_delete_permission(self, request, obj=None):
        return False


# ---- rotation -----------------------------------------------------------------------------------

class RotationSlotInline(admin.TabularInline):
    model = RotationSlot
    extra = 0
    fields = ["dealer", "table", "start", "end"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("dealer__user", "table")


class RotationPlanForm(forms.ModelForm):
    class Meta:
        model = RotationPlan
        fields = ["name", "shift_start", "shift_end", "tables", "dealers", "period_minutes", "periods_before_break"]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            services.rotation_plan_grid(
                shift_start=data["shift_start"], shift_end=data["shift_end"], tables=list(data["tables"]),
                dealers=list(data["dealers"]), period_minutes=data["period_minutes"],
                periods_before_break=data["periods_before_break"])
        except ApplicationError as err:
            raise _form_error(err, list(self.Meta.fields)) from None
        return data


@admin.register(RotationPlan)
class RotationPlanAdmin(AuditHistoryMixin, admin.ModelAdmin):
    form = RotationPlanForm
    list_display = ["name", "shift_start", "shift_end", "period_minutes", "periods_before_break", "status"]
    list_filter = ["status"]
    actions = ["publish", "cancel"]

    def get_inlines(self, request, obj):
        return [RotationSlotInline] if obj else []

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return ["name", "shift_start", "shift_end", "tables", "dealers", "period_minutes", "periods_before_break",
                "status", "created_by", "created_at", "audit_history"]

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        plan = services.rotation_plan_generate(
            name=data["name"], shift_start=data["shift_start"], shift_end=data["shift_end"],
            tables=list(data["tables"]), dealers=list(data["dealers"]), period_minutes=data["period_minutes"],
            periods_before_break=data["periods_before_break"], actor=request.user)
        obj.pk = plan.pk
        obj.__dict__.update({k: v for k, v in plan.__dict__.items() if not k.startswith("_")})

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Publish (creates the dealer assignments)"))
    def publish(self, request, queryset):
        _run(self, request, queryset, lambda p: services.rotation_plan_publish(plan=p, actor=request.user),
             "plan(s) published")

    @admin.action(description=_("Cancel"))
    def cancel(self, request, queryset):
        _run(self, request, queryset, lambda p: services.rotation_plan_cancel(plan=p, actor=request.user),
             "plan(s) cancelled")


@admin.register(DealerAssignment)
class DealerAssignmentAdmin(ReadOnlyAdminMixin, AuditHistoryMixin, admin.ModelAdmin):
    list_display = ["dealer", "table", "start", "end", "slot"]
    list_select_related = ["dealer__user", "table", "slot__dealer__user", "slot__table"]
    list_filter = ["table", "dealer"]
    readonly_fields = ["dealer", "table", "start", "end", "slot", "audit_history"]


@admin.register(DutyCorrection)
class DutyCorrectionAdmin(ReadOnlyAdminMixin, AuditHistoryMixin, admin.ModelAdmin):
    """Corrections of the duty roster's past (recorded through the API with a reason; read-only here)."""

    list_display = ["dealer", "table", "start", "end", "recorded_by", "recorded_at"]
    list_select_related = ["dealer__user", "table", "recorded_by"]
    list_filter = ["table", "dealer"]
    readonly_fields = ["dealer", "table", "start", "end", "assignment", "reason", "recorded_by", "recorded_at",
                       "audit_history"]


@admin.register(TableSession)
class TableSessionAdmin(ReadOnlyAdminMixin, AuditHistoryMixin, admin.ModelAdmin):
    list_display = ["table", "opened_at", "opened_by", "opening_float", "closed_at", "closed_by", "closing_float"]
    list_select_related = ["table", "opened_by", "closed_by"]
    list_filter = ["table"]
    readonly_fields = ["table", "opened_at", "opened_by", "opening_float", "closed_at", "closed_by", "closing_float",
                       "audit_history"]
