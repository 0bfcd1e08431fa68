"""Django settings. SQLite by default; PostgreSQL (or any database) when DATABASE_URL says so."""

import importlib.util
import os
import secrets
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("PLANNER_VAR_DIR", BASE_DIR / "var"))


def _secret_key() -> str:
    """The key from the environment, else one made once per checkout and kept in var/."""
    if key := os.environ.get("DJANGO_SECRET_KEY"):
        return key
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = os.environ.get("DJANGO_DEBUG", "") == "1"
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "catalog",
    "planner",
    "fabric",
    "power",
    "storage",
    "handoff",
    "jobs",
    "sweeps",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.RequestIdMiddleware",
    "config.middleware.RequestSizeLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "workspace.security.ContentSecurityPolicyMiddleware",
    "config.unavailable.ServiceUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'planner.sqlite3'}", conn_max_age=60
    )
}
SQLITE_BUSY_TIMEOUT_S = 20
"""How long a write waits for another to finish before it gives up (a request timeout is 60 s)."""

def _owner_only(database: Path) -> None:
    """The SQLite file (and the write-ahead log files SQLite makes with its mode) readable and
    writable by its owner only: it holds every scenario and the password hashes."""
    database.parent.mkdir(parents=True, exist_ok=True)
    database.touch(mode=0o600, exist_ok=True)
    database.chmod(0o600)


if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    if DATABASES["default"]["NAME"] and not str(DATABASES["default"]["NAME"]).startswith(("file:", ":memory:")):
        _owner_only(Path(DATABASES["default"]["NAME"]))
    # So that SQLite serves a team: readers never wait for the writer (write-ahead log), a
    # writer waits for another instead of failing with "database is locked" (busy timeout), and
    # every transaction takes the write lock when it begins (immediate), so that two saves never
    # both read and then both try to upgrade to writing, where SQLite can only fail one at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": SQLITE_BUSY_TIMEOUT_S,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sign-ins are counted per user name and refused after repeated failures (workspace/security.py).
AUTHENTICATION_BACKENDS = ["workspace.security.LockoutModelBackend"]

# New and changed passwords are hashed with Argon2id at OWASP's minimum (config/passwords.py);
# hashes made before with Django's PBKDF2 still verify, and are rehashed at the next sign-in.
PASSWORD_HASHERS = [
    "config.passwords.OwaspArgon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
]

# Shared by the server's workers (sign-in failures, API throttles): a file cache in var/ whose
# counts are atomic (config/cache.py).
CACHES = {
    "default": {
        "BACKEND": "config.cache.LockingFileBasedCache",
        "LOCATION": str(VAR_DIR / "cache"),
    }
}

# The proxies whose X-Forwarded-For names the client (addresses or networks, comma-separated in
# PLANNER_TRUSTED_PROXIES): the throttles and the sign-in limits count per client address, and a
# header from anyone else is ignored. None by default: the planner serves clients directly.
TRUSTED_PROXIES = [
    network.strip() for network in os.environ.get("PLANNER_TRUSTED_PROXIES", "").split(",") if network.strip()
]

