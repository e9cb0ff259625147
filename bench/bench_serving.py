#!/usr/bin/env python
"""Benchmark: how the site is served, the old way (daphne alone) beside the new one.

Starts each server setup itself on 127.0.0.1 (a free port, nothing else is ever
contacted) over a private copy of the demo data, then drives it with a closed-loop
load client: ``--connections`` (16) clients, each sending its next request as soon as
the previous answer is in, over keep-alive HTTP/1.1 connections (reopened when the
server closes them, as gunicorn's sync workers do after each answer). The client is
``wrk`` (C, one thread; ``apt-get install wrk``) when installed: it leaves the two
cores to the servers; else an asyncio client in this file (which needs a good part
of a core itself). Either way the same client drives every setup. For each page
it prints requests/s, p50 and p99 latency, bytes per answer, errors (any status but
200, or a broken connection) and the server's CPU time per request (all of a setup's
processes, read from /proc: the figure that moves least with the load of a shared
machine), setups side by side from the same run: all setups run at once and each
page is measured on each setup in turn.

Setups:

* ``daphne``: ``daphne tock_site.asgi:application``, the one-process setup of
  ``make run`` (the baseline);
* ``serve``: what ``make serve`` runs (``tock_site/gunicorn.conf.py``: gunicorn
  with ``WEB_CONCURRENCY`` uvicorn workers serving the ASGI application);
* ``gunicorn-sync`` (only with ``--setups``): synchronous gunicorn workers on the
  WSGI application (HTTP only), for comparison;
* any of them with ``-nocache`` (``serve-nocache``): with the page cache off
  (``PAGE_CACHE_SECONDS=0``, ``tock_site/page_cache.py``).

Pages: the liveness endpoint (``/healthz/live`` where it exists, else ``/healthz``),
the home page and the API standings of the demo's running tournament.

Database: by default a throw-away SQLite file (the embedded mode); with
``DATABASE_URL`` set to PostgreSQL, a private database created next to the one it
names (``tock_bench_<pid>``) and dropped at the end, or the one ``BENCH_DATABASE``
names (on a machine that forbids creating databases: emptied first, kept); the
servers listen on free ports, or on the ports ``BENCH_PORTS`` lists; the peak number of each
setup's connections to it (by ``application_name``) is printed: at most processes x
``DB_POOL_MAX_SIZE``. Servers run with DEBUG off and without Redis, so with the
page cache off (the measure is the serving path, not the cache).

    python bench/bench_serving.py [--seconds 5] [--connections 16] [--setups daphne,serve]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"  # the only address this benchmark ever talks to
STARTUP_SECONDS = 60.0


#: ``BENCH_PORTS`` (e.g. ``18001,18002,18003``): the ports the servers listen on, in
#: order, where a shared machine allows only some; unset: any free port.
_PORTS = [int(p) for p in os.environ.get("BENCH_PORTS", "").replace(" ", "").split(",") if p]


def free_port() -> int:
    """The next port of ``BENCH_PORTS``, else one the system says is free."""
    if os.environ.get("BENCH_PORTS"):
        if not _PORTS:
            raise SystemExit("BENCH_PORTS has too few ports for the setups of this run")
        return _PORTS.pop(0)
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


#: Suffix of a setup name that runs it with the page cache off (``serve-nocache``).
NOCACHE = "-nocache"


def setup_command(name: str, port: int) -> list[str]:
    """The command line of a server setup listening on ``HOST:port``."""
    name = name.removesuffix(NOCACHE)
    if name == "daphne":
        return [str(BIN / "daphne"), "-b", HOST, "-p", str(port), "tock_site.asgi:application"]
    if name == "serve":  # exactly what `make serve` runs (HOST and PORT from the environment)
        return [str(BIN / "gunicorn"), "-c", "tock_site/gunicorn.conf.py"]
    if name == "gunicorn-sync":
        workers = os.environ.get("WEB_CONCURRENCY", "4")
        return [
            str(BIN / "gunicorn"),
            "-w",
            workers,
            "-b",
            f"{HOST}:{port}",
            "tock_site.wsgi:application",
        ]
    raise SystemExit(f"unknown setup {name!r}")


# --- database -----------------------------------------------------------------------------


@contextlib.contextmanager
def private_database(workdir: Path) -> Iterator[str]:
    """A DATABASE_URL of a fresh database holding the demo data, dropped afterwards."""
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://", "pgsql://")):
        yield f"sqlite:///{workdir / 'bench.sqlite3'}"
        return
    import psycopg

    given = os.environ.get("BENCH_DATABASE", "")
    name = given or f"tock_bench_{os.getpid()}"
    parts = urlsplit(base)
    url = urlunsplit(parts._replace(path=f"/{name}"))
    if given:
        # A database the machine's owner made for the benchmark: emptied, kept.
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
            conn.execute("CREATE SCHEMA public")
        yield url
        return
    admin = urlunsplit(parts._replace(path="/postgres", query=""))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def tagged(setup: str) -> str:
    """The PostgreSQL application_name of a setup's connections (counted apart)."""
    return f"tock-bench-{setup}"


