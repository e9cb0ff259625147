#!/usr/bin/env python
"""Benchmark: the uncached render of the 1,000-player tournament page, CPU and memory,
beside the 24-player page of the same run (and the API standings of the 1,000 players,
the other big public read).

"Uncached": the page cache off (``PAGE_CACHE_SECONDS=0``), so every request runs the
view and the template, as for a signed-in visitor, a ``?find=`` or the first visitor
after a change; the standings cache stays on, as deployed (it is warm after the first
render, which is not counted).

Each page is measured in a fresh process set up as a ``make serve`` worker is
(``tock_site.serve``: DEBUG off, the URL conf loaded, the start frozen for the
collector and its thresholds; the local memory cache, no Redis):

* **CPU**: the page rendered one request at a time through the WSGI handler the worker
  runs (middleware, view, template): CPU time per request (``time.process_time``),
  median and best of ``--renders`` after 3 warm-ups;
* **memory**: then ``WEB_THREADS`` threads (the worker's request threads, 8 by default)
  render the page at once, ``--requests`` requests in all; the process's resident
  memory at start (after its imports), at its peak (``VmHWM``) and at the end.

The data: the demo (its running 24-player tournament) and a synthetic running
1,000-player, 5-round event (``tests/big_event.py``), in a private database: a
throw-away SQLite file by default, a private PostgreSQL database beside the one
``DATABASE_URL`` names (``BENCH_DATABASE``: one to use; as ``bench/bench_serving.py``).
About a minute.

    python bench/bench_page.py [--renders 21] [--requests 160]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_serving as serving  # noqa: E402  (the private database and the environment)

BASE_DIR = serving.BASE_DIR
#: The goals of issue 26 for the 1,000-player page.
GOAL_CPU_MS = 25.0
GOAL_PEAK_MB = 200.0

PREPARE = r"""
import json
import django
django.setup()
from tests.big_event import build_big_event
from tournaments.models import Tournament
big = build_big_event(players=1000, rounds=5, slug="bench-big")
demo = Tournament.objects.filter(league__slug="demo-tock", status="running").first()
print(json.dumps({"demo": demo.pk, "big": big.pk}))
"""

#: Run in a fresh process per page: argv = path, renders, requests.
MEASURE = r"""
import json, statistics, sys, threading, time
from io import BytesIO

def memory():
    fields = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
    return {k: int(fields[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM")}

import tock_site.serve as serve  # a make serve worker's process, its settings and collector
from tock_site.wsgi import application

path, renders, requests = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = memory()

def get():
    environ = {
        "REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": "", "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1", "REMOTE_ADDR": "127.0.0.1", "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http", "wsgi.input": BytesIO(b""), "wsgi.errors": sys.stderr,
        "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
    }
    status = []
    body = application(environ, lambda s, headers, exc_info=None: status.append(s))
    try:
        size = sum(len(chunk) for chunk in body)
    finally:
        body.close()
    if status != ["200 OK"]:
        raise SystemExit(f"{path}: {status}")
    return size

for _ in range(3):
    size = get()
cpu = []
for _ in range(renders):
    began = time.process_time()
    get()
    cpu.append(time.process_time() - began)

left = [requests]
lock = threading.Lock()

def worker():
    from django.db import connections
    while True:
        with lock:
            if left[0] <= 0:
                break
            left[0] -= 1
        get()
    connections.close_all()

threads = [threading.Thread(target=worker) for _ in range(serve.WEB_THREADS)]
began = time.process_time()
for t in threads:
    t.start()
for t in threads:
    t.join()
busy = (time.process_time() - began) / requests
end = memory()
print(json.dumps({
    "bytes": size, "cpu_ms": statistics.median(cpu) * 1000, "cpu_best_ms": min(cpu) * 1000,
    "threads": serve.WEB_THREADS, "busy_cpu_ms": busy * 1000,
    "start_mb": start["VmRSS"], "peak_mb": end["VmHWM"], "end_mb": end["VmRSS"],
}))
"""


def run(code: str, database_url: str, *args: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=BASE_DIR,
        env=serving.server_env(database_url, 0),  # DEBUG off, page cache off, no Redis
        check=True,
        capture_output=True,
    )
    return json.loads(out.stdout.decode().strip().splitlines()[-1])


def load() -> str:
    try:
        return os.getloadavg()[0].__format__(".1f")
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--renders", type=int, default=21, help="timed renders, one at a time")
    parser.add_argument("--requests", type=int, default=160, help="renders by the threads")
    args = parser.parse_args()
    began = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="tock-bench-page-"))
    try:
        with serving.private_database(workdir) as database_url:
            backend = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
            serving.prepare(database_url)
            ids = run(PREPARE, database_url)
            pages = {
                "tournament page, 24 players (baseline)": f"/tournaments/{ids['demo']}/",
                "tournament page, 1,000 players": f"/tournaments/{ids['big']}/",
                "API standings, 1,000 players": f"/api/tournaments/{ids['big']}/standings",
            }
            print(
                f"{backend}; page cache off, standings cache on; each page in a fresh "
                f"worker-like process (load {load()} at the start)"
            )
            results = {}
            for label, path in pages.items():
                results[label] = run(
                    MEASURE, database_url, path, str(args.renders), str(args.requests)
                )
            for label, r in results.items():
                print(
                    f"{label:<38} {r['bytes'] / 1000:4.0f} kB  CPU median {r['cpu_ms']:5.1f} ms "
                    f"(best {r['cpu_best_ms']:5.1f}; {r['threads']} threads at once "
                    f"{r['busy_cpu_ms']:5.1f} ms)  memory start {r['start_mb']:4.0f} MB, "
                    f"peak {r['peak_mb']:4.0f} MB, end {r['end_mb']:4.0f} MB"
                )
            big = results["tournament page, 1,000 players"]
            small = results["tournament page, 24 players (baseline)"]
            print(
                f"1,000 players: {big['cpu_ms'] / small['cpu_ms']:.1f}x the CPU of 24 players; "
                f"goal CPU <= {GOAL_CPU_MS:.0f} ms: "
                f"{'met' if big['cpu_ms'] <= GOAL_CPU_MS else 'NOT met'}; "
                f"goal peak <= {GOAL_PEAK_MB:.0f} MB: "
                f"{'met' if big['peak_mb'] <= GOAL_PEAK_MB else 'NOT met'} "
                f"(load {load()} at the end, {time.monotonic() - began:.0f} s)"
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
