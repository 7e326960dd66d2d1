"""The one-command local run: SQLite, no Redis needed, debug on.

Not for production. Tasks run eagerly in the web process when REDIS_URL is empty, and
the cache is in-process, so a fresh machine with only Python can serve the demo club.
"""

import sys
from pathlib import Path

from .base import *
from .base import (
    BASE_DIR,
    DATABASE_URL_DEFAULT,
    GNUBG_PROGRAM,
    REDIS_URL,
    database_from_env,
    env,
    redis_channel_layer,
)

DEBUG = True
SECRET_KEY = env.str("SECRET_KEY", default="local-development-only-not-secret")
# This machine, and the names or addresses in ALLOWED_HOSTS (comma-separated) for a phone
# on the same network: `ADDRESS=0.0.0.0:8000 ALLOWED_HOSTS=192.168.1.20 ./dev run`.
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", *env.list("ALLOWED_HOSTS", default=[])]

DATABASES = {"default": database_from_env(DATABASE_URL_DEFAULT)}

# `./dev run` gives demo players logins (manage.py demo_logins) whose passwords, made on
# this machine, are kept here, next to db.sqlite3 (git-ignored, mode 0600).
DEMO_LOGINS_FILE = BASE_DIR / ".demo-logins.json"

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
    CHANNEL_LAYERS = redis_channel_layer(REDIS_URL)
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # One process serves everything here (daphne's runserver), so its memory will do.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Without Redis there is no worker and no beat: runserver's own thread sweeps the clocks'
# alarms every second (games.clocks.sweep.start_inprocess_sweeper), and reads check them too.
GAMES_CLOCK_TIMERS = bool(REDIS_URL)
GAMES_INPROCESS_SWEEPER = not REDIS_URL
# ... and a thread of it plays the practice opponent's turns (games.practice.turns).
PRACTICE_BOT_INPROCESS = not REDIS_URL

# GNU Backgammon's analysis (games.analysis) runs Debian's gnubg where it is installed
# (`./dev services`); on a machine with only Python, the PyPI build that the practice
# opponent uses (a main dependency) runs the same job script, so a fresh machine's
# matches are analysed too (its figures differ from gnubg 1.07's by a few per cent:
# docs/architecture.md, "Analysis").
if not env.str("GNUBG_PROGRAM", default="") and not Path(GNUBG_PROGRAM).exists():
    GNUBG_PROGRAM = sys.executable

# Emails are printed on the console of the web (or worker) process.
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# runserver serves static files itself; no manifest needed.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# No collected static files here: WhiteNoise serves them from the app finders instead.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True

# django-axes says its version at every start of every command; in the local run that
# line would push the printed demo logins out of sight.
AXES_VERBOSE = False