#: Key prefix of the benchmark's Redis keys (page cache, standings, channel layer).
REDIS_PREFIX = f"tock-bench-{os.getpid()}"


def server_env(
    database_url: str, port: int, setup: str = "", redis_url: str = ""
) -> dict[str, str]:
    """The environment of a server setup. ``redis_url``: the cache (and the channel
    layer) on Redis under :data:`REDIS_PREFIX`, as in production; Celery tasks still run
    in-process (eager, in-memory broker), so nothing is queued for a worker elsewhere.
    A setup named ``*-nocache`` runs with the page cache off."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"}
    }
    if redis_url:
        env.update(
            REDIS_URL=redis_url,
            REDIS_KEY_PREFIX=REDIS_PREFIX,
            CELERY_BROKER_URL="memory://localhost/",
            CELERY_RESULT_BACKEND="cache+memory://",
            CELERY_TASK_ALWAYS_EAGER="true",
        )
    if setup.endswith(NOCACHE) or not redis_url:
        # Without Redis each process would have a page cache of its own (make serve
        # turns it off with several workers, daphne is one process): off for all, so
        # that the setups compare like with like.
        env["PAGE_CACHE_SECONDS"] = "0"
    env.update(
        DJANGO_SETTINGS_MODULE="tock_site.settings",
        DATABASE_URL=(
            f"{database_url}?application_name={tagged(setup)}"
            if setup and database_url.startswith("postgres")
            else database_url
        ),
        DJANGO_DEBUG="false",
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_LOG_LEVEL="ERROR",
        HOST=HOST,
        PORT=str(port),
    )
    return env


def prepare(database_url: str) -> int:
    """Migrate and load the demo; return the id of the demo's running tournament."""
    env = server_env(database_url, 0)
    for args in (["migrate", "--noinput", "-v", "0"], ["demo"]):
        subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    code = (
        "import django; django.setup()\n"
        "from tournaments.models import Tournament\n"
        "t = Tournament.objects.filter(league__slug='demo-tock').order_by('-id').first()\n"
        "print(t.id)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, check=True, capture_output=True
    )
    return int(out.stdout.decode().strip().splitlines()[-1])


def connection_count(database_url: str, application_name: str) -> int | None:
    """Open connections of one setup to the private PostgreSQL database (None on SQLite)."""
    if not database_url.startswith(("postgres://", "postgresql://", "pgsql://")):
        return None
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            [application_name],
        ).fetchone()
    return int(row[0])


class ConnectionWatch:
    """Samples :func:`connection_count` every 50 ms in a thread; keeps the peak."""

    def __init__(self, database_url: str, application_name: str) -> None:
        self.url = database_url
        self.application_name = application_name
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            count = connection_count(self.url, self.application_name)
            if count is None:
                return
            self.peak = max(self.peak, count)
            self._stop.wait(0.05)

    def __enter__(self) -> ConnectionWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


# --- servers -------------------------------------------------------------------------------


def redis_forget(redis_url: str) -> None:
    """Delete the benchmark's keys (:data:`REDIS_PREFIX`) from Redis."""
    if not redis_url:
        return
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{REDIS_PREFIX}:*", count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])
    finally:
        client.close()


@contextlib.contextmanager
def running_server(
    name: str,
    database_url: str,
    workdir: Path,
    redis_url: str = "",
    env_extra: dict[str, str] | None = None,
) -> Iterator[tuple[int, int]]:
    """Start setup ``name``; yield (port, process group id) once it answers.
    ``env_extra``: settings over the setup's environment (the port stays its own)."""
    port = free_port()
    log = open(workdir / f"{name}.log", "wb")  # noqa: SIM115 - closed below
    env = server_env(database_url, port, name, redis_url)
    env.update({k: v for k, v in (env_extra or {}).items() if k not in ("PORT", "HOST")})
    proc = subprocess.Popen(
        setup_command(name, port),
        cwd=BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stopped whole below
    )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"{name} exited; see {workdir / (name + '.log')}")
            try:
                urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=2).close()
                break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    raise SystemExit(f"{name} did not answer in {STARTUP_SECONDS:.0f} s") from None
                time.sleep(0.2)
        yield port, proc.pid
    finally:
        stop_group(proc, timeout=15)
        log.close()


