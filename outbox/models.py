"""Outbox messages (see :mod:`outbox`).

Invariants: a message is created in the transaction of the change it follows, so it
exists exactly when that change committed; ``done_at`` is set once its handler has
run to completion (in the handler's own transaction); a message is never deleted
before it is done.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class OutboxMessage(models.Model):
    topic = models.CharField(_("topic"), max_length=64)
    payload = models.JSONField(_("payload"), default=dict)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    published_at = models.DateTimeField(_("last published at"), null=True, blank=True)
    #: When the delivery that ran it began (queue wait = this - created_at; the work
    #: itself = done_at - this).
    started_at = models.DateTimeField(_("delivery started at"), null=True, blank=True)
    attempts = models.PositiveIntegerField(_("delivery attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True, default="")
    done_at = models.DateTimeField(_("done at"), null=True, blank=True)

    class Meta:
        verbose_name = _("outbox message")
        verbose_name_plural = _("outbox messages")
        ordering = ["id"]
        indexes = [
            # The sweep's query: pending messages, oldest first.
            models.Index(
                fields=["created_at"],
                name="outbox_pending",
                condition=models.Q(done_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        state = "done" if self.done_at else "pending"
        return f"#{self.pk} {self.topic} ({state})"
