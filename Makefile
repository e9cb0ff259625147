# Two commands for a newcomer: `make run` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench worker beat migrate demo install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py demo

run: demo
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "Serving on http://$(HOST):$(PORT)/ (demo organizer: demo / demo)"
	$(BIN)/daphne -b $(HOST) -p $(PORT) tock_site.asgi:application

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

bench: install
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_tournament.py

worker: install
	$(BIN)/celery -A tock_site worker --loglevel=info

beat: install
	$(BIN)/celery -A tock_site beat --loglevel=info

clean:
	rm -rf $(VENV) staticfiles db.sqlite3
