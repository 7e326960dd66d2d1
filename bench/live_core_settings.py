"""Production settings with channels_redis's core layer instead of the pub/sub layer the
project uses (``python bench/live.py --layer core``): a Lua script and sorted sets per
group send, messages kept until read, and no direct publish from the web workers (the
publisher's event-loop thread sends instead; games.live.publish)."""

from config.settings.production import *  # noqa: F403
from config.settings.production import REDIS_URL

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": "live"},
    }
}
