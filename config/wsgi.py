"""WSGI entry point (gunicorn ``config.wsgi``). DJANGO_SETTINGS_MODULE must be set."""

from django.core.wsgi import get_wsgi_application

application = get_wsgi_application()
