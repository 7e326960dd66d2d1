"""Production settings for bench/capacity.py's stack, with one change: the channel layer's
prefix. Redis's pub/sub channels are shared by every database number, so with the
project's prefix ("live") the sockets of this benchmark would also get the pushes of
another run's ``match:<id>`` (bench/live.py, the tests) on the same Redis."""

from config.settings.base import redis_channel_layer
from config.settings.production import *  # noqa: F403
from config.settings.production import REDIS_URL

CHANNEL_LAYERS = redis_channel_layer(REDIS_URL)
CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = "bench-capacity"  # type: ignore[index]
