# Two commands for a newcomer: `make run` (the service with embedded defaults) and `make test` (the suite).
# Everything the project needs is installed into .venv from requirements.txt (pinned).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint install bench migrate demo clean messages catalog

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

# Refresh the German catalogue from the sources (then fill the empty msgstr entries and run `make messages`).
catalog: $(STAMP)
	DEBUG=$${DEBUG:-true} $(PY) manage.py makemessages -l de --no-location --no-obsolete --ignore=$(VENV) --ignore=var --ignore=tests --ignore=bench

# The translation catalogues (locale/*/LC_MESSAGES/django.po) compiled for Django (needs gettext's msgfmt).
messages: $(STAMP)
	DEBUG=$${DEBUG:-true} $(PY) manage.py compilemessages --ignore=$(VENV) -v 0

migrate: $(STAMP) messages
	DEBUG=$${DEBUG:-true} $(PY) manage.py migrate --noinput

demo: migrate
	DEBUG=$${DEBUG:-true} $(PY) manage.py seed_demo

# Starts the web server on $(HOST):$(PORT); with REDIS_URL set also a Celery worker (and beat), else tasks run eagerly.
# The worker stops with the server (Ctrl-C).
run: demo
	@if [ -n "$$REDIS_URL" ]; then \
		echo "REDIS_URL set: starting a Celery worker and beat on $$REDIS_URL"; \
		DEBUG=$${DEBUG:-true} $(VENV)/bin/celery -A casino worker --beat --loglevel=INFO --concurrency=2 & \
		worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	else \
		echo "REDIS_URL not set: Celery tasks run eagerly in the web process"; \
	fi; \
	DEBUG=$${DEBUG:-true} $(PY) manage.py runserver $(HOST):$(PORT)

# ruff, mypy --strict on the pure rules packages (pyproject [tool.mypy]) and the import contracts (.importlinter).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

test: $(STAMP) messages lint
	$(PY) -m pytest

bench: $(STAMP)
	for b in bench/[!_]*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) db.sqlite3 var .pytest_cache .ruff_cache .hypothesis
