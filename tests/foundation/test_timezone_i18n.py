"""Timezone-aware everywhere, and the site's text goes through translation."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from tock_site.tasks import site_heartbeat


def test_settings_are_timezone_aware_and_translatable():
    assert settings.USE_TZ is True
    assert settings.USE_I18N is True
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE
    assert {code for code, _ in settings.LANGUAGES} == {"en", "es", "de"}


@pytest.mark.django_db
def test_a_naive_datetime_fails_the_test_suite():
    user = get_user_model()(username="naive", last_login=datetime.datetime(2025, 1, 1, 12))
    with pytest.raises(RuntimeWarning, match="naive datetime"):
        user.save()


@pytest.mark.django_db
def test_heartbeat_time_is_aware():
    beat = site_heartbeat.delay().get()
    assert timezone.is_aware(datetime.datetime.fromisoformat(beat["at"]))


def test_language_names_are_lazy_translations():
    with translation.override("de"):
        assert [str(name) for _, name in settings.LANGUAGES] == ["Englisch", "Spanisch", "Deutsch"]
    with translation.override("es"):
        assert [str(name) for _, name in settings.LANGUAGES] == ["Inglés", "Español", "Alemán"]
