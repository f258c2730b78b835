"""Settings from the environment (and the CLI), in one place."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

# Who may read ``GET /metrics`` by default: loopback and the private ranges (a Prometheus beside the site).
METRICS_ALLOW = ("127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")


@dataclass(frozen=True)
class Settings:
    """How this process reaches Redis and how the store is laid out."""

    redis_url: str | None = None  # None: the embedded, in-process fakeredis
    rq_url: str | None = None  # RQ queues; defaults to redis_url
    prefix: str = "burrow"  # key prefix (tests use their own)
    partitions: int = 1  # event-store partitions (hash slots {p0}…{pN-1})
    data_dir: str = "burrow-data"  # the embedded mode's journal
    ai_time: float = 1.0  # default AI thinking budget, seconds
    analysis_time: float = 0.25  # post-game analysis: seconds of the hard engine per position
    queue_name: str = "burrow"  # RQ queues <queue_name>:project, :ai, :analysis (services/jobs/queues.py)
    ai_per_client: int = 1  # AI turns of one client queued or running at once; the rest wait their turn
    analysis_jobs_per_client: int = 1  # analysis jobs of one client queued or running at once; the rest wait
    analyses_per_client: int = 5  # analyses one client asked for and not done yet (429 beyond); 0: no cap
    analyses_waiting: int = 500  # analyses asked for and not done yet, of every client (429 beyond); 0: no cap
    claim_idle_ms: int = 30_000  # the dispatcher takes back log entries left unacknowledged this long
    dead_letter_after: int = 5  # failures of a log entry before the dispatcher dead-letters it
    retry_ms: int = 1000  # the dispatcher's first wait before retrying a failed entry (doubles each time)
    trusted_proxies: int = 0  # reverse proxies in front whose X-Forwarded-For is trusted (werkzeug ProxyFix)
    site_url: str | None = None  # the site's public URL (its host is allowed; passkeys' relying party)
    allowed_hosts: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")  # the Host names served ("*": any)
    head_seconds: float = 10.0  # a connection's request head must arrive within this (the server's keep-alive)
    body_seconds: float = 10.0  # a request's body must arrive within this (408 after)
    streams_per_client: int = 20  # open live streams (SSE) per client, over every web process; 0: no cap
    old_reads_per_client: int = 2  # reads of a game at an old version under way at once per client; 0: no cap
    # The command path pokes the projection workers itself (one pipelined round trip: the game joins the games
    # waiting); the dispatcher, reading the log, stays the safety net. Under load it cuts the projection lag from
    # about 40 ms to 10 ms at the median (bench/projection_lag.py, docs/benchmarks.md).
    fast_path: bool = True
    # Replicas that must confirm an append before a command is acknowledged (WAIT); 0: Redis' asynchronous
    # replication, a master failing right after acknowledging may lose the command (docs/scaling.md).
    ack_replicas: int = 0
    ack_timeout_ms: int = 1000  # how long an append waits for them; then 503, and the client sends it again
    # Operations (docs/operations.md). ``GET /metrics`` on or off, and who may read it (addresses or CIDRs).
    metrics: bool = True
    metrics_allow: tuple[str, ...] = METRICS_ALLOW
    # A Redis that does not answer a command within this many seconds is taken for unreachable: the command
    # answers 503 ``store_unavailable`` (docs/guarantees.md, "Faults beyond a kill").
    redis_timeout: float = 2.0
    # Away from the site (services/away/): mail through this SMTP server (None: no mail, the features say so), from
    # this address; at most one "your turn" mail per game per digest interval; push endpoints on these hosts may be
    # plain http on any address (tests: a local push receiver).
    smtp_url: str | None = None
    mail_from: str = "Burrow <burrow@localhost>"
    digest_seconds: int = 3600
    push_allow_hosts: tuple[str, ...] = ()
    limits: dict = field(default_factory=lambda: {
        "body_bytes": 64 * 1024,
        "name_length": 40,
        "players": 8,
        "open_games_per_client": 50,
        "games_per_minute_per_client": 60,
        "accounts_per_hour_per_client": 20,  # sign-ups from one address an hour (services/accounts/)
    })

    @classmethod
    def from_env(cls, **overrides) -> Settings:
        """Settings read from ``REDIS_URL``, ``RQ_URL``, ``BURROW_PREFIX``, ``BURROW_PARTITIONS``,
        ``BURROW_DATA``, ``BURROW_AI_TIME``, ``BURROW_CLAIM_IDLE_MS``, ``BURROW_FAST_PATH``, ``BURROW_QUEUES``,
        ``BURROW_ANALYSIS_TIME``, ``BURROW_AI_PER_CLIENT``, ``BURROW_ANALYSIS_JOBS_PER_CLIENT``,
        ``BURROW_ANALYSES_PER_CLIENT``, ``BURROW_ANALYSES_WAITING``, ``BURROW_DEAD_LETTER_AFTER``,
        ``BURROW_RETRY_MS``, ``BURROW_TRUSTED_PROXIES``, ``BURROW_PUBLIC_URL``, ``BURROW_ALLOWED_HOSTS``,
        ``BURROW_HEAD_SECONDS``, ``BURROW_BODY_SECONDS``, ``BURROW_STREAMS_PER_CLIENT``,
        ``BURROW_OLD_READS_PER_CLIENT``, ``BURROW_CREATE_RATE``, ``BURROW_SIGNUP_RATE``,
        ``BURROW_OPEN_GAMES``, ``BURROW_ACK_REPLICAS``, ``BURROW_ACK_TIMEOUT_MS``, ``BURROW_METRICS``,
        ``BURROW_METRICS_ALLOW``, ``BURROW_REDIS_TIMEOUT``, ``BURROW_SMTP_URL``, ``BURROW_MAIL_FROM``,
        ``BURROW_DIGEST_SECONDS``, ``BURROW_PUSH_ALLOW_HOSTS``; explicit ``overrides``
        (not None) win."""
        env = os.environ
        values = {
            "redis_url": env.get("REDIS_URL") or None,
            "rq_url": env.get("RQ_URL") or None,
            "prefix": env.get("BURROW_PREFIX", "burrow"),
            "partitions": int(env.get("BURROW_PARTITIONS", "1")),
            "data_dir": env.get("BURROW_DATA", "burrow-data"),
            "ai_time": float(env.get("BURROW_AI_TIME", "1.0")),
            "analysis_time": float(env.get("BURROW_ANALYSIS_TIME", "0.25")),
            "claim_idle_ms": int(env.get("BURROW_CLAIM_IDLE_MS", "30000")),
            "dead_letter_after": int(env.get("BURROW_DEAD_LETTER_AFTER", "5")),
            "retry_ms": int(env.get("BURROW_RETRY_MS", "1000")),
            "trusted_proxies": int(env.get("BURROW_TRUSTED_PROXIES", "0")),
            "site_url": env.get("BURROW_PUBLIC_URL") or None,
            "head_seconds": float(env.get("BURROW_HEAD_SECONDS", "10")),
            "body_seconds": float(env.get("BURROW_BODY_SECONDS", "10")),
            "streams_per_client": int(env.get("BURROW_STREAMS_PER_CLIENT", "20")),
            "old_reads_per_client": int(env.get("BURROW_OLD_READS_PER_CLIENT", "2")),
            "fast_path": env.get("BURROW_FAST_PATH", "1").lower() in ("1", "true", "yes"),
            "queue_name": env.get("BURROW_QUEUES", "burrow"),
            "ai_per_client": int(env.get("BURROW_AI_PER_CLIENT", "1")),
            "analysis_jobs_per_client": int(env.get("BURROW_ANALYSIS_JOBS_PER_CLIENT", "1")),
            "analyses_per_client": int(env.get("BURROW_ANALYSES_PER_CLIENT", "5")),
            "analyses_waiting": int(env.get("BURROW_ANALYSES_WAITING", "500")),
            "ack_replicas": int(env.get("BURROW_ACK_REPLICAS", "0")),
            "ack_timeout_ms": int(env.get("BURROW_ACK_TIMEOUT_MS", "1000")),
            "metrics": env.get("BURROW_METRICS", "1").strip().lower() not in ("0", "false", "no", "off"),
            "redis_timeout": float(env.get("BURROW_REDIS_TIMEOUT", "2")),
            "smtp_url": env.get("BURROW_SMTP_URL") or None,
            "mail_from": env.get("BURROW_MAIL_FROM") or "Burrow <burrow@localhost>",
            "digest_seconds": int(env.get("BURROW_DIGEST_SECONDS", "3600")),
            "push_allow_hosts": tuple(h.strip().lower() for h in env.get("BURROW_PUSH_ALLOW_HOSTS", "").split(",")
                                      if h.strip()),
        }
        if env.get("BURROW_METRICS_ALLOW"):
            values["metrics_allow"] = networks(env["BURROW_METRICS_ALLOW"])
        if env.get("BURROW_ALLOWED_HOSTS"):
            values["allowed_hosts"] = tuple(h.strip() for h in env["BURROW_ALLOWED_HOSTS"].split(",") if h.strip())
        limits = dict(cls.__dataclass_fields__["limits"].default_factory())
        for name, variable in (("games_per_minute_per_client", "BURROW_CREATE_RATE"),
                               ("open_games_per_client", "BURROW_OPEN_GAMES"),
                               ("accounts_per_hour_per_client", "BURROW_SIGNUP_RATE")):
            if env.get(variable):
                limits[name] = int(env[variable]) or None  # 0: no limit
        values["limits"] = limits
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def networks(text: str) -> tuple[str, ...]:
    """A list of addresses or CIDRs (``10.0.0.0/8, 192.0.2.7``), each checked; ``ValueError`` names a bad one."""
    import ipaddress

    out = []
    for item in (part.strip() for part in text.split(",")):
        if item:
            try:
                out.append(str(ipaddress.ip_network(item, strict=False)))
            except ValueError:
                raise ValueError(f"BURROW_METRICS_ALLOW: {item[:60]!r} is not an address or a network") from None
    return tuple(out)


def allowed(address: str | None, allow: tuple[str, ...]) -> bool:
    """Whether ``address`` (a client's) is in one of the networks ``allow``."""
    import ipaddress

    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in ipaddress.ip_network(net) for net in allow)


