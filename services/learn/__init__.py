"""Learning: tutorials' steps and progress (``tutorials.py``); the deck of one's own mistakes (``deck.py``)."""
