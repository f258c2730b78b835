"""RQ job functions and the long-running loops (dispatcher, worker entry points)."""
