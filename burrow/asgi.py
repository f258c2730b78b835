"""ASGI entry point for production: ``uvicorn burrow.asgi:app --workers 2`` (``docker-compose.yml``).

The web app of ``burrow.wsgi`` (settings from the environment, ``REDIS_URL`` required) behind ``web/asgi.py``: live
streams on the event loop, the rest of the API on ``BURROW_WEB_THREADS`` (default 32) Flask threads per process.
"""

import os

from burrow.wsgi import app as flask_app
from web.asgi import create_asgi

app = create_asgi(flask_app, int(os.environ.get("BURROW_WEB_THREADS", "32")))
