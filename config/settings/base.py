"""Settings shared by every environment.

Each environment has its own module (``local``, ``test``, ``production``) that imports
this one and is chosen explicitly with ``DJANGO_SETTINGS_MODULE``; nothing here looks at
the environment to guess where it runs. Values that differ between installations come
from environment variables, read with django-environ.
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.utils.translation import gettext_lazy as _
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()

SECRET_KEY = env.str("SECRET_KEY", default="")
DEBUG = False
ALLOWED_HOSTS: list[str] = env.list("ALLOWED_HOSTS", default=[])
# The demo logins' password file (games.players.demo): only the one-command local run
# names one; with None (here, so in production and the tests) no demo login is ever made.
DEMO_LOGINS_FILE: Path | None = None

INSTALLED_APPS = [
    # First, so that `runserver` is daphne's: the one-command run serves the live
    # WebSocket (/ws/live/) with the pages, from one process.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files
    "channels",
    "axes",  # brute-force protection of the login (README, "Production")
    "games",
    "tournaments",
    "chouette",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # Permissions-Policy on every response (PERMISSIONS_POLICY below).
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (it reads the chosen language from the session/cookie), before
    # common (so that redirects keep the language).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A page whose service (Redis) is down answers 503, not 500 (config.api).
    "config.api.ServiceUnavailableMiddleware",
    # Last: turns a login that axes refused into the lockout page (config.security).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.notifications.context_processors.notifications",
                "games.live.context_processors.live",
            ],
        },
    },
]

# ---------------------------------------------------------------------------- database
# DATABASE_URL selects the database. Each environment module supplies its own default.
DATABASE_URL_DEFAULT = "sqlite:///" + str(BASE_DIR / "db.sqlite3")


def database_from_env(default: str) -> dict[str, object]:
    """The default database from DATABASE_URL, with persistent connections.

    CONN_MAX_AGE=0 (Django's default) opens a connection per request, which was measured
    to cut a bare API GET from ~1,100 to ~200 requests/s on our machines.
    """
    db = env.db_url("DATABASE_URL", default=default)
    db.setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    db["CONN_HEALTH_CHECKS"] = True
    db["ATOMIC_REQUESTS"] = False  # services open their own transactions
    if db["ENGINE"] == "django.db.backends.postgresql":
        # Prepared statements, for the cursors that ask for them: only the two statements of
        # every game action (games.play.actionsql.statement_cursor); Django's own cursors bind
        # on the client and never prepare. Planning was most of PostgreSQL's time for them
        # (bench/README.md). False for PgBouncer in transaction pooling before 1.21.
        prepared = env.bool("DATABASE_PREPARED_STATEMENTS", default=True)
        db.setdefault("OPTIONS", {})["prepare_threshold"] = 5 if prepared else None
    return db


DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---------------------------------------------------------------------------- security
# Brute force (issue 16): django-axes counts failed logins -- the login page, the admin
# and POST /api/v1/auth/token/ -- per username and IP address, and after
# AXES_FAILURE_LIMIT of them refuses that pair for AXES_COOLOFF_MINUTES with a 429
# (config.security.lockout_response). Its backend comes first, so a refused attempt
# never reaches the password hash. The token endpoint and the login page are also
# throttled per IP address (REST_FRAMEWORK's "auth_token" and "login" rates).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# An attempt during a lockout does not lengthen it: the Retry-After we send stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_CALLABLE = "config.security.lockout_response"
# The client's address, for axes and the throttles alike (games.api.throttles.client_ip,
# which config.security imports for axes):
# REMOTE_ADDR, or, behind TRUSTED_PROXY_COUNT proxies that each append to
# X-Forwarded-For, the address the outermost of them saw (production: 1, README).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
AXES_CLIENT_IP_CALLABLE = "config.security.client_ip"

# Content-Security-Policy (django-csp) for every page, the API docs and the admin: only
# our own scripts, styles, images and fonts, no inline <script> or event handler, no
# <style> element; the live WebSocket (/ws/live/) and fetches go to our own origin
# ('self' covers ws:/wss: of the same host). style= attributes stay allowed
# (style-src-attr): the bracket and a few SVGs size themselves with them, and an
# attribute cannot run code. The browser tests (tests/browser) run under this policy.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Permissions-Policy (django-permissions-policy) on every response, pages and API alike:
# the powerful browser features the club never asks for are off for us and for any frame
# (an injected script or a framed page cannot turn on the camera or ask for a payment).
# Kept for our own origin only: fullscreen and screen-wake-lock, which the table clock
# (static/games/tableclock.js) uses to fill the screen and keep it awake. The browser
# tests run under this policy.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "fullscreen": ["self"],
    "screen-wake-lock": ["self"],
    **{
        feature: []
        for feature in (
            "accelerometer",
            "ambient-light-sensor",
            "autoplay",
            "bluetooth",
            "browsing-topics",
            "camera",
            "clipboard-read",
            "display-capture",
            "encrypted-media",
            "geolocation",
            "gyroscope",
            "hid",
            "idle-detection",
            "interest-cohort",
            "local-fonts",
            "magnetometer",
            "microphone",
            "midi",
            "otp-credentials",
            "payment",
            "picture-in-picture",
            "publickey-credentials-get",
            "serial",
            "usb",
            "web-share",
            "window-management",
            "xr-spatial-tracking",
        )
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# ---------------------------------------------------------------------------- i18n
# The club seeds are Hungarian; Hungarian is the default, English the other choice.
LANGUAGE_CODE = "hu"
LANGUAGES = [("hu", _("Hungarian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Budapest"
USE_TZ = True

# ---------------------------------------------------------------------------- static files
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# ---------------------------------------------------------------------------- redis, celery
# REDIS_URL selects the Celery broker, the result backend and the cache. Empty means
# "no Redis": only the local one-command run allows that (tasks then run eagerly).
REDIS_URL = env.str("REDIS_URL", default="")

CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_ENABLE_UTC = True
CELERY_TASK_ACKS_LATE = True  # a task a dying worker held is delivered again...
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # ...so tasks must be safe to run twice.
CELERY_RESULT_EXPIRES = 3600
# Redis redelivers a task not acknowledged within visibility_timeout. An ETA further away
# than this is delivered twice (measured: half of 150 s ETAs ran twice at a 10 s
# timeout), and a killed worker's tasks stay hidden this long. Our rule: no ETA further
# than 10 minutes away (the deadline sweeper arms the far ones when they come near), so
# 15 minutes never duplicates a timer and bounds how long a lost task can hide; the
# sweeper makes such a task harmless in any case.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 15 * 60}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"visibility_timeout": 15 * 60}
# Two queues, so a burst of mail never delays a clock flag: "celery" (the default: clock
# timers, sweeps) and "notifications" (the sends, which wait on SMTP and webhook servers).
# A plain worker consumes both; production runs one worker per queue (README), which is
# what bench/clocks.py measures: with one shared worker, 10,000 flags in a minute plus their
# 20,000 mails left the flags seconds behind.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (
    Queue("celery", Exchange("celery"), routing_key="celery"),
    Queue("notifications", Exchange("notifications"), routing_key="notifications"),
    # GNU Backgammon's match analyses (games.analysis): long CPU jobs, on workers of their
    # own (one job per core, niced), so they never delay a clock or a bot's move.
    Queue("analysis", Exchange("analysis"), routing_key="analysis"),
    # The practice opponent's turns (games.practice): short, and a player waits on them.
    Queue("bot", Exchange("bot"), routing_key="bot"),
)
CELERY_TASK_ROUTES = {
    "games.notification_deliver": {"queue": "notifications"},
    "games.notification_deliver_each": {"queue": "notifications"},
    "games.notification_sweep": {"queue": "notifications"},
    # A forgotten password's link (games.players.tasks): mail, sent by the mail worker.
    "games.password_reset_send": {"queue": "notifications"},
    "games.analysis_run": {"queue": "analysis"},
    "games.bot_turn": {"queue": "bot"},
    "games.bot_sweep": {"queue": "bot"},
}
# The beat schedule hook: apps add periodic tasks (the clock sweeper, ...) here by name.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Backstop for a lost send task: re-enqueue deliveries left pending (games.notifications.tasks).
    "notifications-requeue-stale": {"task": "games.notification_sweep", "schedule": 300.0},
}

# ---------------------------------------------------------------------------- analysis (issue 28)
# GNU Backgammon analyses every finished match in the background (games.analysis).
# ANALYSIS_PLIES: its lookahead, 2 (gnubg's default, "world class") or 0 (a quick pass).
ANALYSIS_PLIES = env.int("ANALYSIS_PLIES", default=2)
# Whether a player's PR is shown to everyone (True) or to that player (and staff) only.
ANALYSIS_PR_PUBLIC = env.bool("ANALYSIS_PR_PUBLIC", default=True)
# A match counts in a player's PR averages when played to the end with at least this many
# of the player's decisions (unforced moves + close or actual cube decisions).
ANALYSIS_MIN_DECISIONS = 30
# The GNU Backgammon program the analysis runs (Debian's package installs it here).
GNUBG_PROGRAM = env.str("GNUBG_PROGRAM", default="/usr/games/gnubg")
# One run's limits (games.analysis.driver). Wall clock: ANALYSIS_TIME_BASE seconds plus
# ANALYSIS_TIME_PER_MOVE per checker play, at most ANALYSIS_TIME_LIMIT (2-ply costs about
# 0.1 CPU-s a decision, so a 25-point match of 3,000 plays stays well inside). gnubg is
# killed at the limit; the run is tried once more, then the job fails. Memory: the
# address space of the gnubg process (it maps about 300 MB of weights and bear-off
# databases, using about 85 MB).
ANALYSIS_TIME_LIMIT = env.int("ANALYSIS_TIME_LIMIT", default=1200)
ANALYSIS_TIME_BASE = env.float("ANALYSIS_TIME_BASE", default=60.0)
ANALYSIS_TIME_PER_MOVE = env.float("ANALYSIS_TIME_PER_MOVE", default=1.0)
ANALYSIS_MEMORY_LIMIT_MB = env.int("ANALYSIS_MEMORY_LIMIT_MB", default=1024)
# Beat re-queues (or fails) jobs left running by a worker that died whole: those running
# longer than ANALYSIS_TIME_LIMIT + ANALYSIS_SWEEP_GRACE seconds whose run holds no lock.
ANALYSIS_SWEEP_GRACE = env.int("ANALYSIS_SWEEP_GRACE", default=180)
CELERY_BEAT_SCHEDULE["analysis-sweep"] = {"task": "games.analysis_sweep", "schedule": 60.0}
# The practice opponent (games.practice): its pause before each decision, in seconds (a
# person sees the roll before the move), and after how long the beat's sweep takes over
# a bot turn whose task was lost. PRACTICE_BOT_INPROCESS: no worker (the local run), a
# thread of the serving process plays the bot's turns instead of the queue "bot".
PRACTICE_BOT_PAUSE = env.float("PRACTICE_BOT_PAUSE", default=0.8)
PRACTICE_BOT_SWEEP_AFTER = 10.0
PRACTICE_BOT_INPROCESS = False
CELERY_BEAT_SCHEDULE["practice-bot-sweep"] = {"task": "games.bot_sweep", "schedule": 5.0}

# ---------------------------------------------------------------------------- live screens
# games.live: every page that shows something that changes follows it over a WebSocket.
# Each environment module sets CHANNEL_LAYERS: Redis wherever several processes serve
# (production, the tests), in-memory only in the one-command local run (one process).
# LIVE_PUBLISH=False stops publishing (bench/live.py measures moves with it on and off).
LIVE_PUBLISH = env.bool("LIVE_PUBLISH", default=True)


def redis_channel_layer(url: str) -> dict[str, object]:
    """channels_redis's pub/sub layer on ``url``: a group send is one ``PUBLISH`` (the
    core layer's Lua script and sorted sets cost about 6 times as much CPU in the web
    worker that publishes: bench/live.py), each process holds one connection, and a
    message is never stored -- which the live topics do not need, since a client that
    missed something gets it replayed from the database (games.live.consumer).

    Redis pub/sub channels ignore the database number: two sites (or two parallel test
    workers) on one Redis with different databases would hear each other's events for
    the same topic names (``match:1``). So the channels' prefix names the database."""
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(url)
    path = parts.path.strip("/")
    database = path if path.isdigit() else parse_qs(parts.query).get("db", ["0"])[0]
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": f"live{database}"},
        }
    }


