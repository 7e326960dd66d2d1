"""Production settings with channels_redis's pub/sub layer instead of its core layer
(``python bench/live.py --layer pubsub``): one ``PUBLISH`` per group send instead of a
Lua script and two sorted-set reads."""

from config.settings.production import *  # noqa: F403
from config.settings.production import REDIS_URL

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": "live"},
    }
}
