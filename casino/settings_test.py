"""Settings for the test run: the environment's settings plus a throwaway key and fast hashing.

``DATABASE_URL`` and ``REDIS_URL`` still come from the environment, so ``.ci/run`` points the suite at
the real PostgreSQL and Redis; without them it falls back to SQLite and eager Celery and says so.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
# The suite (test client, live server for the browser tests) speaks plain HTTP: no HTTPS redirect and no
# HTTPS-only cookies here. Production keeps them on (DEBUG off); tests/casino/test_deploy_settings.py checks that.
for _name in ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"):
    os.environ.setdefault(_name, "false")

from casino.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The house default is German (de-at); the suite's older tests read English messages, so a request
# without Accept-Language gets English here. Tests of the German default override this explicitly.
LANGUAGE_CODE = "en"