# ---------------------------------------------------------------------------- clocks (R12)
# games.play.clock / games.play.alarms: each clocked game's next alarm gets a Celery ETA
# task when it is near; beat sweeps overdue alarms every 2 s (games.clocks.sweep) as the
# backstop for a lost or late task.
# Celery's Django fix-up closes the worker's database connection around every task unless
# told to reuse it (CONN_MAX_AGE does not apply there): a new PostgreSQL backend per clock
# flag tripled its cost (bench/clocks.py: 55 -> 132 flags/s at 10,000 clocks).
CELERY_DB_REUSE_MAX = 1000
CELERY_BEAT_SCHEDULE["clock-sweep"] = {"task": "games.sweep_clock_alarms", "schedule": 2.0}
# Online chouette (chouette.online.services): cube decisions' time windows and the move
# clocks of box and captain, swept the same way.
CELERY_BEAT_SCHEDULE["chouette-online-sweep"] = {
    "task": "chouette.sweep_online_alarms",
    "schedule": 2.0,
}
GAMES_CLOCK_TIMERS = True  # False: no ETA tasks, the sweeper alone (the local run)
GAMES_INPROCESS_SWEEPER = False  # True: runserver sweeps in a thread (no worker, no beat)
# Which results are rated (issue 8), by source: casual online matches, tournament matches
# (each event can opt out too: tournaments.Event.rated) and club matches typed in. Decided
# when a result is recorded; money sessions and chouettes are never rated.
RATING_SOURCES = {"online": True, "tournament": True, "club": True}
# The leaderboard lists players with at least this much experience (the sum of the
# lengths of their rated matches) unless its visitor asks for another minimum: a newcomer
# with two lucky wins is not the club's number one.
RATING_LEADERBOARD_MIN_EXPERIENCE = env.int("RATING_LEADERBOARD_MIN_EXPERIENCE", default=25)

