"""Run Python or manage.py in a fresh process with a chosen environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parents[2]
SERVICE_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "CELERY_TASK_ALWAYS_EAGER",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_DEBUG",
    "REQUIRE_SERVICES",
    "REDIS_KEY_PREFIX",
)


def clean_env(**overrides: str) -> dict[str, str]:
    """The current environment without any service or Django variable, plus overrides."""
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_VARS}
    env["DJANGO_SETTINGS_MODULE"] = "tock_site.settings"
    env.update(overrides)
    return env


def run(args: list[str], env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=timeout
    )


def run_python(code: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    return run([sys.executable, "-c", code], env=env, timeout=timeout)


def python_json(code: str, env: dict[str, str], timeout: float = 60) -> Any:
    """Run ``code`` (which prints one JSON document last) and decode what it printed."""
    proc = run_python(code, env=env, timeout=timeout)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return json.loads(proc.stdout.strip().splitlines()[-1])
