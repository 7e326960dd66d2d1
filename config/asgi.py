"""ASGI entry point: the pages and the API (Django) and the live WebSocket
(``/ws/live/``, games.live.consumer). DJANGO_SETTINGS_MODULE must be set.

Served by uvicorn in production (README) and by daphne's ``runserver`` in the
one-command local run. The first thing the server does through this application is
register its event loop with the publisher (games.live.publish.serve_loop), so that
everything published in this process is sent from the loop its sockets live in.
"""

import asyncio
from typing import Any

from django.core.asgi import get_asgi_application

django_application = get_asgi_application()  # sets Django up before the imports below

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from games.live.consumer import LiveConsumer  # noqa: E402
from games.live.publish import serve_loop  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter([path("ws/live/", LiveConsumer.as_asgi())]))
        ),
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    serve_loop(asyncio.get_running_loop())
    if scope["type"] == "lifespan":
        # uvicorn asks; Django has no start-up or shutdown work to do.
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await router(scope, receive, send)
