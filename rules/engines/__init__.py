"""The game engines: pure Python, no Django (STYLE.md rule 1; an architecture test keeps it so)."""
