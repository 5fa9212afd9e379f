"""Admin registrations of the accounting app (split by area)."""

from accounting import admin_ledger, admin_reports  # noqa: F401
