"""The Celery application.

Settings come from Django settings under the ``CELERY_`` prefix (JSON only, Redis
broker with a deliberate ``visibility_timeout``, late acks: see ``config/settings/base.py``).

Tasks are enqueued only after the surrounding transaction commits: with Django
installed, Celery's task class is ``celery.contrib.django.task.DjangoTask``, and our
services call ``task.delay_on_commit(...)``, never ``delay`` inside a transaction, so a
worker never sees an id whose row is not yet committed (or was rolled back).
"""

import gc
import os

from celery import Celery
from celery.signals import worker_init, worker_process_init

# The worker and beat processes are started without Django having configured anything;
# production sets DJANGO_SETTINGS_MODULE explicitly, and a developer's worker gets the
# local settings, as manage.py does.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

DEFAULT_GC_THRESHOLDS = gc.get_threshold()
MAIN_PROCESS_GC_THRESHOLDS = (50_000, 50, 100)

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


@worker_init.connect
def _fewer_full_collections(**_: object) -> None:
    """The worker's main process holds every clock timer (an ETA task) until it is due:
    10,000 of them are a few hundred thousand objects, and each full garbage collection
    walks them all, stopping the dispatch of due timers for 0.3-0.5 s (bench/clocks.py
    notes the pauses). Collect the young generation less often in that process, so
    objects that live for a timer's minute rarely reach the full collection at all; the
    pool processes start again from the defaults (``worker_process_init``)."""
    gc.set_threshold(*MAIN_PROCESS_GC_THRESHOLDS)


@worker_process_init.connect
def _default_collections_in_pool(**_: object) -> None:
    gc.set_threshold(*DEFAULT_GC_THRESHOLDS)
