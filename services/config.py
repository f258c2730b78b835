"""Settings from the environment (and the CLI), in one place: each declared once (``setting``: its type, default,
environment variable and meaning), read by one generic ``Settings.from_env``."""

from __future__ import annotations

import os
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import Field, dataclass, field, fields, is_dataclass
from typing import Any

# Who may read ``GET /metrics`` by default: loopback and the private ranges (a Prometheus beside the site).
METRICS_ALLOW = ("127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")

DEFAULT = object()  # what a parser answers for a value that means "the default" (an empty BURROW_MAIL_FROM)


def setting(default: Any, env: str | None, meaning: str, parse: Callable[[str], Any] | None = None) -> Any:
    """One setting: its default, the environment variable that sets it (None: none does), what it means in one
    line, and the parser of the variable's text when the field's type is not enough (``PARSERS``)."""
    return field(default=default, metadata={"env": env, "meaning": meaning, "parse": parse})


def networks(text: str) -> tuple[str, ...]:
    """A list of addresses or CIDRs (``10.0.0.0/8, 192.0.2.7``), each checked; ``ValueError`` names a bad one."""
    import ipaddress

    out = []
    for item in (part.strip() for part in text.split(",")):
        if item:
            try:
                out.append(str(ipaddress.ip_network(item, strict=False)))
            except ValueError:
                raise ValueError(f"{item[:60]!r} is not an address or a network") from None
    return tuple(out)


