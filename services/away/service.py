"""Away from the site's use cases (docs/api.md "Away from the site"): push subscriptions, the mail address and its
verification, notification preferences, password reset, unsubscribing, the vacation switch — and, in the
``push`` and ``mail`` RQ workers, what an account's notifications become away from the site.

Requests only decide and queue: nothing here connects to a push service or an SMTP server in a request. The
notifications that every page already gets (``services/people/notifications.py``) are handed here in batches
(``queue_notices``: one ``deliver`` job on the ``push`` queue); the job decides per account:

* push, to every subscribed device, for ``your_turn`` and ``game_over`` of a correspondence game at once and of
  any other game only when no page of the account is open (``presence``: a page or stream seen in the last 30 s),
  and for every ``challenge``;
* mail, to a verified address: a ``your_turn`` of a correspondence game when no page of the account is open, at
  most one per game per ``BURROW_DIGEST_SECONDS`` (the digest), and every ``challenge``; a ``mail`` job each;

each only if the account's preferences let that kind through that channel. Mails are bounded per account and per
address (``MAILS_PER_HOUR``, and ``LINK_MAILS_PER_HOUR`` for verification and reset mails); beyond, they are
dropped (and logged), never queued.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import logging
import re
import secrets
import time
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import formataddr, make_msgid, parseaddr
from urllib.parse import quote

import redis

from domain.text import Text
from services import errors
from services.accounts import events as ev
from services.accounts import passwords
from services.accounts.store import Account
from services.away import endpoints, push, texts
from services.away.links import Links
from services.away.mail import Smtp
from services.away.secrets import Secrets
from services.config import Settings
from services.people.presence import ONLINE_MS
from services.scripts import lua
from services.store.streams import Keys

log = logging.getLogger(__name__)

MAX_SUBSCRIPTIONS = 10  # push subscriptions per account; a new one beyond drops the oldest
MAX_ADDRESS = 254  # characters of a mail address
MAILS_PER_HOUR = 20  # mails to one account, and to one address, in any hour
LINK_MAILS_PER_HOUR = 5  # verification and reset mails to one account, and to one address, in any hour
CHANGES_PER_HOUR = 30  # subscriptions, preferences and vacation changed by one account in any hour (events kept)
PUSH_KINDS = ("your_turn", "challenge", "game_over")
MAIL_KINDS = ("your_turn", "challenge")
AWAY_KINDS = frozenset(PUSH_KINDS)  # the notifications worth a look away from the site
RETRIES = (2.0, 8.0, 30.0)  # seconds between the tries of a push or a mail that failed (then it is given up)
RETRY_BUDGET = 120.0  # seconds one deliver job may spend waiting to try again, over all its pushes
JOB_SECONDS = 600  # RQ's timeout of a deliver or mail job (well above the waits)
ADDRESS = re.compile(r"[^@\s\"<>(),;:\\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?"
                     r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+\Z")

Say = Callable[[Text, str], str]


class MailUnavailable(errors.Unavailable):
    code = "mail_unavailable"


class BadToken(errors.BadRequest):
    code = "bad_token"


class TooManyMails(errors.TooMany):
    code = "too_many_mails"


class TooManyChanges(errors.TooMany):
    code = "too_many_changes"


def _b64(value: object, field: str, length: int) -> str:
    """A base64url key of ``length`` bytes (a subscription's ``p256dh``, ``auth``), or 422 naming it."""
    if isinstance(value, str) and len(value) <= 200:
        try:
            raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) == length and (length != 65 or raw[0] == 4):
            return value
    raise errors.Unprocessable(Text("{field}: not a key of this subscription", field=field), field=field)


def _hashed(address: str) -> str:
    return hashlib.sha256(address.lower().encode()).hexdigest()[:32]


