"""Accounts: who the client is (behind proxies), login locks, the token throttle, mail.

* :mod:`.client` -- the client's address, trusting ``X-Forwarded-For`` only from the
  configured number of proxies (``TRUSTED_PROXIES``); the API throttle and the login
  locks both use it.
* :mod:`.throttling` -- the token endpoint's throttle, which lets a request through
  (and logs it) when the cache is unreachable instead of failing the login.
* :mod:`.lockout` -- django-axes glue: the lock of a (username, address) pair, its
  page and JSON answer, and the unlock service for superusers and organizers.
* :mod:`.mail` -- whether the site can send mail (password reset only then).
"""
