"""Games that live only in the tests: each one a decider of ``domain/base.py``'s shape, registered by a fixture."""