def stop_group(proc: subprocess.Popen, *, timeout: float) -> None:
    """Stop a process started in a session of its own, with all its children: SIGTERM,
    then SIGKILL after ``timeout`` seconds."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def group_cpu_seconds(pgid: int) -> float:
    """User + system CPU time of every live process in process group ``pgid`` (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # the process ended meanwhile
        if int(fields[2]) == pgid:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def group_peak_memory_mb(pgid: int) -> float:
    """The peak resident memory (``VmHWM``) of the largest live process in process group
    ``pgid``, in MB (Linux): a worker of ``make serve``, daphne's one process."""
    peak = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
            if int(fields[2]) != pgid:
                continue
            status = (stat.parent / "status").read_text()
        except OSError:
            continue  # the process ended meanwhile
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]))
    return peak / 1024


# --- load client ---------------------------------------------------------------------------


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    bytes: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the server's CPU time over the whole run, warm-up included
    requests: int = 0  # every request answered, warm-up included
    #: Set by a client that reports counts and percentiles itself (wrk): answers with
    #: 200 in the measured time, and {percent: seconds}.
    answered: int | None = None
    percentiles: dict[int, float] = field(default_factory=dict)

    @property
    def cpu_ms_per_request(self) -> float:
        return self.cpu_seconds * 1000 / self.requests if self.requests else float("nan")

    @property
    def rate(self) -> float:
        done = len(self.latencies) if self.answered is None else self.answered
        return done / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        if int(q) in self.percentiles:
            return self.percentiles[int(q)]
        if not self.latencies:
            return float("nan")
        if len(self.latencies) < 2:
            return self.latencies[0]
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[int(q) - 1]


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, int, bool]:
    """Read one HTTP/1.1 response: (status, body bytes, whether the server closes)."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    status = int(status_line.split()[1])
    length: int | None = None
    chunked = close = False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        key, _, value = line.decode("latin-1").partition(":")
        key, value = key.strip().lower(), value.strip().lower()
        if key == "content-length":
            length = int(value)
        elif key == "transfer-encoding" and "chunked" in value:
            chunked = True
        elif key == "connection" and value == "close":
            close = True
    size = 0
    if chunked:
        while True:
            chunk = int((await reader.readline()).split(b";")[0], 16)
            await reader.readexactly(chunk + 2)
            size += chunk
            if chunk == 0:
                break
    elif length is not None:
        size = len(await reader.readexactly(length))
    else:
        size = len(await reader.read())
        close = True
    return status, size, close


async def _client(port: int, path: str, until: float, start: float, result: Result) -> None:
    request = f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nUser-Agent: bench\r\n\r\n".encode()
    reader = writer = None
    while time.perf_counter() < until:
        began = time.perf_counter()
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection(HOST, port)
            writer.write(request)
            status, size, close = await asyncio.wait_for(_read_response(reader), 30)
        except (OSError, ConnectionError, asyncio.IncompleteReadError, TimeoutError, ValueError):
            close, status, size = True, 0, 0
        result.requests += 1
        if began >= start:  # requests begun during the warm-up are not counted
            if status == 200:
                result.latencies.append(time.perf_counter() - began)
                result.bytes = size
            else:
                result.errors += 1
        if close and writer is not None:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
            reader = writer = None
    if writer is not None:
        writer.close()


async def _load(port: int, path: str, connections: int, seconds: float, warmup: float) -> Result:
    result = Result()
    now = time.perf_counter()
    start, until = now + warmup, now + warmup + seconds
    await asyncio.gather(*(_client(port, path, until, start, result) for _ in range(connections)))
    result.seconds = seconds
    return result


def load(port: int, pgid: int, path: str, connections: int, seconds: float) -> Result:
    before = group_cpu_seconds(pgid)
    result = asyncio.run(_load(port, path, connections, seconds, warmup=min(1.0, seconds / 3)))
    result.cpu_seconds = group_cpu_seconds(pgid) - before
    return result


#: wrk's report as one JSON line (its ``done`` hook; times in microseconds).
WRK_REPORT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "us": %d, "bytes": %d, "errors": %d, "p50": %d, "p99": %d}\\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
"""


def wrk_path() -> str | None:
    """The ``wrk`` load generator (C, one thread: it leaves the cores to the servers)."""
    return shutil.which("wrk")


def wrk_load(port: int, pgid: int, path: str, connections: int, seconds: float) -> Result:
    """:func:`load` by ``wrk`` (closed loop, keep-alive, ``connections`` connections on one
    thread): a warm-up second, then ``seconds`` measured; the server's CPU over the
    measured part. Bytes are the body of one answer; errors: non-2xx/3xx answers,
    broken connections and answers slower than 30 s."""
    import json

    url = f"http://{HOST}:{port}{path}"
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_REPORT)
    try:
        base = [wrk_path() or "wrk", "-t1", f"-c{connections}", "--timeout", "30s"]
        subprocess.run([*base, "-d1s", url], check=True, capture_output=True)  # warm-up
        before = group_cpu_seconds(pgid)
        out = subprocess.run(
            [*base, f"-d{seconds:g}s", "-s", script.name, url], check=True, capture_output=True
        )
        cpu = group_cpu_seconds(pgid) - before
    finally:
        os.unlink(script.name)
    report = json.loads(out.stdout.decode().strip().splitlines()[-1])
    with urllib.request.urlopen(url, timeout=30) as answer:
        body = len(answer.read())
    return Result(
        errors=report["errors"],
        bytes=body,
        seconds=report["us"] / 1e6,
        cpu_seconds=cpu,
        requests=report["requests"],
        answered=report["requests"] - report["errors"],
        percentiles={50: report["p50"] / 1e6, 99: report["p99"] / 1e6},
    )


