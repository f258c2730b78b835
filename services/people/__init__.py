"""Meeting people: notifications to accounts, chat, presence, quick pairing (seeks) and challenges. None of it is a
game event: a replay never shows it."""

from __future__ import annotations

from dataclasses import dataclass

import redis

from services.people.chat import Chat
from services.people.notifications import Notifications
from services.people.presence import Presence
from services.store.streams import Keys


@dataclass
class People:
    """What meeting people needs, on the store's Redis."""

    notifications: Notifications
    chat: Chat
    presence: Presence

    @classmethod
    def on(cls, client: redis.Redis, keys: Keys) -> People:
        notifications = Notifications(client, keys)
        return cls(notifications, Chat(client, keys, notifications), Presence(client, keys))
