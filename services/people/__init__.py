"""Meeting people: notifications to accounts, chat, presence, quick pairing (seeks) and challenges. None of it is a
game event: a replay never shows it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import redis

from services.people.challenges import Challenges
from services.people.chat import Chat
from services.people.notifications import Notifications
from services.people.presence import Presence
from services.people.seeks import Seeks, Start
from services.people.waiting import Waiting
from services.store.streams import Keys


@dataclass
class People:
    """What meeting people needs, on the store's Redis. ``seeks`` and ``challenges`` start games: they exist once
    a game service is given (``with_games``)."""

    notifications: Notifications
    chat: Chat
    presence: Presence
    seeks: Seeks | None = None
    challenges: Challenges | None = None
    waiting: Waiting | None = None

    @classmethod
    def on(cls, client: redis.Redis, keys: Keys) -> People:
        notifications = Notifications(client, keys)
        return cls(notifications, Chat(client, keys, notifications), Presence(client, keys),
                   waiting=Waiting(client, keys))

    def journaled(self, journal) -> People:
        """Keep chat, open challenges and reports in ``journal`` (the embedded mode's: ``AccountJournal`` of
        ``<data>/people/``), after bringing back what it holds. (It is not compacted: another process of the
        same data, a ``burrow`` command, may be appending to it.)"""
        records = journal.records()
        self.chat.restore(records)
        if self.challenges is not None:
            self.challenges.restore(records)
            self.challenges.journal = journal
        self.chat.journal = journal
        return self

    def with_games(self, start: Start, username_of: Callable[[str], str | None]) -> People:
        """Seeks and challenges, starting games with ``start`` and finding players with ``username_of``."""
        client, keys = self.chat.redis, self.chat.keys
        self.seeks = Seeks(client, keys, self.notifications, self.presence, start)
        self.challenges = Challenges(client, keys, self.notifications, start, username_of)
        return self
