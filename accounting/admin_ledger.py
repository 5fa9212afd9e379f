"""Admin pages (placeholder until the owning module lands)."""
