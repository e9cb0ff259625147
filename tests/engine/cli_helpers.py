"""Running ``python -m games.engine`` from the tests: as a subprocess (the real entry
point) or in process (fast), and writing a kind's sample log files for the replay
command."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import games.engine as engine
from games.engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``python -m games.engine *args`` in a subprocess at the project's root."""
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def inproc(*args: str) -> tuple[int, str, str]:
    """``python -m games.engine *args`` in process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def write_logs(directory: Path, **logs: list[dict]) -> dict[str, Path]:
    """Each of ``logs`` written as ``<name>.jsonl`` in ``directory``: name -> path."""
    paths = {name: directory / f"{name}.jsonl" for name in logs}
    for name, events in logs.items():
        paths[name].write_text(engine.format_log(events))
    return paths
