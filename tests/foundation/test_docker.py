"""The production files in docker/ parse and describe every service (Docker cannot run here)."""

import re

import yaml

from .helpers import BASE_DIR

DOCKER = BASE_DIR / "docker"


def load_compose() -> dict:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


def test_compose_names_every_service():
    services = load_compose()["services"]
    assert {"db", "redis", "web", "worker", "beat"} <= set(services)
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")


def test_app_services_share_one_image_and_are_configured_by_environment():
    services = load_compose()["services"]
    for name in ("web", "worker", "beat", "migrate"):
        service = services[name]
        assert service["build"]["dockerfile"] == "docker/Dockerfile"
        env = service["environment"]
        assert env["DJANGO_SETTINGS_MODULE"] == "tock_site.settings_production"
        for variable in ("DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"):
            assert re.search(r"\$\{" + variable, env[variable]), (name, variable)
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"


def test_commands():
    services = load_compose()["services"]
    # One port for HTTP and WebSockets: gunicorn with uvicorn workers, as `make serve`.
    assert services["web"]["command"] == ["gunicorn", "-c", "tock_site/gunicorn.conf.py"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "tock_site", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "tock_site", "beat"]
    assert services["migrate"]["command"][-2:] == ["migrate", "--noinput"]


def test_no_secret_is_baked_in():
    text = (DOCKER / "compose.yaml").read_text()
    assert "${DJANGO_SECRET_KEY:?" in text
    assert "${POSTGRES_PASSWORD:?" in text


def test_web_listens_on_every_interface_with_a_bounded_pool():
    web = load_compose()["services"]["web"]
    env = web["environment"]
    assert env["HOST"] == "0.0.0.0" and env["PORT"] == "8000"
    assert re.search(r"\$\{WEB_CONCURRENCY", env["WEB_CONCURRENCY"])
    assert re.search(r"\$\{DB_POOL_MAX_SIZE", env["DB_POOL_MAX_SIZE"])
    # the shared environment is kept, not replaced
    assert env["DJANGO_SETTINGS_MODULE"] == "tock_site.settings_production"
    assert re.search(r"\$\{DATABASE_URL", env["DATABASE_URL"])


def test_dockerfile_runs_the_web_server_as_non_root():
    dockerfile = (DOCKER / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.1[1-9]", dockerfile, re.M)
    assert re.search(r"^USER (?!root)", dockerfile, re.M)
    assert 'CMD ["gunicorn", "-c", "tock_site/gunicorn.conf.py"]' in dockerfile
    assert re.search(r"^ENV HOST=0\.0\.0\.0 PORT=8000", dockerfile, re.M)
    assert (DOCKER / "README.md").exists()
