"""The web front for an ASGI server of one's own (``hypercorn burrow.asgi:app``; ``burrow serve --web-only
--processes N`` runs ``burrow/web_process.py`` instead): the process builds its runtime from the environment
(``REDIS_URL`` is required: the embedded store lives in one process) and serves ``web/front.py`` over it, Flask
on ``BURROW_WEB_THREADS`` (default 32) threads."""

import os

from burrow import logs, observed
from burrow.runtime import build, install
from services.config import Settings
from web.app import create_app
from web.front import create_front

logs.setup()  # JSON lines, as every process burrow starts
observed.prepare()  # the directory ``burrow serve`` made (PROMETHEUS_MULTIPROC_DIR): every process's metrics
_settings = Settings.from_env()
if _settings.redis_url is None:
    raise SystemExit("burrow.asgi needs REDIS_URL (use 'burrow serve' for the embedded, single-process mode)")
runtime = build(_settings, journal=False)
install(runtime)
app = create_front(create_app(runtime), int(os.environ.get("BURROW_WEB_THREADS", "32")))
