"""WSGI entry point for production servers: ``gunicorn --worker-class gthread burrow.wsgi:app``.

Configuration comes from the environment (``REDIS_URL`` is required here: the embedded store is per process).
"""

from burrow.runtime import build, install
from services.config import Settings
from web.app import create_app

_settings = Settings.from_env()
if _settings.redis_url is None:
    raise SystemExit("burrow.wsgi needs REDIS_URL (use 'burrow serve' for the embedded, single-process mode)")
runtime = build(_settings, journal=False)
install(runtime)
app = create_app(runtime)
