"""Admin registrations of the tables app (split by area)."""

from tables import admin_floor, admin_hands  # noqa: F401
