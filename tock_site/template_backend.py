"""Django's template backend, letting go of each render's context as soon as it is done.

Django's ``RequestContext`` keeps every dict it is given in a ``ContextDict`` that points
back at the context (``ContextDict.context``): a reference cycle. So everything a view
puts in the context (a 1,000-player page's standings rows, its rendered rows, model
instances) outlived the render until the cyclic garbage collector next ran, and the web
processes run it rarely (``tock_site/serve.py``): with 8 request threads rendering a big
event's page at once, a worker held some hundred renders' worth of dead contexts (its
peak memory went from about 115 MB to 260-300 MB; ``bench/bench_page.py``).

:class:`DjangoTemplates` is Django's backend whose templates empty the context's stack
once the page is rendered, which breaks the cycle: reference counting frees it all at
once. Nothing reads a context after its render (the test client keeps copies of it,
with their own stack). A render that fails keeps its context for the error report.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.backends.django import DjangoTemplates as _DjangoTemplates
from django.template.backends.django import Template as _Template
from django.template.backends.django import reraise
from django.template.context import make_context
from django.template.exceptions import TemplateDoesNotExist
from django.utils.safestring import SafeString


class Template(_Template):
    """A compiled template whose render drops its context afterwards (see the module)."""

    def render(
        self, context: dict[str, Any] | None = None, request: HttpRequest | None = None
    ) -> SafeString:
        context = make_context(context, request, autoescape=self.backend.engine.autoescape)
        try:
            rendered = self.template.render(context)
        except TemplateDoesNotExist as exc:
            reraise(exc, self.backend)
        # The stack holds the cycle (each ContextDict points back at the context).
        context.dicts.clear()
        return rendered


class DjangoTemplates(_DjangoTemplates):
    """``django.template.backends.django.DjangoTemplates`` with :class:`Template`."""

    def from_string(self, template_code: str) -> Template:
        return Template(self.engine.from_string(template_code), self)

    def get_template(self, template_name: str) -> Template:
        try:
            return Template(self.engine.get_template(template_name), self)
        except TemplateDoesNotExist as exc:
            reraise(exc, self)
