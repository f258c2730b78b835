"""Meeting people: notifications to accounts, chat, presence, quick pairing (seeks) and challenges. None of it is a
game event: a replay never shows it."""
