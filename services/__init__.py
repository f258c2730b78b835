"""The application: event store, command handling, projections, AI dispatch, configuration.

The only layer that touches Redis. It knows nothing of HTTP (``web``) or of the worker processes (``workers``).
"""