# Behind an HTTPS proxy (see the README): secure cookies, HSTS, redirect to HTTPS, and the
# proxy's X-Forwarded-Proto header trusted to say a request came over HTTPS.
HTTPS = os.environ.get("PLANNER_HTTPS", "") == "1"
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("PLANNER_HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = os.environ.get("PLANNER_HSTS_INCLUDE_SUBDOMAINS", "1") == "1"
    SECURE_HSTS_PRELOAD = os.environ.get("PLANNER_HSTS_PRELOAD", "") == "1"
    if not SECURE_HSTS_PRELOAD:
        # Preloading binds the domain and its subdomains to HTTPS in browsers for months: an
        # operator's choice (PLANNER_HSTS_PRELOAD=1), not a default.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    CSRF_TRUSTED_ORIGINS = [f"https://{host}" for host in ALLOWED_HOSTS if host and host != "*"]
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# plotly.js comes from the installed plotly package (no CDN: planners often work offline).
PLOTLY_JS_DIR = Path(importlib.util.find_spec("plotly").origin).parent / "package_data"
STATICFILES_DIRS = [BASE_DIR / "static", ("vendor/plotly", PLOTLY_JS_DIR)]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed (gzip and Brotli) names made by collectstatic in scripts/setup.
    "staticfiles": {"BACKEND": "config.staticfiles.PlannerStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# Background jobs (jobs/): their result files, the kinds the worker runs, how long results are
# kept, and the exports that run as jobs: cabling plans of more cables than a request streams in
# a few seconds (about 50,000 rows a second on a busy 2-core machine).
JOBS_DIR = VAR_DIR / "jobs"
JOB_KINDS = {"plan_export": "handoff.export_jobs.plan_export_job", "sweep": "sweeps.jobs.sweep_job",
             "nautobot_push": "handoff.nautobot_push_views.nautobot_push_job"}
# The Nautobot the dashboard's "Push to Nautobot" button pushes to (hidden when either is unset).
NAUTOBOT_URL = os.environ.get("NAUTOBOT_URL", "")
NAUTOBOT_TOKEN = os.environ.get("NAUTOBOT_TOKEN", "")
# Processes a sweep job plans on (a Dask cluster instead when DASK_SCHEDULER_ADDRESS is set).
SWEEP_JOB_WORKERS = int(os.environ.get("PLANNER_SWEEP_JOB_WORKERS", 1))
JOB_RESULT_TTL_S = 24 * 60 * 60
# Touched every few seconds by each running job worker; /healthz says "degraded" when it is old
# (None: worker.alive in JOBS_DIR).
JOB_WORKER_ALIVE_FILE = None
JOB_WORKER_SILENT_AFTER_S = 30
# /healthz says "unavailable" below this much free space where var/ is (the database, the
# caches of throttles and sign-ins, job results): saves and sign-ins would fail.
DISK_FREE_MIN_BYTES = int(os.environ.get("PLANNER_DISK_FREE_MIN_BYTES", 50 * 1024 * 1024))
JOB_MAX_ACTIVE_PER_OWNER = 4
# A job whose worker died is resumed by the next worker, at most this many starts in all.
JOB_MAX_ATTEMPTS = 3
# Ceilings of sweeps: designs of one user's queued and running sweeps together, and the CPU time
# one sweep job may take (it is stopped there, saying how far it got).
SWEEP_MAX_DESIGNS_PER_USER = int(os.environ.get("PLANNER_SWEEP_MAX_DESIGNS_PER_USER", 1_000_000))
SWEEP_MAX_CPU_S = float(os.environ.get("PLANNER_SWEEP_MAX_CPU_S", 2 * 60 * 60))
HEAVY_EXPORT_CABLES = int(os.environ.get("PLANNER_HEAVY_EXPORT_CABLES", 200_000))
# The CPU seconds of work (planner.solver.limits' estimate, summed over pools and phases) a
# request may ask for while its user waits; past it an export runs as a job, anything else is a 422.
PLAN_INTERACTIVE_CPU_S = float(os.environ.get("PLANNER_PLAN_INTERACTIVE_CPU_S", 2.0))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "workspace:scenario-list"
LOGOUT_REDIRECT_URL = "home"

# A scenario document is a few kilobytes; a megabyte is far beyond any real one.
SCENARIO_MAX_BYTES = 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = SCENARIO_MAX_BYTES
# Any request body, uploads and form encoding included; larger ones are 413 before being read.
MAX_REQUEST_BYTES = 2 * SCENARIO_MAX_BYTES

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.BasicAuthentication",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon_plan": os.environ.get("PLANNER_ANONYMOUS_PLAN_RATE", "120/min"),
    },
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["workspace.api.parsers.ScenarioJSONParser"],
    "DEFAULT_RENDERER_CLASSES": [
        "workspace.api.renderers.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_SCHEMA_CLASS": "workspace.api.schema.PlannerAutoSchema",
    "EXCEPTION_HANDLER": "workspace.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "workspace.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "AI GPU cluster capacity planner API",
    "DESCRIPTION": "Plan GPU clusters from scenario documents; keep scenarios with revisions; read the component catalog.",
    "VERSION": "1",
    # 3.1: its schemas are JSON Schema 2020-12, the dialect of the scenario document's schema.
    "OAS_VERSION": "3.1.0",
    # Enums stay where they are: the enum hook cannot sort a choice of text and numbers
    # (fabrics.<name>.tiers: auto, 2 or 3) and would move the document's choices out of it.
    "POSTPROCESSING_HOOKS": [],
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.middleware.RequestIdFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s [request %(request_id)s] %(name)s: %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["request_id"], "formatter": "plain"},
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
}
