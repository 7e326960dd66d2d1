"""gunicorn's settings for the pages and the API (backgammon-club-gunicorn.service).

Sync workers behind nginx (deploy/nginx/backgammon-club.conf), which reads each request
body to the end before it asks gunicorn: a worker never waits on a slow client.
README.md, "Production", says why sync workers and not an ASGI server for plain HTTP.
"""

import multiprocessing
import os

# Loopback only: nginx is the one client. The upstream in the nginx site names this port.
bind = "127.0.0.1:8000"
# 2 x cores + 1 (gunicorn's rule of thumb; bench/live.py measured it on 2 cores).
# WEB_CONCURRENCY in the environment file overrides it.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = "sync"
# A request still running after this many seconds has its worker killed and restarted
# (nginx's proxy_read_timeout is longer, so this is the limit that acts).
timeout = 30
graceful_timeout = 20
# Trust X-Forwarded-* only from nginx on this machine.
forwarded_allow_ips = "127.0.0.1"
# The workers' heartbeat files: in memory, not on a disk that may stall.
worker_tmp_dir = "/dev/shm"  # noqa: S108 (systemd gives the unit its own /dev)
# gunicorn 27's control socket would go to ~/.gunicorn, which the unit does not let it
# write (ProtectHome, ProtectSystem=strict); nothing here uses it.
control_socket_disable = True
# Errors to stderr (the journal); the access log is nginx's.
errorlog = "-"
accesslog = None
loglevel = "info"