def page_load(port: int, pgid: int, path: str, connections: int, seconds: float) -> Result:
    """One page under load: by ``wrk`` when it is installed, else by :func:`load`."""
    if wrk_path():
        return wrk_load(port, pgid, path, connections, seconds)
    return load(port, pgid, path, connections, seconds)


def liveness_path(port: int) -> str:
    try:
        urllib.request.urlopen(f"http://{HOST}:{port}/healthz/live", timeout=5).close()
        return "/healthz/live"
    except (urllib.error.URLError, OSError):
        return "/healthz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per page")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--setups", default="daphne,serve", help="comma-separated")
    parser.add_argument(
        "--pages", default="liveness,home,API standings", help="comma-separated, of these"
    )
    parser.add_argument("--repeat", type=int, default=1, help="measure each page this often")
    args = parser.parse_args()
    setups = [s.strip() for s in args.setups.split(",") if s.strip()]

    workdir = Path(tempfile.mkdtemp(prefix="tock-bench-serving-"))
    try:
        with private_database(workdir) as database_url:
            backend = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
            tournament = prepare(database_url)
            results: dict[str, dict[str, Result]] = {name: {} for name in setups}
            with contextlib.ExitStack() as stack:
                # Every setup runs from the start (idle ones cost nothing) and each page is
                # measured on all setups one after the other: the machine's load drifts
                # less between two figures that are compared.
                servers = {
                    name: stack.enter_context(running_server(name, database_url, workdir))
                    for name in setups
                }
                watches = {
                    name: stack.enter_context(ConnectionWatch(database_url, tagged(name)))
                    for name in setups
                }
                first_port = servers[setups[0]][0]
                paths = {
                    "liveness": liveness_path(first_port),
                    "home": "/",
                    "API standings": f"/api/tournaments/{tournament}/standings",
                }
                wanted = {p.strip() for p in args.pages.split(",")}
                paths = {label: path for label, path in paths.items() if label in wanted}
                for label, path in paths.items():
                    for _ in range(args.repeat):  # each repetition keeps the best rate
                        for name, (port, pgid) in servers.items():
                            got = page_load(port, pgid, path, args.connections, args.seconds)
                            best = results[name].get(label)
                            if best is None or got.rate > best.rate:
                                results[name][label] = got
                peaks = {name: watch.peak for name, watch in watches.items()}
            report(results, peaks, paths, backend, args)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def report(
    results: dict[str, dict[str, Result]],
    peaks: dict[str, int],
    paths: dict[str, str],
    backend: str,
    args: argparse.Namespace,
) -> None:
    setups = list(results)
    client = "wrk, one thread" if wrk_path() else "the asyncio client of bench_serving.py"
    print(
        f"Serving, {backend}, DEBUG off, {args.connections} connections, "
        f"{args.seconds:g} s per page, {os.cpu_count()} cores (load client: {client}, "
        "on the same machine)"
    )
    print(
        f"{'page':<32} {'setup':<14} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'bytes':>8} {'errors':>6} {'vs ' + setups[0]:>9} {'CPU ms/req':>10}"
    )
    if not setups[0].endswith(NOCACHE) and setups[0] + NOCACHE in results:
        print(f"(a {NOCACHE} setup is compared with {setups[0]}{NOCACHE})")

    def baseline(name: str) -> str:
        twin = setups[0] + NOCACHE
        return twin if name.endswith(NOCACHE) and twin in results else setups[0]

    for label, path in paths.items():
        for name in setups:
            r = results[name].get(label)
            if r is None:
                continue
            base = results[baseline(name)][label].rate
            ratio = f"{r.rate / base:.2f}x" if base else "-"
            print(
                f"{label + ' ' + path:<32.32} {name:<14} {r.rate:>8.0f} "
                f"{r.percentile(50) * 1000:>8.1f} {r.percentile(99) * 1000:>8.1f} "
                f"{r.bytes:>8} {r.errors:>6} {ratio:>9} {r.cpu_ms_per_request:>10.2f}"
            )
    if backend == "PostgreSQL":
        print("peak PostgreSQL connections: " + ", ".join(f"{n} {peaks[n]}" for n in setups))


if __name__ == "__main__":
    main()
