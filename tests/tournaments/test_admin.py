"""Admin: every model has a working changelist; events and ratings are read-only."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from games.models import GameEvent
from ratings.models import RatingChange
from tests.tournaments.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_every_model_registered_and_listed(client, django_capture_on_commit_callbacks):
    from django.core.management import call_command

    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", stdout=None)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    for app in ("games", "tournaments"):
        from django.apps import apps

        for model in apps.get_app_config(app).get_models():
            assert model in admin.site._registry, model
            meta = model._meta
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
            assert client.get(url).status_code == 200, url
            obj = model.objects.first()
            if obj is not None:
                url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
                assert client.get(url).status_code == 200, url
    for model in (GameEvent, RatingChange):
        model_admin = admin.site._registry[model]
        assert not model_admin.has_add_permission(None)
        assert not model_admin.has_change_permission(None)
        assert not model_admin.has_delete_permission(None)
