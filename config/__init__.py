"""Project configuration: settings, URLs, the Celery app, the API error mapping."""

from .celery import app as celery_app

__all__ = ["celery_app"]
