# Two commands matter: `make serve` runs the lab, `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 5006
WORKERS ?= 1
SERVE_ARGS ?=
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: serve test lint format bench chromium nginx redis

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-app: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-app

serve: $(VENV)/.installed-app
	$(BIN)/python -m labs.server.serve --port $(PORT) --workers $(WORKERS) $(SERVE_ARGS)

# Chromium with a font of its own: without one, text prints and screenshots blank.
chromium:
	@[ -x /usr/bin/chromium ] || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }
	@[ -d /usr/share/fonts/truetype/dejavu ] || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq fonts-dejavu-core; }

# The deployment test runs deploy/nginx.conf in front of two lab processes.
nginx:
	@[ -x /usr/sbin/nginx ] || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq nginx; }

# The class poll's tests run against Redis too, on a redis-server of their own.
redis:
	@[ -x /usr/bin/redis-server ] || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq redis-server; }

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: $(VENV)/.installed-test chromium nginx redis lint
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-test chromium nginx
	$(BIN)/python bench/core.py
	$(BIN)/python bench/fidelity.py
	$(BIN)/python bench/measured_here.py
	$(BIN)/python bench/simulator.py
	$(BIN)/python bench/frontier.py
	$(BIN)/python bench/session_build.py
	$(BIN)/python bench/server_start.py
	$(BIN)/python bench/ui_latency.py
	$(BIN)/python bench/classroom.py
