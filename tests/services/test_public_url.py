"""``public_url``: the Redis URL shown by ``/api/health`` and the start-up lines never carries a secret."""

import pytest

from services.config import public_url

SECRET = "s3cr3tPW"


@pytest.mark.parametrize(("url", "shown"), [
    (None, "embedded"),
    ("redis://localhost:6379/0", "redis://localhost:6379/0"),
    (f"redis://:{SECRET}@host:6379/0", "redis://***@host:6379/0"),
    (f"redis://user:{SECRET}@host", "redis://***@host"),
    (f"redis://{SECRET}@host/2", "redis://***@host/2"),
    (f"redis://host/0?password={SECRET}", "redis://host/0?password=***"),
    (f"redis://host/0?db=3&password={SECRET}&username=bob", "redis://host/0?db=3&password=***&username=***"),
    (f"rediss://default:{SECRET}@cache.example.com:6380/0?ssl_cert_reqs=none",
     "rediss://***@cache.example.com:6380/0?ssl_cert_reqs=none"),
    (f"redis+cluster://:{SECRET}@10.0.0.5:7000", "redis+cluster://***@10.0.0.5:7000"),
    (f"redis+cluster://node:7000/?password={SECRET}", "redis+cluster://node:7000/?password=***"),
    (f"redis://:{SECRET}@[::1]:6379/0", "redis://***@[::1]:6379/0"),
    (f"unix:///run/redis.sock?password={SECRET}&db=1", "unix:///run/redis.sock?password=***&db=1"),
    (f"unix://:{SECRET}@/run/redis.sock", "unix://***@/run/redis.sock"),
    # A password whose "#", "?" or "/" was not percent-encoded splits the URL before its "@".
    ("redis://:s3cr#3tPW@host/0", "redis://***"),
    ("redis://:s3cr?3tPW@host/0", "redis://***"),
    ("redis://:s3cr/3tPW@host/0", "redis://***"),
    ("redis://:12#34@host/0", "redis://***"),
    (f"redis://host/{SECRET}", "redis://host/***"),
    (f"redis://host/0#{SECRET}", "redis://host/0"),
])
def test_a_redis_url_is_shown_without_its_secrets(url, shown):
    assert public_url(url) == shown
    assert SECRET not in public_url(url) and "3tPW" not in public_url(url)


def test_health_shows_a_password_protected_redis_without_its_password(real_redis_url, prefix, tmp_path):
    """``/api/health`` of a runtime on a Redis that needs a password, given as ``?password=``."""
    import redis

    from burrow.runtime import build
    from services.config import Settings
    from tests.conftest import RedisProcess
    from web.app import create_app

    server = RedisProcess().start()
    try:
        redis.Redis(port=server.port).config_set("requirepass", SECRET)
        url = f"redis://127.0.0.1:{server.port}/0?password={SECRET}"
        rt = build(Settings(redis_url=url, prefix=prefix, data_dir=str(tmp_path / "data"),
                            queue_name=f"{prefix}-q"), journal=False)
        r = create_app(rt).test_client().get("/api/health")
        assert r.status_code == 200, r.json
        assert r.json["redis"] == f"redis://127.0.0.1:{server.port}/0?password=***"
        assert SECRET not in r.get_data(as_text=True)
    finally:
        server.stop()
