"""What a push or a mail says, as ``Text`` (said in the account's language by the caller's ``say``; the catalogs
are the site's, ``web/translations/``)."""

from __future__ import annotations

from domain.text import Text


def push(kind: str, game: str, name: str) -> tuple[Text, Text]:
    """A push's title and body."""
    if kind == "your_turn":
        return Text("Burrow: your turn"), Text("It is your turn in a game of {game}.", game=game)
    if kind == "challenge":
        return (Text("Burrow: a challenge"),
                Text("{name} challenges you to a game of {game}.", name=name, game=game))
    return Text("Burrow: game over"), Text("Your game of {game} is over.", game=game)


def subject(kind: str, game: str, name: str) -> Text:
    if kind == "verify":
        return Text("Burrow: confirm your email address")
    if kind == "reset":
        return Text("Burrow: reset your password")
    if kind == "your_turn":
        return Text("Burrow: your turn in {game}", game=game)
    return Text("Burrow: {name} challenges you", name=name)


def body(kind: str, username: str, link: str, game: str, name: str, hours: int) -> Text:
    if kind == "verify":
        return Text("Hello {username},\n\nTo receive Burrow's mail at this address, confirm it by opening this "
                    "link within 24 hours:\n\n{link}\n\nIf you did not ask for this, ignore this mail.",
                    username=username, link=link)
    if kind == "reset":
        return Text("Hello {username},\n\nTo choose a new password, open this link within an hour (it works "
                    "once):\n\n{link}\n\nEvery device signed in to your account will be signed out. If you did "
                    "not ask for this, ignore this mail: your password stays as it is.",
                    username=username, link=link)
    if kind == "your_turn":
        return Text.plural("Hello {username},\n\nIt is your turn in your game of {game}:\n\n{link}\n\n(At most "
                           "one such mail per game every hour, none while you are on the site.)",
                           "Hello {username},\n\nIt is your turn in your game of {game}:\n\n{link}\n\n(At most "
                           "one such mail per game every {n} hours, none while you are on the site.)",
                           n=hours, username=username, game=game, link=link)
    return Text("Hello {username},\n\n{name} challenges you to a game of {game}. Accept or decline it on the "
                "site:\n\n{link}", username=username, name=name, game=game, link=link)


def footer(kind: str, link: str) -> Text:
    """The last lines of a notification mail: how to stop that kind."""
    if kind == "your_turn":
        return Text("To stop the mails that say it is your turn, open: {link}", link=link)
    return Text("To stop the mails of challenges, open: {link}", link=link)
