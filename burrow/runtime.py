"""Wiring: the Redis connections, store, service, projector, job queue, accounts and analyses of one process, each
built once, here (the composition root: nothing else constructs them).

Production: ``REDIS_URL`` (and optionally ``RQ_URL``). Embedded: one in-process ``fakeredis.FakeServer`` shared
by Flask, the dispatcher thread and the RQ worker thread, with a journal on disk.
"""

from __future__ import annotations

from services.accounts.service import Accounts
from services.away.secrets import Secrets
from services.away.service import Away
from services.config import Settings
from services.context import Runtime, current, install
from services.games.commands import GameService
from services.games.seats import Seats
from services.games.states import States
from services.jobs.queues import BatchedPokes, RQJobs
from services.metrics import Metrics
from services.people import People
from services.people.person import Person
from services.reads.analysis import Analyses
from services.reads.limits import ExpensiveReads
from services.reads.projections import Projector
from services.reads.ratings import Ratings
from services.store.connection import CLUSTER_SCHEME, connect, queue_client, worker_client
from services.store.connection import embedded as embedded_client
from services.store.journal import AccountJournal, JournaledEventStore
from services.store.streams import EventStore, Keys
from services.tournaments.service import LIMITS as TOURNAMENT_LIMITS
from services.tournaments.service import Tournaments
from services.tournaments.store import TournamentStore

__all__ = ["CLUSTER_SCHEME", "Runtime", "build", "connect", "current", "from_env", "install"]


def build(settings: Settings, *, fake_server=None, journal: bool | None = None) -> Runtime:
    """A runtime for ``settings``; embedded (fakeredis) when ``settings.redis_url`` is None.

    ``journal`` (default: on when embedded) keeps the embedded store's events in ``settings.data_dir``.
    """
    keys = Keys(settings.prefix, settings.partitions)
    embedded = settings.redis_url is None
    if embedded:
        client = embedded_client(fake_server)
        rq_client = worker_redis = client
    else:
        client = connect(settings.redis_url, settings.redis_timeout)
        rq_client = queue_client(settings.rq_url, client, settings.redis_url, settings.redis_timeout)
        worker_redis = worker_client(settings.rq_url, settings.redis_url, settings.redis_timeout)
    loaded = 0
    if journal if journal is not None else embedded:
        store = JournaledEventStore(client, keys, settings.data_dir)
        loaded = store.load()
    else:
        store = EventStore(client, keys, settings.ack_replicas, settings.ack_timeout_ms)
    # An AI turn whose slot is held this long was lost with its worker: the longest turn is hard's 2 × ai_time.
    stale_ms = int(max(10.0, 10 * settings.ai_time) * 1000)
    jobs = RQJobs(rq_client, settings.queue_name, settings.ai_per_client, stale_ms=stale_ms)
    queue = jobs.queue("project")
    games = States(store)
    people = People.on(client, keys)
    accounts = _accounts(settings, store)
    service = GameService(games, BatchedPokes(jobs) if settings.fast_path else None, limits=settings.limits,
                          presence=people.presence, accounts=accounts)

    def start(game: str, options: dict, clock: dict | None, people: list[Person]) -> str:
        """A game of quick pairing or a challenge: each seat its person's, in this order; a guest's token kept
        under its session (``GET /api/me/games`` in that browser)."""
        created = service.create(game, [{"name": p.name} for p in people], options, clock=clock,
                                 accounts={i: p.account for i, p in enumerate(people) if p.account})
        seats = accounts.seats
        for seat in created["seats"]:
            if people[seat["seat"]].account is None:
                seats.add(people[seat["seat"]].key, created["id"], seat["seat"], seat["token"])
        return created["id"]

    def username_of(name: str) -> str | None:
        found = accounts.store.by_username(name)
        return found.username if found else None

    people.with_games(start, username_of)
    if isinstance(store, JournaledEventStore):  # chat, open challenges and reports survive a restart too
        people.journaled(AccountJournal(store.directory, "people"))
    ratings = Ratings(games)
    service.rating_of = ratings.rating_of
    journal_of_tournaments = None
    if isinstance(store, JournaledEventStore):
        journal_of_tournaments = AccountJournal(settings.data_dir, "tournaments")
    tournament_store = TournamentStore(client, keys, journal_of_tournaments, TOURNAMENT_LIMITS["open"],
                                       TOURNAMENT_LIMITS["open_per_creator"])
    if journal_of_tournaments is not None:
        tournament_store.restore(journal_of_tournaments)
    away = _away(settings, client, keys, accounts, games, jobs, people, embedded)
    people.notifications.away = away.queue_notices
    tournaments = Tournaments(tournament_store, service, jobs, people.notifications)
    analyses = Analyses(games, jobs, settings.analysis_time, jobs_per_client=settings.analysis_jobs_per_client,
                        per_client=settings.analyses_per_client, waiting=settings.analyses_waiting)
    return Runtime(settings, client, rq_client, store, games, Seats(store), service, Projector(games), queue, jobs,
                   ratings, accounts=accounts, analyses=analyses,
                   old_reads=ExpensiveReads(store, settings.old_reads_per_client), embedded=embedded,
                   loaded_games=loaded, people=people, metrics=Metrics(), tournaments=tournaments, away=away,
                   worker_redis=worker_redis)


def _accounts(settings: Settings, store: EventStore) -> Accounts:
    """The process's accounts over ``store``'s Redis and keys: journaled beside the games' when the store is (the
    embedded mode), sign-ups per address an hour as the settings say (None or 0: no limit)."""
    journal = AccountJournal(store.directory) if isinstance(store, JournaledEventStore) else None
    return Accounts(store.redis, store.keys, journal, settings.limits.accounts_per_hour_per_client)


def _away(settings: Settings, client, keys: Keys, accounts: Accounts, games: States, jobs: RQJobs, people: People,
          embedded: bool) -> Away:
    """Push, mail and password reset: the accounts', the games' and the site's languages wired in."""
    from domain import registry
    from web import i18n

    def game_of(gid: str) -> tuple[str, bool] | None:
        game = games.load(gid)
        clock = getattr(game.state, "clock", None)
        return game.meta["game"], clock is not None and clock.per_move is not None

    def title(name: str, lang: str) -> str:
        try:
            return i18n.words(registry.game_info(name).title, lang)
        except (KeyError, ImportError, AttributeError):
            return name

    def running_games(account) -> list[tuple[str, list[str | None]]]:
        """The account's games under way (its newest 200 seats): each id and its seats' accounts."""
        rows, _ = accounts.seats.page(account.id, 200, tokens=False)
        out = []
        for gid, found in games.load_many(list(dict.fromkeys(r["id"] for r in rows))).items():
            if not isinstance(found, Exception) and found[0].status == "playing":
                out.append((gid, list(found[0].accounts)))
        return out

    # The embedded Redis forgets everything at a restart: its secrets are files beside its journal.
    kept = Secrets(client, keys, settings.data_dir if embedded else None)
    away = Away(settings, client, keys, accounts, people.presence, kept, jobs.enqueue,
                lambda text, lang: i18n.say(text, lang), game_of, title)
    away.notifications, away.running_games = people.notifications, running_games
    return away


def from_env() -> Runtime:
    """A runtime from the environment, without a journal (a worker process nobody installed one in)."""
    return build(Settings.from_env(), journal=False)