# Query parameters of a Redis URL (redis-py's ``parse_url``) whose values are not secret; any other parameter is
# shown with its value hidden, and one whose name is not a plain word is left out (it may be a piece of a
# password that was not percent-encoded).
_PUBLIC_QUERY = {"db", "protocol", "socket_timeout", "socket_connect_timeout", "socket_keepalive",
                 "retry_on_timeout", "health_check_interval", "max_connections", "timeout", "decode_responses",
                 "ssl_cert_reqs", "ssl_check_hostname", "client_name"}


def public_url(url: str | None) -> str:
    """A Redis URL with nothing secret left in it, or ``"embedded"``: its user and password (``redis://:pw@h``,
    ``redis://user:pw@h``, ``redis://pw@h``) become ``***``, the values of query parameters that may be secret
    (``?password=``) ``***``, and a fragment or a path that is not a database number is dropped (an
    unencoded ``#``, ``?`` or ``/`` in a password splits the URL there)."""
    if not url:
        return "embedded"
    from urllib.parse import parse_qsl, urlencode, urlsplit

    parts = urlsplit(url)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    if not at and "@" in url.partition("://")[2].partition("?")[0]:
        # An unencoded "#", "?" or "/" in the user or password cut the URL before its "@": what looks like the
        # host may be a piece of the password.
        return f"{parts.scheme}://***"
    host_form = r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:\d+)?" if parts.scheme != "unix" else ""
    sentinel = parts.scheme == "redis+sentinel"  # host:port,host:port/<service>/<db>
    hosts_form = f"{host_form}(,{host_form})*" if sentinel else host_form
    if not re.fullmatch(hosts_form, hostport):
        hostport = "***"
    netloc = f"***@{hostport}" if at else hostport
    path = parts.path
    path_form = r"/[A-Za-z0-9._-]+(/\d*)?" if sentinel else r"/?\d*"
    if (parts.scheme != "unix" and not re.fullmatch(path_form, path)) or "@" in path:
        path = "/***"
    query = []
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if re.fullmatch(r"[A-Za-z_]+", name):
            query.append((name, value if name.lower() in _PUBLIC_QUERY else "***"))
    shown = f"{parts.scheme}://{netloc}{path}"
    return f"{shown}?{urlencode(query, safe='*')}" if query else shown
