"""Tournaments (docs/api.md "Tournaments"): their streams (``store.py``), the service and its job (``service.py``),
their documents (``documents.py``). The rules of pairing and scoring are the domain's (``domain/tournaments/``)."""
