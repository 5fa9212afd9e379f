"""Staff pages of the tables app (Django templates + htmx, calling the same services as the API): the
croupier's table screen (``/croupier/``, issue 15) and the floor manager's pages (``/floor/``, issue 16)."""