# ---------------------------------------------------------------------------- notifications
# Mail: each environment chooses its EMAIL_BACKEND (console locally, locmem in tests,
# SMTP from the environment in production).
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="backgammon@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_TIMEOUT = 10  # seconds; a send task must not hang on a dead SMTP server
# The site's address for links in emails and webhook posts (e.g. https://club.example.org);
# empty: links are paths only.
SITE_URL = env.str("SITE_URL", default="")
# Seconds a webhook may take to answer before the attempt counts as failed (and retried).
NOTIFICATION_WEBHOOK_TIMEOUT = env.float("NOTIFICATION_WEBHOOK_TIMEOUT", default=5.0)
# "Time running low": the reserve (ms) under which the clock tells the player to act.
NOTIFICATION_TIME_LOW_MS = env.int("NOTIFICATION_TIME_LOW_MS", default=30_000)

# ---------------------------------------------------------------------------- API
REST_FRAMEWORK = {
    # drf-spectacular's, with the refusals each view implies (games/api/schema.py).
    "DEFAULT_SCHEMA_CLASS": "games.api.schema.ClubAutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    # Tokens for API clients, sessions for the pages (and the docs page). Token first:
    # an anonymous request then gets 401 with `WWW-Authenticate: Token`, not a bare 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON nested too deep for the parser is a 400 parse_error, not a RecursionError.
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # ?limit= and ?offset=: at most MAX_PAGE_SIZE (200) rows a page, whatever is asked.
    "DEFAULT_PAGINATION_CLASS": "games.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    # Only scoped throttles, per client address, before any password is hashed: the
    # token endpoint's (429 {"code": "throttled"} + Retry-After) and the login page's
    # (config.security.LoginView), counted in the Redis cache.
    "DEFAULT_THROTTLE_RATES": {
        "auth_token": env.str("API_TOKEN_THROTTLE_RATE", default="20/minute"),
        "login": env.str("LOGIN_THROTTLE_RATE", default="20/minute"),
        # Asking for a password reset link (config.passwords), per client address and,
        # apart, per e-mail address typed: each ask may send a mail.
        "password_reset": env.str("PASSWORD_RESET_THROTTLE_RATE", default="5/hour"),
        # An event's check-in code typed (tournaments.throttles), per user.
        "check_in": env.str("CHECK_IN_THROTTLE_RATE", default="10/minute"),
        # A chouette session's join code typed or scanned (chouette.throttles), per
        # user or, without a login, per client address.
        "chouette_join": env.str("CHOUETTE_JOIN_THROTTLE_RATE", default="10/minute"),
        # Asking for a match's analysis (games.analysis.api, the match page), per user:
        # each is seconds of gnubg's CPU time.
        "analysis_request": env.str("ANALYSIS_REQUEST_THROTTLE_RATE", default="10/minute"),
        # Sign-up posts and confirmation resends (games.players.signup), page and API
        # together, per client address: each makes a login and sends an e-mail.
        "signup": env.str("SIGNUP_THROTTLE_RATE", default="10/hour"),
    },
    # X-Forwarded-For entries the proxies in front add; 0: none, the header is ignored
    # (None would make DRF trust whatever a client sends). Our throttles read the address
    # through games.api.throttles.client_ip, which counts the same way.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Backgammon club server API",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Swagger UI's deep links put a link inside each operation's button (axe-core:
    # nested-interactive, WCAG 4.1.2); without them the path is plain text in the button.
    # Its syntax highlighting colours examples below AA contrast (#d36363 on #333): off,
    # the examples are plain text (static/css/api-docs.css).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "syntaxHighlight": {"activated": False}},
    # Several models have a "status": name each set of choices after its model.
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournaments.models.Event.Status",
        "FlightStatusEnum": "tournaments.models.Flight.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "TournamentMatchStatusEnum": "tournaments.models.TournamentMatch.Status",
        "MatchStatusEnum": "games.models.Match.Status",
        # The home board's side: the settings' board_orientation and a game's home.
        "BoardOrientationEnum": "games.models.BoardOrientation",
        "MatchInvitationStatusEnum": "games.models.MatchInvitation.Status",
        # The practice opponent's level: a match's (labelled) and the one asked for.
        "BotLevelEnum": "games.models.BOT_LEVELS",
        # A chouette game's winner (box or team), apart from a tournament result's side.
        "ChouetteWinnerEnum": "chouette.rules.settlement.WINNERS",
        # Online chouette (chouette.api.online): a member's cube, its decisions, answers.
        "ChouetteOnlineFateEnum": "chouette.online.cubes.CUBE_FATES",
        "ChouetteDecisionEnum": "chouette.online.cubes.PENDING_KINDS",
        "ChouetteAnswerEnum": "chouette.online.cubes.ANSWERS",
        "ChouetteOnlineRoleEnum": "chouette.api.online.MEMBER_ROLES",
        "ChouetteResultKindEnum": "chouette.rules.settlement.RESULT_KINDS",
        "ChouetteFateEnum": "chouette.rules.settlement.FATES",
        "ChouetteSeatRoleEnum": "chouette.api.serializers.SEAT_ROLES",
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "home"

CLUB_NAME = env.str("CLUB_NAME", default="Backgammon Kör")

# ---------------------------------------------------------------------------- sign-up (issue 30)
# Whether people may sign up is the club's setting (games.models.ClubSettings, the admin).
# A sign-up not confirmed within SIGNUP_CONFIRM_HOURS (the link's life) is deleted with its
# login by beat's sweep; a confirmation is resent at most once every SIGNUP_RESEND_SECONDS.
SIGNUP_CONFIRM_HOURS = env.int("SIGNUP_CONFIRM_HOURS", default=48)
SIGNUP_RESEND_SECONDS = env.int("SIGNUP_RESEND_SECONDS", default=60)
CELERY_BEAT_SCHEDULE["signup-sweep"] = {"task": "games.signup_sweep", "schedule": 3600.0}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
