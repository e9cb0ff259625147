"""The Redis cache backend of the real stack: Django's, with one client per process.

Django keeps its cache backends in an ``asgiref.local.Local`` that is not thread
critical, which is context-variable storage: each context gets backends of its own.
The web processes run every request in a fresh copy of the context (a2wsgi,
:mod:`tock_site.serve`), so every request built a new ``RedisCache``, a new connection
pool and so a new TCP connection to Redis (with redis-py's ``CLIENT SETINFO``
handshake), and dropped it at the end: a recorded result, which moves two cache
versions on and claims an outbox topic, opened a connection for that alone
(``bench/bench_event.py``, issue 26). Here every backend instance of one configuration
shares one :class:`~django.core.cache.backends.redis.RedisCacheClient` per process,
whose pools keep their connections between requests (redis-py's pools are thread
safe and start afresh in a forked child), and each pool's ``redis.Redis`` client is
made once (Django made one per command: some hundred response callbacks copied each
time), and ``incr`` asks Redis once instead of twice (atomically, in a script).

Behaviour is Django's: same keys, values, timeouts and errors.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[Any, ...], RedisCacheClient] = {}
_lock = threading.Lock()


#: ``incr`` in one round trip (Django's asks ``EXISTS`` then ``INCRBY``): the new value
#: as text (a Lua number would round values past 2**53, such as the page version's
#: nanoseconds), or nil for a missing key.
_INCR_EXISTING = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('INCRBY', KEYS[1], ARGV[1])
  return redis.call('GET', KEYS[1])
end
return false
"""


class _SharedClient(RedisCacheClient):
    """Django's client, keeping one ``redis.Redis`` per connection pool; ``incr`` in
    one round trip (a result moves two cache versions on: two round trips less)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._incr_script: Any = None

    def incr(self, key: Any, delta: int) -> int:
        client = self.get_client(key, write=True)
        if self._incr_script is None:
            self._incr_script = client.register_script(_INCR_EXISTING)
        value = self._incr_script(keys=[key], args=[delta], client=client)
        if value is None:
            raise ValueError(f"Key '{key}' not found.")  # as Django's client
        return int(value)

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._client(connection_pool=self._get_connection_pool(write))
            self._clients[index] = client  # a race makes one more, harmless
        return client


class SharedRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` sharing its client per process
    (see the module)."""

    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (tuple(self._servers), tuple(sorted((k, repr(v)) for k, v in self._options.items())))
        client = _clients.get(key)
        if client is None:
            with _lock:
                client = _clients.get(key)
                if client is None:
                    client = _clients[key] = _SharedClient(self._servers, **self._options)
        return client
