"""Every documented server command agrees with the client-address setting: no
``daphne --proxy-headers`` (it trusts the client's own leftmost X-Forwarded-For entry),
and DJANGO_TRUSTED_PROXIES is documented and passed to the containers."""

from __future__ import annotations

import yaml

from tests.foundation.helpers import BASE_DIR

DOCUMENTS = ["docs/deploy.md", "docker/README.md", "docker/compose.yaml", "docker/Dockerfile"]


def test_no_server_command_trusts_the_clients_forwarded_header():
    compose = yaml.safe_load((BASE_DIR / "docker/compose.yaml").read_text())
    assert "--proxy-headers" not in compose["services"]["web"]["command"]
    dockerfile = (BASE_DIR / "docker/Dockerfile").read_text()
    cmd = next(line for line in dockerfile.splitlines() if line.startswith("CMD"))
    assert "gunicorn.conf.py" in cmd and "--proxy-headers" not in cmd
    # The web server (compose, image, make serve) runs uvicorn workers that must not
    # rewrite the client address from the headers either.
    from tock_site.asgi_worker import AsgiWorker

    assert AsgiWorker.CONFIG_KWARGS["proxy_headers"] is False
    deploy = (BASE_DIR / "docs/deploy.md").read_text()
    for line in deploy.splitlines():
        if line.startswith("| web |"):
            assert "gunicorn -c tock_site/gunicorn.conf.py" in line
            assert "--proxy-headers" not in line


def test_trusted_proxies_are_documented_and_configurable():
    for name in ("docs/deploy.md", "docker/README.md"):
        assert "DJANGO_TRUSTED_PROXIES" in (BASE_DIR / name).read_text(), name
    compose = yaml.safe_load((BASE_DIR / "docker/compose.yaml").read_text())
    for service in ("web", "worker", "beat", "migrate"):
        env = compose["services"][service]["environment"]
        assert env["DJANGO_TRUSTED_PROXIES"].startswith("${DJANGO_TRUSTED_PROXIES:-0}")
        assert "DJANGO_EMAIL_URL" in env