def names(text: str) -> tuple[str, ...]:
    """A comma-separated list, each item stripped, the empty ones left out."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


def _metrics_networks(text: str) -> tuple[str, ...] | object:
    return networks(text) if text else DEFAULT


def _host_names(text: str) -> tuple[str, ...] | object:
    return names(text) or DEFAULT


def _lower_names(text: str) -> tuple[str, ...]:
    return tuple(name.lower() for name in names(text))


def _text_or_default(text: str) -> str | object:
    return text or DEFAULT


def _yes(text: str) -> bool:
    """On only for ``1``, ``true`` or ``yes`` (any case), as ``BURROW_FAST_PATH`` always was."""
    return text.lower() in ("1", "true", "yes")


def _switch(text: str) -> bool:
    """On unless ``0``, ``false``, ``no`` or ``off`` (any case, spaces around ignored)."""
    return text.strip().lower() not in ("0", "false", "no", "off")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text[:60]!r} is not a whole number") from None


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{text[:60]!r} is not a number") from None


def _limit(text: str) -> int | None | object:
    """A whole number, 0 for no limit (None); empty: the default."""
    return (_whole(text) or None) if text else DEFAULT


# The parser of each declared type, for a setting that names none.
PARSERS: dict[Any, Callable[[str], Any]] = {
    int: _whole,
    float: _number,
    bool: _switch,
    str: lambda text: text,
    str | None: lambda text: text or None,
    int | None: _limit,
    tuple[str, ...]: names,
}


@dataclass(frozen=True)
class Limits:
    """What one request and one client may do (``Settings.limits``)."""

    body_bytes: int = setting(64 * 1024, None,
                              "largest request body, bytes (413 beyond)")
    name_length: int = setting(40, None,
                               "longest player name, characters")
    players: int = setting(8, None,
                           "most players in a game")
    open_games_per_client: int | None = setting(50, "BURROW_OPEN_GAMES",
                                                "unfinished games a client may hold (429 beyond); 0: no limit")
    games_per_minute_per_client: int | None = setting(60, "BURROW_CREATE_RATE",
                                                      "games a client may create a minute (429 beyond); 0: no "
                                                      "limit")
    # Against throwaway accounts (services/accounts/).
    accounts_per_hour_per_client: int | None = setting(20, "BURROW_SIGNUP_RATE",
                                                       "accounts a client address may make an hour; 0: no limit")


@dataclass(frozen=True)
class Settings:
    """How this process reaches Redis, how the store is laid out, and the site's limits: each setting declared
    once (``setting``), read from the environment by ``from_env``, listed in docs/operations.md ("Settings")."""

    redis_url: str | None = setting(None, "REDIS_URL",
                                    "the store's Redis; unset: the embedded, in-process fakeredis")
    rq_url: str | None = setting(None, "RQ_URL",
                                 "the RQ queues' Redis; unset: the store's")
    prefix: str = setting("burrow", "BURROW_PREFIX",
                          "key prefix")
    partitions: int = setting(1, "BURROW_PARTITIONS",
                              "event-store partitions (hash slots {p0}…{pN-1}; more than 1 for Redis Cluster)")
    data_dir: str = setting("burrow-data", "BURROW_DATA",
                            "the embedded mode's journal directory")
    ai_time: float = setting(1.0, "BURROW_AI_TIME",
                             "seconds per AI decision (hard: twice that)")
    analysis_time: float = setting(0.25, "BURROW_ANALYSIS_TIME",
                                   "post-game analysis: seconds of the hard engine per position")
    queue_name: str = setting("burrow", "BURROW_QUEUES",
                              "the RQ queues' prefix (queues burrow:project, :ai, :analysis, :push, :mail)")
    ai_per_client: int = setting(1, "BURROW_AI_PER_CLIENT",
                                 "AI turns of one client queued or running at once, the rest wait; 0: no cap")
    analysis_jobs_per_client: int = setting(1, "BURROW_ANALYSIS_JOBS_PER_CLIENT",
                                            "analysis jobs of one client queued or running at once, the rest wait")
    analyses_per_client: int = setting(5, "BURROW_ANALYSES_PER_CLIENT",
                                       "analyses one client asked for, not done yet (429 beyond); 0: no cap")
    analyses_waiting: int = setting(500, "BURROW_ANALYSES_WAITING",
                                    "analyses of every client asked for, not done yet (429 beyond); 0: no cap")
    claim_idle_ms: int = setting(30_000, "BURROW_CLAIM_IDLE_MS",
                                 "the dispatcher takes back log entries left unacknowledged this long")
    dead_letter_after: int = setting(5, "BURROW_DEAD_LETTER_AFTER",
                                     "failures of a log entry before the dispatcher dead-letters it")
    retry_ms: int = setting(1000, "BURROW_RETRY_MS",
                            "the dispatcher's first wait before retrying a failed entry (doubling up to 60 s)")
    trusted_proxies: int = setting(0, "BURROW_TRUSTED_PROXIES",
                                   "reverse proxies in front whose `X-Forwarded-For` is trusted; 0: none")
    site_url: str | None = setting(None, "BURROW_PUBLIC_URL",
                                   "the site's public URL: its host allowed, passkeys' party, mailed links' base")
    allowed_hosts: tuple[str, ...] = setting(("localhost", "127.0.0.1", "::1"), "BURROW_ALLOWED_HOSTS",
                                             "the `Host` names served besides the public URL's, comma-separated "
                                             "(`*`: any; others 400 `bad_host`)", _host_names)
    head_seconds: float = setting(10.0, "BURROW_HEAD_SECONDS",
                                  "a connection's request head must arrive within this (the keep-alive)")
    body_seconds: float = setting(10.0, "BURROW_BODY_SECONDS",
                                  "a request's body must arrive within this (408 after)")
    streams_per_client: int = setting(20, "BURROW_STREAMS_PER_CLIENT",
                                      "open live streams per client, over every web process (429 beyond); 0: no "
                                      "cap")
    old_reads_per_client: int = setting(2, "BURROW_OLD_READS_PER_CLIENT",
                                        "reads of a game at an old version (`?version=N`) under way at once per "
                                        "client, over every web process (429 beyond); 0: no cap")
    # The command path pokes the projection workers itself (one pipelined round trip: the game joins the games
    # waiting); the dispatcher, reading the log, stays the safety net. Under load it cuts the projection lag from
    # about 40 ms to 10 ms at the median (bench/projection_lag.py, docs/benchmarks.md).
    fast_path: bool = setting(True, "BURROW_FAST_PATH",
                              "the command path pokes the projection workers itself (on for 1, true or yes; "
                              "else only the dispatcher does)", _yes)
    # Replicas that must confirm an append before a command is acknowledged (WAIT); 0: Redis' asynchronous
    # replication, a master failing right after acknowledging may lose the command (docs/scaling.md).
    ack_replicas: int = setting(0, "BURROW_ACK_REPLICAS",
                                "replicas that must confirm an append (WAIT) before its command is acknowledged")
    ack_timeout_ms: int = setting(1000, "BURROW_ACK_TIMEOUT_MS",
                                  "how long an append waits for them; then 503, and the client sends it again")
    # Operations (docs/operations.md).
    metrics: bool = setting(True, "BURROW_METRICS",
                            "`GET /metrics` served (off for 0, false, no or off)")
    metrics_allow: tuple[str, ...] = setting(METRICS_ALLOW, "BURROW_METRICS_ALLOW",
                                             "who may read `GET /metrics`: addresses or CIDRs, comma-separated",
                                             _metrics_networks)
    # A Redis that does not answer a command within this many seconds is taken for unreachable: the command
    # answers 503 ``store_unavailable`` (docs/guarantees.md, "Faults beyond a kill").
    redis_timeout: float = setting(2.0, "BURROW_REDIS_TIMEOUT",
                                   "seconds before a Redis that has not answered is taken for unreachable (503)")
    # Away from the site (services/away/).
    smtp_url: str | None = setting(None, "BURROW_SMTP_URL",
                                   "mail through this SMTP server; unset: no mail")
    mail_from: str = setting("Burrow <burrow@localhost>", "BURROW_MAIL_FROM",
                             "the mails' sender (and the VAPID sub)", _text_or_default)
    digest_seconds: int = setting(3600, "BURROW_DIGEST_SECONDS",
                                  "at most one \"your turn\" mail per game this often")
    push_allow_hosts: tuple[str, ...] = setting((), "BURROW_PUSH_ALLOW_HOSTS",
                                                "push endpoints on these hosts (comma-separated) may be plain "
                                                "http on any address",
                                                _lower_names)
    limits: Limits = field(default_factory=Limits)

    @classmethod
    def from_env(cls, **overrides) -> Settings:
        """The settings the environment gives (each declared variable parsed by its field's type or its own
        parser; an unset variable leaves the default); explicit ``overrides`` (not None) win. ``ValueError``
        names a variable whose value is not one its setting takes."""
        given = {name: value for name, value in overrides.items() if value is not None}
        return _read(cls, os.environ, given)

    @classmethod
    def one(cls, name: str) -> Any:
        """The setting ``name`` as the environment gives it, the others unread (``metrics``, before a process
        makes its first metric)."""
        value = _value(cls.__dataclass_fields__[name], typing.get_type_hints(cls)[name], os.environ)
        return cls.__dataclass_fields__[name].default if value is DEFAULT else value

    @classmethod
    def from_plain(cls, values: dict) -> Settings:
        """Settings from ``dataclasses.asdict``'s form of them (JSON's lists back to tuples, ``limits`` back to
        ``Limits``)."""
        return _plain(cls, values)


def declared(kind: type = Settings) -> list[tuple[str, Field]]:
    """Every setting of ``kind`` and its dotted name (``limits.players``: ``Limits``' within ``Settings``)."""
    out = []
    hints = typing.get_type_hints(kind)
    for f in fields(kind):
        if is_dataclass(hints[f.name]):
            out.extend((f"{f.name}.{name}", inner) for name, inner in declared(hints[f.name]))
        else:
            out.append((f.name, f))
    return out


def _read(kind: type, env: Mapping[str, str], given: dict) -> Any:
    hints = typing.get_type_hints(kind)
    values = {}
    for f in fields(kind):
        if f.name in given:
            values[f.name] = given[f.name]
        elif is_dataclass(hints[f.name]):
            values[f.name] = _read(hints[f.name], env, {})
        elif (value := _value(f, hints[f.name], env)) is not DEFAULT:
            values[f.name] = value
    return kind(**values)


def _value(f: Field, kind: Any, env: Mapping[str, str]) -> Any:
    """The value ``env`` gives the setting ``f`` of type ``kind``, or ``DEFAULT``."""
    variable = f.metadata.get("env")
    if variable is None or variable not in env:
        return DEFAULT
    parse = f.metadata["parse"] or PARSERS[kind]
    try:
        return parse(env[variable])
    except ValueError as exc:
        raise ValueError(f"{variable}: {exc}") from None


def _plain(kind: type, values: dict) -> Any:
    hints = typing.get_type_hints(kind)
    out = {}
    for name, value in values.items():
        if is_dataclass(hints[name]):
            value = _plain(hints[name], value)
        elif isinstance(value, list):
            value = tuple(value)
        out[name] = value
    return kind(**out)


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
