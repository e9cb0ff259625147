"""The transactional outbox: work that must follow a committed change, never lost.

A write service records an :class:`~outbox.models.OutboxMessage` (a topic and its
JSON payload) in the same transaction as the change it follows; after commit the
message is published to a Celery task that runs the topic's handler and marks the
message done. If the publish is lost (the broker is down, the process dies between
commit and publish) the message stays pending in the database and
:func:`outbox.services.outbox_sweep` (run by Celery beat) publishes it again. Handlers
must therefore be idempotent: they may run more than once for one message.

See :mod:`outbox.services` for the API and :mod:`outbox.handlers` for the registry.
"""
