"""ASGI entry point. DJANGO_SETTINGS_MODULE must be set."""

from django.core.asgi import get_asgi_application

application = get_asgi_application()
