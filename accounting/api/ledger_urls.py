"""Routes (placeholder until the owning module lands)."""

urlpatterns: list = []
