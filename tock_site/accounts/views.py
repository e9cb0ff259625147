"""Accounts pages: organizers lift login locks of their tournaments' people."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tock_site.accounts.lockout import UnlockNotAllowed, login_unlock, user_is_organizer


class UnlockForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)
    ip_address = forms.GenericIPAddressField(
        label=gettext_lazy("Only from this address (optional)"), required=False
    )


@login_required
def unlock(request: HttpRequest) -> HttpResponse:
    if not user_is_organizer(user=request.user):
        raise PermissionDenied
    form = UnlockForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username = form.cleaned_data["username"]
        try:
            login_unlock(
                actor=request.user,
                username=username,
                ip_address=form.cleaned_data["ip_address"] or None,
            )
        except UnlockNotAllowed:
            form.add_error(
                "username",
                _("You can unlock only the staff and players of tournaments you organize."),
            )
        else:
            messages.success(request, _("%(username)s can log in again.") % {"username": username})
            return redirect("login-unlock")
    return render(request, "registration/unlock.html", {"form": form})