class Away:
    """The use cases over ``accounts`` (``services.accounts.service.Accounts``), ``presence``, the kept
    ``secrets``; ``enqueue(kind, job, *args)`` queues a job (``RQJobs.enqueue``), ``say(text, lang)`` says a text
    in a language, ``game_of(gid)`` gives a game's ``(name, correspondence)`` or None, ``title(name, lang)`` a
    game's title in a language."""

    def __init__(self, settings: Settings, client: redis.Redis, keys: Keys, accounts, presence,
                 secrets_: Secrets, enqueue: Callable, say: Say,
                 game_of: Callable[[str], tuple[str, bool] | None], title: Callable[[str, str], str]):
        self.settings = settings
        self.redis = client
        self.keys = keys
        self.accounts = accounts
        self.presence = presence
        self.secrets = secrets_
        self.enqueue = enqueue
        self.say = say
        self.game_of = game_of
        self.title = title
        self.notifications = None  # the people's notifications and the account's games under way, when wired
        self.running_games: Callable[[Account], list[tuple[str, list[str | None]]]] | None = None
        self._links: Links | None = None
        self.smtp = Smtp.parse(settings.smtp_url) if settings.smtp_url else None
        self._rate = client.register_script(lua("sliding_rate"))

    @property
    def links(self) -> Links:
        """The signer of mailed links; its key is made when first needed (a process that mails nothing writes
        nothing)."""
        if self._links is None:
            self._links = Links(self.secrets.get("links"), self.redis, self.keys)
        return self._links

    # -- the site's address ----------------------------------------------------------------------------------

    def url(self, path: str) -> str:
        """An absolute link to ``path`` (``BURROW_PUBLIC_URL``'s base; ``http://localhost:8000`` without one)."""
        base = (self.settings.site_url or "http://localhost:8000").rstrip("/")
        return f"{base}{path}"

    # -- push subscriptions ---------------------------------------------------------------------------------

    def push_key(self) -> str:
        return self.secrets.vapid_public_key()

    def subscribe(self, account: Account, body: dict, device: str = "") -> str:
        """Keep a device's subscription (``PushSubscription.toJSON()``): its id. The same endpoint again is the
        same subscription (its keys renewed); beyond ``MAX_SUBSCRIPTIONS`` the oldest is dropped."""
        endpoint = endpoints.check(body.get("endpoint"), self.settings.push_allow_hosts)
        keys = body.get("keys")
        if not isinstance(keys, dict):
            raise errors.Unprocessable(Text("keys: must be an object with p256dh and auth"), field="keys")
        p256dh = _b64(keys.get("p256dh"), "keys.p256dh", 65)
        auth = _b64(keys.get("auth"), "keys.auth", 16)
        for _ in range(8):  # a race with another change of the account: decide again on the fresh one
            account = self.accounts.store.load(account.id)
            same = [s for s in account.push.values() if s.endpoint == endpoint]
            if same and same[0].p256dh == p256dh and same[0].auth == auth:
                return same[0].id
            drop = [s.id for s in same]
            kept = sorted((s for s in account.push.values() if s.id not in drop), key=lambda s: s.added)
            drop += [s.id for s in kept[:max(0, len(kept) - MAX_SUBSCRIPTIONS + 1)]]
            self._spend_change(account)
            sid = secrets.token_hex(8)
            events = [ev.PushUnsubscribed(id=d) for d in drop]
            events.append(ev.PushSubscribed(id=sid, endpoint=endpoint, p256dh=p256dh, auth=auth,
                                            device=device[:60]))
            try:
                self.accounts.store.append(account, events)
                return sid
            except errors.Conflict:
                continue
        raise errors.Conflict(Text("the account changed meanwhile; try again"))

    def unsubscribe(self, account: Account, sid: str) -> None:
        if sid not in account.push:
            raise errors.NotFound(Text("no push subscription {id} of yours", id=repr(sid[:20])))
        self._spend_change(account)
        self._append(account, [ev.PushUnsubscribed(id=sid)], lambda a: sid in a.push)

    def _append(self, account: Account, events: list, still: Callable[[Account], bool] = lambda a: True) -> None:
        """Append ``events`` to the account, deciding again on a fresh copy after a race (while ``still``)."""
        for _ in range(8):
            try:
                self.accounts.store.append(account, events)
                return
            except errors.Conflict:
                account = self.accounts.store.load(account.id)
                if account is None or not still(account):
                    return
        raise errors.Conflict(Text("the account changed meanwhile; try again"))

    # -- preferences, vacation ----------------------------------------------------------------------------

    def set_notifications(self, account: Account, body: dict) -> None:
        """``{"email": {kind: bool}, "push": {kind: bool}}``: the kinds named are switched on or off."""
        known = {"email": MAIL_KINDS, "push": PUSH_KINDS}
        chosen: dict[str, dict[str, bool]] = {"email": {}, "push": {}}
        for channel, value in body.items():
            if channel not in known:
                raise errors.Unprocessable(Text("{field}: unknown field (known: {known})", field=channel[:40],
                                                known="email, push"), field=channel[:40])
            if not isinstance(value, dict):
                raise errors.Unprocessable(Text("{field}: must be an object", field=channel), field=channel)
            for kind, on in value.items():
                if kind not in known[channel] or not isinstance(on, bool):
                    field = f"{channel}.{kind[:40]}"
                    raise errors.Unprocessable(Text("{field}: must be true or false, for one of: {known}",
                                                    field=field, known=", ".join(known[channel])), field=field)
                chosen[channel][kind] = on
        if all(account.wants(channel, kind) == on for channel in chosen for kind, on in chosen[channel].items()):
            return  # nothing changes: nothing appended
        self._spend_change(account)
        self._append(account, [ev.NotificationsSet(email=chosen["email"], push=chosen["push"])])

    def set_vacation(self, account: Account, on: object) -> bool:
        """The account's player is away (``on``) or back. Nothing about clocks changes — a correspondence clock
        keeps running — so nothing stops silently: the opponents of its games under way are told (their pages
        and their notification streams), and the profile says so."""
        if not isinstance(on, bool):
            raise errors.Unprocessable(Text("on: must be true or false"), field="on")
        if account.vacation != on:
            self._spend_change(account)
            self._append(account, [ev.VacationSet(on=on)], lambda a: a.vacation != on)
            self.tell_opponents(account, on)
        return on

    def tell_opponents(self, account: Account, on: bool) -> None:
        if self.notifications is None or self.running_games is None:
            return
        told = []
        for gid, accounts in self.running_games(account):
            self.notifications.to_game(gid, "vacation", by=account.username, on=on)
            others = dict.fromkeys(a.lower() for a in accounts if a and a.lower() != account.username.lower())
            told += [(other, "vacation", {"game": gid, "by": account.username, "on": on}) for other in others]
        self.notifications.to_accounts(told)

    # -- the mail address ----------------------------------------------------------------------------------

    def mail_available(self) -> None:
        """``MailUnavailable`` (503) when no SMTP server is configured: nothing is queued."""
        if self.smtp is None:
            raise MailUnavailable(Text("this site sends no mail (no SMTP server is configured)"))

    def set_email(self, account: Account, address: object) -> None:
        """Give the account an address (unverified until its link is followed) and mail it the link."""
        self.mail_available()
        if not isinstance(address, str) or len(address) > MAX_ADDRESS or not ADDRESS.match(address):
            raise errors.Unprocessable(Text("email: not a mail address"), field="email")
        self._spend_link_mail(account.id, address)
        self._append(account, [ev.EmailSet(address=address)])
        self.enqueue("mail", "workers.jobs.mail", "verify", account.id, address, {}, job_timeout=JOB_SECONDS)

    def verify_email(self, token: object) -> None:
        found = self.links.read_verify(token)
        account = self.accounts.store.load(found[0]) if found else None
        if account is None or account.email != found[1]:
            raise BadToken(Text("this link is not valid (used for another address, or expired)"))
        if not account.email_verified:
            self._append(account, [ev.EmailVerified(address=found[1])],
                         lambda a: a.email == found[1] and not a.email_verified)

    def email_of(self, account: Account) -> dict | None:
        return {"address": account.email, "verified": account.email_verified} if account.email else None

    # -- password reset -------------------------------------------------------------------------------------

    def request_reset(self, address: object) -> None:
        """Mail a reset link to ``address`` if it is an account's verified address; the same answer otherwise
        (the caller answers 202 whatever happens here, after the same work)."""
        self.mail_available()
        if not isinstance(address, str) or len(address) > MAX_ADDRESS or not ADDRESS.match(address):
            raise errors.Unprocessable(Text("email: not a mail address"), field="email")
        owner = self.redis.hget(self.keys.emails(), address.lower())
        account = self.accounts.store.load(owner.decode()) if owner else None
        if account is None or not account.email_verified or (account.email or "").lower() != address.lower():
            return
        try:
            self._spend_link_mail(account.id, account.email)
        except TooManyMails:
            log.info("password reset: too many mails for one account lately; none sent")
            return
        self.enqueue("mail", "workers.jobs.mail", "reset", account.id, account.email, {}, job_timeout=JOB_SECONDS)

    def confirm_reset(self, token: object, password: object) -> None:
        """The new password of a valid reset link's account; every session of the account ends."""
        password = passwords.check_password(password)
        account_id = self.links.take_reset(token)
        account = self.accounts.store.load(account_id) if account_id else None
        if account is None:
            raise BadToken(Text("this link is not valid (already used, or expired)"))
        self._append(account, [ev.PasswordSet(hash=passwords.hash_password(password))])
        self.accounts.sessions.revoke_all(account.id)

    # -- unsubscribing --------------------------------------------------------------------------------------

    def unsubscribe_mail(self, token: object) -> str:
        """Stop the mails of a valid unsubscribe link's kind for its account: the kind."""
        found = self.links.read_unsubscribe(token)
        account = self.accounts.store.load(found[0]) if found else None
        if account is None or found[1] not in MAIL_KINDS:
            raise BadToken(Text("this link is not valid (or expired)"))
        if account.wants("email", found[1]):
            self._append(account, [ev.NotificationsSet(email={found[1]: False})],
                         lambda a: a.wants("email", found[1]))
        return found[1]

    # -- rates -------------------------------------------------------------------------------------------------

    def _spend(self, who: str, limit: int) -> bool:
        wait = self._rate(keys=[self.keys.mail_rate(who)], args=[int(time.time() * 1000), 3_600_000, limit,
                                                                  secrets.token_hex(6)])
        return not wait

    def _spend_change(self, account: Account) -> None:
        """Count one change of the account's subscriptions, preferences or vacation; 429 past the hourly bound
        (each is an event of a stream never trimmed, and a vacation switch tells every opponent)."""
        wait = self._rate(keys=[self.keys.away_changes(account.id)],
                          args=[int(time.time() * 1000), 3_600_000, CHANGES_PER_HOUR, secrets.token_hex(6)])
        if wait:
            raise TooManyChanges(Text("at most {n} changes an hour; wait {s} s", n=CHANGES_PER_HOUR,
                                      s=(int(wait) + 999) // 1000))

    def _spend_link_mail(self, account_id: str, address: str) -> None:
        if not (self._spend(f"link:a:{account_id}", LINK_MAILS_PER_HOUR)
                and self._spend(f"link:m:{_hashed(address)}", LINK_MAILS_PER_HOUR)):
            raise TooManyMails(Text("too many mails of this kind lately; try again in an hour"))

    def _spend_mail(self, account_id: str, address: str) -> bool:
        return (self._spend(f"a:{account_id}", MAILS_PER_HOUR)
                and self._spend(f"m:{_hashed(address)}", MAILS_PER_HOUR))

    # -- the workers' side ----------------------------------------------------------------------------------

    def queue_notices(self, notices: list[tuple[str, str, dict]]) -> None:
        """Hand the notifications worth a look away from the site to the ``push`` workers (one job)."""
        wanted = [[account, kind, data] for account, kind, data in notices if kind in AWAY_KINDS]
        if wanted:
            self.enqueue("push", "workers.jobs.deliver", wanted, job_timeout=JOB_SECONDS)

    def online(self, username_lower: str) -> bool:
        seen = self.presence.account_seen_at(username_lower)
        return seen is not None and time.time() * 1000 - seen <= ONLINE_MS

    def deliver(self, notices: list) -> dict[str, int]:
        """What each notification becomes away from the site (the module's rules): pushes sent now, mails
        queued. Counts by outcome. Waits to try a failed push again take at most ``RETRY_BUDGET`` in all: past
        it, each push is tried once."""
        counts = {"pushed": 0, "gone": 0, "failed": 0, "mails": 0}
        until = time.monotonic() + RETRY_BUDGET
        for name, kind, data in notices:
            account = self.accounts.store.by_username(name)
            if account is None:
                continue
            gid = data.get("game") if kind != "challenge" else None
            try:
                found = self.game_of(gid) if gid else None
            except Exception as exc:  # noqa: BLE001 - a game that cannot be read: pushed as a real-time one
                log.warning("deliver: game %s not read (%s)", gid, type(exc).__name__)
                found = None
            game, correspondence = found if found else (str(data.get("game", "")), False)
            lang = account.language or "en"
            title = self.title(game, lang)
            online = self.online(name)
            if account.push and account.wants("push", kind) and (kind == "challenge" or correspondence
                                                                  or not online):
                for outcome in self._push_all(account, kind, gid, title, data, until):
                    counts[outcome] = counts.get(outcome, 0) + 1
            if account.email and account.email_verified and kind in MAIL_KINDS and account.wants("email", kind) \
                    and self.smtp is not None and not online:
                if kind == "your_turn" and not (correspondence and self._digest_due(account, gid)):
                    continue
                if not self._spend_mail(account.id, account.email):
                    log.info("mail: too many mails for one account lately; a %s mail dropped", kind)
                    continue
                extra = {"game": title, "gid": gid or "", "name": str(data.get("from", ""))[:40]}
                self.enqueue("mail", "workers.jobs.mail", kind, account.id, account.email, extra,
                             job_timeout=JOB_SECONDS)
                counts["mails"] += 1
        return counts

    def _digest_due(self, account: Account, gid: str) -> bool:
        """True (and the interval starts) unless a *your turn* mail of this game went within the interval."""
        return bool(self.redis.set(self.keys.digest(account.id, gid), 1, nx=True,
                                   ex=max(1, self.settings.digest_seconds)))

    def push_payload(self, account: Account, kind: str, gid: str | None, title: str, data: dict) -> dict:
        lang = account.language or "en"
        head, body = texts.push(kind, title, str(data.get("from", ""))[:40])
        url = f"/games/{gid}" if gid else "/"
        return {"type": kind, **({"game": gid} if gid else {}), "url": url, "title": self.say(head, lang),
                "body": self.say(body, lang)}

    def _push_all(self, account: Account, kind: str, gid: str | None, title: str, data: dict,
                  until: float) -> list[str]:
        payload = self.push_payload(account, kind, gid, title, data)
        vapid = self.secrets.vapid()
        # The VAPID ``sub``: how a push service's operator reaches the sender (the mail sender's address).
        subject = f"mailto:{parseaddr(self.settings.mail_from)[1] or 'burrow@localhost'}"
        outcomes, gone = [], []
        for sub in list(account.push.values()):
            info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
            outcome = push.FAILED
            for wait in (0.0, *RETRIES):
                if wait and time.monotonic() + wait > until:
                    break  # this job's waiting budget is spent: the other pushes go first
                time.sleep(wait)
                outcome, status = push.send(info, payload, vapid, subject, self.settings.push_allow_hosts)
                if outcome != push.FAILED:
                    break
                log.info("push: a push service answered %s; trying again", status)
            if outcome == push.GONE:
                gone.append(sub.id)
            outcomes.append({"sent": "pushed", "gone": "gone", "failed": "failed"}[outcome])
        if gone:
            self._append(account, [ev.PushUnsubscribed(id=g) for g in gone],
                         lambda a: all(g in a.push for g in gone))
        return outcomes

    def mail_message(self, kind: str, account: Account, address: str, extra: dict) -> EmailMessage:
        """The mail of ``kind`` to ``address``, in the account's language, with its links (made now: no token
        waits in a queue)."""
        lang = account.language or "en"
        game, name = str(extra.get("game", "")), str(extra.get("name", ""))
        if kind == "verify":
            link = self.url(f"/verify-email?token={quote(self.links.verify_token(account.id, address))}")
        elif kind == "reset":
            link = self.url(f"/reset-password?token={quote(self.links.reset_token(account.id))}")
        elif kind == "your_turn":
            link = self.url(f"/games/{extra.get('gid', '')}")
        else:
            link = self.url("/")
        message = EmailMessage()
        message["From"] = self.settings.mail_from
        message["To"] = formataddr(("", address))
        message["Subject"] = self.say(texts.subject(kind, game, name), lang)
        message["Message-ID"] = make_msgid(domain="burrow")
        hours = max(1, round(self.settings.digest_seconds / 3600))
        body = self.say(texts.body(kind, account.username, link, game, name, hours), lang)
        if kind in MAIL_KINDS:
            stop = self.url(f"/unsubscribe?token={quote(self.links.unsubscribe_token(account.id, kind))}")
            message["List-Unsubscribe"] = f"<{stop}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
            body += "\n\n-- \n" + self.say(texts.footer(kind, stop), lang)
        message.set_content(body)
        return message

    def send_mail(self, kind: str, account_id: str, address: str, extra: dict) -> bool:
        """Send one mail (the ``mail`` job), trying again after ``RETRIES``; False if it could not be sent or
        is no longer wanted (the address changed, the kind was switched off)."""
        account = self.accounts.store.load(account_id)
        if account is None or self.smtp is None or account.email != address:
            return False
        if kind in MAIL_KINDS and not (account.email_verified and account.wants("email", kind)):
            return False
        message = self.mail_message(kind, account, address, extra)
        for i, wait in enumerate((0.0, *RETRIES)):
            time.sleep(wait)
            try:
                self.smtp.send(message)
                return True
            except (OSError, ValueError) as exc:  # smtplib's errors are OSErrors
                log.warning("mail: %s could not send (try %d): %s", self.smtp.public, i + 1, type(exc).__name__)
        return False
