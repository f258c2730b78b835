"""Test oracles: plain, slow references that the product's fast code is held to. They import from ``domain``, never
the reverse, and ``tests/test_architecture.py`` checks that ``domain`` defines none of their classes and
functions."""
