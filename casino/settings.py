"""Settings, all read from the environment in this one module (DESIGN.md "casino/ and the API").

Environment variables (see README "Production"):
  DEBUG (default false), SECRET_KEY (required unless DEBUG), ALLOWED_HOSTS,
  DATABASE_URL (default: SQLite file ``db.sqlite3`` in the project folder),
  REDIS_URL (Celery broker; unset = tasks run eagerly in-process),
  TIME_ZONE (default Europe/Vienna), GAMING_DAY_START (default 06:00),
  CI (true = a missing PostgreSQL or Redis fails the test run instead of falling back).
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set unless DEBUG=true (see README 'Production').")
    SECRET_KEY = "insecure-debug-only-key-do-not-use-in-production"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# --- Transport security (issue 20): on by default when DEBUG is off, each switchable from the environment. ---
#: Redirect every plain-HTTP request to HTTPS. Behind a proxy that terminates TLS and redirects itself, set false.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
#: HSTS max-age in seconds (0 = no header); one year by default outside DEBUG.
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
#: Session and CSRF cookies only over HTTPS.
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
#: The switch for a TLS-terminating proxy: the header it sets on HTTPS requests, e.g.
#: ``SECURE_PROXY_SSL_HEADER=HTTP_X_FORWARDED_PROTO`` (the proxy must strip it from clients). Unset = none.
_proxy_header = env.str("SECURE_PROXY_SSL_HEADER", default="")
SECURE_PROXY_SSL_HEADER = (_proxy_header, "https") if _proxy_header else None

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "django_filters",
    "drf_spectacular",
    # Swagger UI's and Redoc's files served by the app (/static/drf-spectacular-sidecar/): no CDN.
    "drf_spectacular_sidecar",
    "django_htmx",
    "casino.apps.CasinoConfig",
    "rules",
    "tables",
    "accounting",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files (htmx, CSS, fonts) served by the app itself: casino networks are often offline.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Language: the URL's/session's choice, then Accept-Language, then the house default (LANGUAGE_CODE).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Then the signed-in user's saved language (pages), or the API's explicit Accept-Language (casino/language.py).
    "casino.language.UserLanguageMiddleware",
    # Before anything reads a body (none of the above does; CSRF reads the form only in process_view, after
    # the whole chain): over DATA_UPLOAD_MAX_MEMORY_SIZE is a readable 413 on every path, in the language
    # chosen just above (issue 18: it came after nothing and always spoke the house language).
    "casino.middleware.RequestSizeLimitMiddleware",
    # A form post with a null character in any field: a readable 400 (PostgreSQL stores none), before any view.
    "casino.middleware.FormNullCharacterMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a lockout flagged during the request into the refusal (casino.auth.lockout_response).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "casino" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "casino.context_processors.role_links",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
#: Keep connections open between requests (seconds); a fresh connection per request costs more than the query.
#: Not under ``runserver`` (``make run``): it serves each request on a new thread, and a connection kept by a
#: finished thread stays open until Python's garbage collector finds it (one idle PostgreSQL connection per
#: request, "too many clients"; Django's docs: no persistent connections in development). gunicorn keeps its own.
RUNSERVER = sys.argv[1:2] == ["runserver"]
DATABASES["default"]["CONN_MAX_AGE"] = 0 if RUNSERVER else env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    #: The hot path's plain SQL (casino/rows.py) becomes a prepared statement of the connection after this many
    #: uses on it (PostgreSQL plans it once per connection, not per call); 0 = never (behind a connection
    #: pooler that cannot keep prepared statements). The ORM's queries are not prepared.
    _prepare = env.int("DATABASE_PREPARE_THRESHOLD", default=5)
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = _prepare if _prepare > 0 else None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default: WAL journal (readers do not block the writer) and IMMEDIATE transactions, so
    # the write lock is taken at BEGIN (SQLite's stand-in for row locks).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
         "transaction_mode": "IMMEDIATE"})
DATABASE_VENDOR_LABEL = DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
#: The database roles (issue 20, README "Production"): ``migrate`` run as the owner grants row rights to
#: DATABASE_APP_ROLE (casino/db_roles.py); DATABASE_ASSUME_ROLE makes every connection act as that role
#: (SET ROLE) when the login differs from it.
DATABASE_APP_ROLE = env.str("DATABASE_APP_ROLE", default="")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.str("DATABASE_ASSUME_ROLE", default=""):
    DATABASES["default"].setdefault("OPTIONS", {})["assume_role"] = env.str("DATABASE_ASSUME_ROLE")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    # Validates nothing; its password_changed hook revokes the user's API token on every password change.
    {"NAME": "casino.auth.TokenRevocationOnPasswordChange"},
]
# Axes first: it refuses a locked-out user or address before the password is even checked.
AUTHENTICATION_BACKENDS = ["casino.auth_backends.LockoutBackend", "django.contrib.auth.backends.ModelBackend"]

# --- Logins (issue 20) ---
#: Lifetime of an API token: a shift (8 hours) unless API_TOKEN_TTL_MINUTES says otherwise.
API_TOKEN_TTL = dt.timedelta(minutes=env.int("API_TOKEN_TTL_MINUTES", default=8 * 60))
#: Lockout (django-axes): this many failed logins for one username, or from one address, lock it out ...
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
#: ... for this long (or until a floor manager unlocks it: POST /api/v1/auth/unlock/, audited).
AXES_COOLOFF_TIME = dt.timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=30))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each on its own: per user and per address
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "casino.auth.lockout_response"
AXES_CLIENT_IP_CALLABLE = "casino.auth.client_ip"
#: Unlocks go through the audited endpoint, not axes' own admin pages.
AXES_ENABLE_ADMIN = False
AXES_VERBOSE = False
#: Proxies in front of the service that append to X-Forwarded-For (0 = clients connect directly).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)

#: The house language (DESIGN.md "Languages"): German (Austria) unless the environment says otherwise.
LANGUAGE_CODE = env.str("HOUSE_LANGUAGE", default="de-at")
LANGUAGES = [("de-at", "Deutsch"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
#: The house's formats over Django's (German date and time as ``01.12.2026 14:05``: casino/formats/de).
FORMAT_MODULE_PATH = ["casino.formats"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Vienna")
USE_I18N = True
USE_TZ = True
#: Local wall-clock time at which the gaming day starts (DESIGN.md: default 06:00 Europe/Vienna).
GAMING_DAY_START = env.str("GAMING_DAY_START", default="06:00")
#: Working-time law for dealers (tables/services/working_time.py): after this much working time in a day
#: a rest break of WORKING_TIME_BREAK_MINUTES in one piece is due. Default: Austria, AZG § 11 (6 h, 30 min).
WORKING_TIME_BREAK_AFTER_MINUTES = env.int("WORKING_TIME_BREAK_AFTER_MINUTES", default=360)
WORKING_TIME_BREAK_MINUTES = env.int("WORKING_TIME_BREAK_MINUTES", default=30)

#: The data the repository carries (``data/``): real PHH hands for the demo, the tests and the benchmarks.
DATA_DIR = BASE_DIR / "data"
#: The eight real Seven Card Stud hands (PHH, MIT licence: ``data/phh/LICENSE``) imported by the demo
#: evening and replayed by the tests.
PHH_SAMPLE_DIR = DATA_DIR / "phh" / "wsop-2023-43-5"
#: Seven real Razz and Seven Card Stud Hi-Lo hands from the same table and day (same source and licence).
PHH_RAZZ_HILO_DIR = DATA_DIR / "phh" / "wsop-2023-43-5-razz-hilo"

STATIC_URL = "static/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
STATIC_ROOT = BASE_DIR / "var" / "static"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "var" / "media")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
#: Largest request body accepted (bytes; Django's default 2.5 MB): more is answered 413 (casino.middleware).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("MAX_REQUEST_BODY_BYTES", default=2_621_440)

REST_FRAMEWORK = {
    # Token first: an unauthenticated call then gets 401 with a WWW-Authenticate header (not 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "casino.auth.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # JSON bodies only, each key once (issue 20): a form-encoded or multipart body is 415.
    "DEFAULT_PARSER_CLASSES": ["casino.api_input.StrictJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "casino.errors.api_exception_handler",
    "COERCE_DECIMAL_TO_STRING": True,
    "DEFAULT_METADATA_CLASS": "casino.metadata.SafeMetadata",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Casino card room back office",
    "DESCRIPTION": "Tables, limits, dealer rotation, hand logging, ledger, reconciliation and tax reports "
    "for Seven Card Stud, Forty-one and Capsa Susun.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # One name for the one list of games (DESIGN.md: the engine registry's games), wherever a field offers it.
    "ENUM_NAME_OVERRIDES": {"GameEnum": "tables.models.Game",
                            # pending/approved/rejected: limit-change requests and four-eyes approvals alike
                            "DecisionStatusEnum": "tables.models.LimitChangeRequest.Status",
                            # a hand's status (the hand and the hand with its state and view), under its first name
                            "HandOutputStatusEnum": "tables.models.Hand.Status"},
    # Component descriptions come from our serializers' own docstrings, not from shared base classes.
    "GET_LIB_DOC_EXCLUDES": "casino.schema.lib_doc_excludes",
    # Every operation documents its error answers with the one error shape (issue 20).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "casino.schema.error_responses"],
    # The API docs page loads Swagger UI from this server, never from a CDN (a card room may be offline).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Celery: a Redis broker when REDIS_URL is set, otherwise eager in-process execution (first run).
REDIS_URL = env.str("REDIS_URL", default="")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_TIME_LIMIT = 600
CELERY_TASK_SOFT_TIME_LIMIT = 540
CELERY_TIMEZONE = TIME_ZONE
#: Key of the tamper-evidence digests (casino.digests); kept out of the database. Never change it once
#: hands are logged (the reconciliation would report every stored digest); default: SECRET_KEY.
LEDGER_DIGEST_KEY = env.str("LEDGER_DIGEST_KEY", default=SECRET_KEY)
# Worker faults (issue 20): the idempotent tasks are acknowledged late and requeued when their worker
# process dies; one message reserved at a time; Redis hands an unacknowledged message (its worker host
# gone) to another worker after the visibility timeout, which must exceed the longest task's time limit
# (1800 s) or a running task would be delivered twice. The sweep takes such hands long before that.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=2400)
if CELERY_VISIBILITY_TIMEOUT <= 1800:
    raise ImproperlyConfigured("CELERY_VISIBILITY_TIMEOUT must exceed the longest task time limit (1800 s).")
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
CELERY_BROKER_CONNECTION_TIMEOUT = 3
#: Seconds a closed hand may wait for its reconciliation before the sweep takes it; seconds between sweeps.
RECONCILE_SWEEP_AFTER = env.int("RECONCILE_SWEEP_AFTER", default=60)
RECONCILE_SWEEP_INTERVAL = env.int("RECONCILE_SWEEP_INTERVAL", default=30)
# Accounting knobs (issue 9): drop-count variance needing sign-off (EUR), shift windows, report job threshold.
DROP_VARIANCE_THRESHOLD = env.str("DROP_VARIANCE_THRESHOLD", default="5.00")
DROP_SHIFTS = env.dict("DROP_SHIFTS", default={"early": "06:00-14:00", "late": "14:00-22:00", "night": "22:00-06:00"})
REPORT_JOB_THRESHOLD_DAYS = env.int("REPORT_JOB_THRESHOLD_DAYS", default=31)
from accounting.schedule import accounting_beat_schedule  # noqa: E402 (imports only celery.schedules)

#: The per-gaming-day reconciliation, daily after the gaming day ends (Celery beat).
CELERY_BEAT_SCHEDULE = accounting_beat_schedule(GAMING_DAY_START, sweep_seconds=RECONCILE_SWEEP_INTERVAL)
BROKER_LABEL = "redis" if REDIS_URL else "eager (in-process, no broker)"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
# Issue 17: four eyes above this amount (EUR) for resolving a discrepancy or reversing an entry; the
# casino printed on the signed tax report.
FOUR_EYES_APPROVAL_AMOUNT = env.str("FOUR_EYES_APPROVAL_AMOUNT", default="50.00")
CASINO_NAME = env.str("CASINO_NAME", default="Casino card room (demo)")
CASINO_ADDRESS = env.str("CASINO_ADDRESS", default="Kärntner Straße 41, 1010 Wien, Österreich")
CASINO_LICENCE = env.str("CASINO_LICENCE", default="demo licence, not for filing")
