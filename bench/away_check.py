"""The outside check of "Away from the site" (issue #41): ``burrow serve`` on a private redis-server, driven over
HTTP only, with a push service and an SMTP server of this script's own (``tests/web/away_helpers.py``).

An account verifies its address and subscribes with its own keys; the opponent moves in a correspondence game
while no page of the account is open; an encrypted push arrives that the check decrypts with the subscription's
keys and whose VAPID signature verifies with the server's public key, then a digest mail; the password reset
works once and not twice; the mail's unsubscribe link stops that mail; a private-range endpoint is refused. Prints
one table row per check and exits 1 if any fails.

    python bench/away_check.py
"""

from __future__ import annotations

import http.cookiejar
import json
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import harness

from tests.web.away_helpers import Device, Mailbox, PushReceiver, link_token, verify_vapid


class Client:
    """A browser-less client with its own cookies."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None,
             form: str | None = None) -> tuple[int, dict | None]:
        headers = {"Content-Type": "application/json"}
        data = json.dumps(body).encode() if body is not None else None
        if form is not None:
            headers["Content-Type"], data = "application/x-www-form-urlencoded", form.encode()
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as answer:
                raw = answer.read()
                return answer.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            return exc.code, json.loads(raw) if raw else None


def wait_for(found, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.2)
    return None


def play_first_legal(client: Client, gid: str) -> int:
    seat = client.call("GET", f"/api/me/games/{gid}")[1]
    doc = client.call("GET", f"/api/games/{gid}", token=seat["token"])[1]
    return client.call("POST", f"/api/games/{gid}/commands", {"move": doc["legal"][0]}, token=seat["token"])[0]


def main() -> int:
    harness.parser(__doc__.splitlines()[0]).parse_args()
    harness.header("Away from the site: the outside check")
    checks: list[tuple[str, bool, str]] = []
    mailbox, receiver = Mailbox(), PushReceiver()
    with harness.RedisServer(aof=False) as server:
        port = harness.free_port()
        env = {"BURROW_SMTP_URL": mailbox.url, "BURROW_PUSH_ALLOW_HOSTS": "127.0.0.1",
               "BURROW_PUBLIC_URL": f"http://127.0.0.1:{port}", "BURROW_DIGEST_SECONDS": "3600",
               "BURROW_SIGNUP_RATE": "0"}
        proc, port = harness.serve(server, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            ann, ben = Client(base), Client(base)
            for client, name in ((ann, "Ann"), (ben, "Ben")):
                client.call("POST", "/api/accounts", {"username": name, "password": f"first password {name}"})
            status, _ = ben.call("POST", "/api/me/email", {"email": "ben@example.org"})
            verify = wait_for(lambda: [m for m in mailbox.messages if "confirm" in m["Subject"]])
            token = link_token(verify[0], "/verify-email") if verify else ""
            verified = ben.call("POST", "/api/email/verify", {"token": token})[0]
            checks.append(("address verified through the mailed link", status == 202 and verified == 204,
                           f"{status}, {verified}"))

            device = Device(receiver.url("/push/ben-phone"))
            status, _ = ben.call("POST", "/api/me/push", device.subscription())
            checks.append(("subscribed with the device's own keys", status == 201, str(status)))
            private = ben.call("POST", "/api/me/push", Device("https://10.0.0.7/push").subscription())
            checks.append(("a private-range endpoint refused", private[0] == 422
                           and private[1]["error"]["code"] == "bad_endpoint", str(private[0])))

            status, made = ann.call("POST", "/api/challenges", {"to": "Ben", "game": "murus",
                                                                "clock": {"per_move": 86400}})
            gid = ben.call("POST", f"/api/challenges/{made['id']}/accept")[1]["game"]
            first = wait_for(lambda: ben.call("GET", "/api/me/waiting")[1]["count"]
                             or ann.call("GET", "/api/me/waiting")[1]["count"])
            if ben.call("GET", "/api/me/waiting")[1]["count"]:  # Ben first: he moves, then Ann's turn comes
                play_first_legal(ben, gid)
                wait_for(lambda: ann.call("GET", "/api/me/waiting")[1]["count"])
            already = len([r for r in receiver.received if device.decrypt(r)["type"] == "your_turn"])
            moved = play_first_legal(ann, gid)
            pushes = wait_for(lambda: [r for r in receiver.received if device.decrypt(r)["type"] == "your_turn"][
                already:])
            key = ben.call("GET", "/api/push/key")[1]["public_key"]
            ok, detail = False, "no push"
            if pushes:
                payload = device.decrypt(pushes[0])
                claims = verify_vapid(pushes[0], key)
                ok = payload["game"] == gid and claims["aud"] == f"http://127.0.0.1:{receiver.port}"
                detail = f"{payload['title']!r}, aud {claims['aud']}"
            checks.append(("the opponent moved: a push decrypted, its VAPID signature verified",
                           bool(first) and moved == 200 and ok, detail))
            digest = wait_for(lambda: [m for m in mailbox.messages
                                       if m["Subject"].startswith("Burrow: your turn")])
            checks.append(("then a digest mail", bool(digest), digest[0]["Subject"] if digest else "none"))

            ben.call("POST", "/api/password/reset", {"email": "ben@example.org"})
            reset = wait_for(lambda: [m for m in mailbox.messages if "reset" in m["Subject"]])
            token = link_token(reset[0], "/reset-password") if reset else ""
            once = Client(base).call("POST", "/api/password/reset/confirm", {"token": token,
                                                                             "password": "second password"})[0]
            twice = Client(base).call("POST", "/api/password/reset/confirm", {"token": token,
                                                                              "password": "third password"})[0]
            signed_out = ben.call("GET", "/api/me")[0]
            checks.append(("reset once (204), not twice (400); every session ended (401)",
                           (once, twice, signed_out) == (204, 400, 401), f"{once}, {twice}, {signed_out}"))

            ben = Client(base)
            ben.call("POST", "/api/session", {"username": "Ben", "password": "second password"})
            stop = urlsplit(digest[0]["List-Unsubscribe"].strip("<>")) if digest else None
            unsubscribed = ben.call("POST", f"{stop.path}?{stop.query}", form="List-Unsubscribe=One-Click")[0] \
                if stop else 0
            prefs = ben.call("GET", "/api/me")[1]["notifications"]["email"]["your_turn"]
            checks.append(("the unsubscribe link stops that mail", unsubscribed == 204 and prefs is False,
                           f"{unsubscribed}, your_turn mail {'on' if prefs else 'off'}"))
        finally:
            harness.stop_process(proc)
            mailbox.stop()
            receiver.stop()
    harness.table(["check", "result", "detail"], [(c, "pass" if ok else "FAIL", d) for c, ok, d in checks])
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
