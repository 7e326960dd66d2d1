"""The Celery application.

Settings come from Django settings under the ``CELERY_`` prefix (JSON only, Redis
broker with a deliberate ``visibility_timeout``, late acks: see ``config/settings/base.py``).

Tasks are enqueued only after the surrounding transaction commits: with Django
installed, Celery's task class is ``celery.contrib.django.task.DjangoTask``, and our
services call ``task.delay_on_commit(...)``, never ``delay`` inside a transaction, so a
worker never sees an id whose row is not yet committed (or was rolled back).
"""

import os

from celery import Celery

# The worker and beat processes are started without Django having configured anything;
# production sets DJANGO_SETTINGS_MODULE explicitly, and a developer's worker gets the
# local settings, as manage.py does.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("backgammon_club")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.ping")
def ping(payload: str) -> dict[str, str]:
    """Echo ``payload`` with the answering worker's name: proves a worker consumes the
    broker and can send a result back (`celery -A config call config.ping --args='["x"]'`)."""
    return {"echo": payload, "worker": str(ping.request.hostname)}


@app.on_after_finalize.connect
def _load_beat_schedule(sender: Celery, **_: object) -> None:
    """Read the beat schedule hook (``CELERY_BEAT_SCHEDULE``) once the app is ready."""
    from django.conf import settings

    sender.conf.beat_schedule = dict(settings.CELERY_BEAT_SCHEDULE)
