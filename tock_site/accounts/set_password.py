"""The one-time set-password page of a staff account created by an organizer
(:func:`tournaments.staff.services.staff_account_create`).

Django's password-reset confirmation, without mail: the organizer hands the link over
in person. The token is ``default_token_generator``'s, which hashes the password, so the
link works until the password is set, once (and expires after
``PASSWORD_RESET_TIMEOUT``). Unlike ``password_reset_confirm`` it does not need
``MAIL_ENABLED``. On success the new member is sent to the login page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import PasswordResetConfirmView
from django.http import HttpResponse
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class StaffSetPasswordView(PasswordResetConfirmView):
    template_name = "registration/set_password.html"
    success_url = reverse_lazy("login")
    title = gettext_lazy("Choose your password")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(
            self.request,
            _("Your password is set. Log in as %(name)s.") % {"name": form.user.get_username()},
        )
        return response
