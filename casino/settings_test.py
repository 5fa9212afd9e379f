"""Settings for the test run: the environment's settings plus a throwaway key and fast hashing.

``DATABASE_URL`` and ``REDIS_URL`` still come from the environment, so ``.ci/run`` points the suite at
the real PostgreSQL and Redis; without them it falls back to SQLite and eager Celery and says so.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")

from casino.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
