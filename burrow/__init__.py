"""The composition root: the ``burrow`` command and the wiring of one process (web, dispatcher, RQ workers).

The only package that may import every other one of ours (``domain``, ``services``, ``web``, ``workers``).
"""
