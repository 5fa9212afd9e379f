"""Staff pages of the tables app (Django templates + htmx): the croupier's table screen (issue 15)."""
