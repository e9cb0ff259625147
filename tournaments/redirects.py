"""The answer of a successful form POST on the site's pages: 303 See Other, so the
browser GETs the page again (post/redirect/get)."""

from __future__ import annotations

from django.http import HttpResponseRedirect


def see_other(url: str) -> HttpResponseRedirect:
    response = HttpResponseRedirect(url)
    response.status_code = 303
    return response
