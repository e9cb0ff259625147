# Two commands for a newcomer: `make run` and `make test`. Everything else is optional.
#
#   make run     venv + install + migrate + demo data, serve http://127.0.0.1:8000 (embedded mode)
#   make test    venv + install, run every test (real services if DATABASE_URL/REDIS_URL are set;
#                TEST_WORKERS processes in parallel, default 3; PYTEST_ARGS for pytest's own)
#   make lint    ruff check
#   make serve   the production way of serving, on one port (HTTP + WebSockets): gunicorn
#                with WEB_CONCURRENCY uvicorn workers (tock_site/gunicorn.conf.py), DEBUG off
#   make bench   run the benchmarks in bench/ (every bench/bench_*.py)
#   make bench-score  simulated games tapped through the score page on a phone (Chromium)
#   make bench-web  pages and live appends, make serve vs daphne, page cache on and off
#                (DATABASE_URL: PostgreSQL; REDIS_URL: the cache as in production; wrk)
#   make bench-event  a Swiss event through the API with a real worker: per round the wait
#                from the last result to the next round (DATABASE_URL, REDIS_URL; PLAYERS)
#   make worker  a Celery worker (needs REDIS_URL); make beat: the periodic scheduler
PYTHON ?= python3
VENV := .venv
# Python caches compiled modules (__pycache__/, ignored by git) even where the environment
# says not to (PYTHONDONTWRITEBYTECODE, set on some machines and in docker/Dockerfile):
# without the cache every process compiles every module it imports again, and the suite
# starts dozens (its workers, servers, Celery workers, pytest runs of its own): a pytest
# process took 3.8 s CPU to start instead of 1.8 s (pytest's assertion rewriting of every
# plugin module included), and the foundation, outbox and progression-worker tests 69 s
# CPU instead of 46.
unexport PYTHONDONTWRITEBYTECODE
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run serve test lint format bench bench-event bench-web bench-score worker beat migrate demo install check-deploy messages clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "Python 3.11 or newer is needed; run e.g. 'make PYTHON=python3.12 ...'" >&2; exit 1; }
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "Could not create $(VENV); on Debian/Ubuntu: apt-get install python3-venv" >&2; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstalls whenever pyproject.toml changes.
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

# Settings from the environment as in production (DATABASE_URL, REDIS_URL, WEB_CONCURRENCY,
# WEB_THREADS, DB_POOL_*: docs/deploy.md); DEBUG is off unless DJANGO_DEBUG says otherwise.
serve: migrate
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "Serving on http://$(HOST):$(PORT)/ (HTTP and WebSockets)"
	HOST=$(HOST) PORT=$(PORT) DJANGO_DEBUG=$${DJANGO_DEBUG:-false} \
	  $(BIN)/gunicorn -c tock_site/gunicorn.conf.py

# DATABASE_URL, REDIS_URL and REQUIRE_SERVICES pass through from the environment.
# The suite runs in TEST_WORKERS processes (pytest-xdist; each has its own test database
# and Redis prefix), a whole test file per worker so that module fixtures are built once;
# TEST_WORKERS=0 runs it in this process (e.g. to use a debugger).
TEST_WORKERS ?= 3
test: install
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

format: install
	$(BIN)/ruff format .

bench: install
	@found=0; for script in bench/bench_*.py; do \
	  [ -f "$$script" ] || continue; found=1; \
	  echo "== $$script"; $(BIN)/python "$$script" || exit 1; \
	done; [ $$found = 1 ] || echo "No benchmarks in bench/ yet."

# Simulated games tapped through the score page on a phone-sized Chromium, per kind
# (tests/browser/bench_score.py: taps per event and per turn, scrolls, small targets,
# tap-to-updated-page p50/p95). BENCH_KINDS=tock and BENCH_EVENTS=200 narrow or widen it.
bench-score: install
	$(BIN)/python -m pytest tests/browser/bench_score.py -q -s -p no:cacheprovider

# wrk (a C load client) leaves the cores to the servers; installed here when possible.
bench-event: install
	$(BIN)/python bench/bench_event.py

bench-web: install
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	  && apt-get install -y -q wrk >/dev/null 2>&1; } \
	  || echo "wrk not installed (apt-get install wrk): the pages are loaded by the asyncio client"
	$(BIN)/python bench/bench_web.py

worker: install
	$(BIN)/celery -A tock_site worker --loglevel=info

beat: install
	$(BIN)/celery -A tock_site beat --loglevel=info

check-deploy: install
	DJANGO_SETTINGS_MODULE=tock_site.settings_production \
	  $(BIN)/python manage.py check --deploy --fail-level WARNING

# Translation catalogues (needs GNU gettext): English is the source, es and de follow.
messages: install
	mkdir -p locale
	$(BIN)/python manage.py makemessages --locale es --locale de --ignore '.venv/*' --ignore 'tests/*'
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

clean:
	rm -rf $(VENV) staticfiles db.sqlite3
