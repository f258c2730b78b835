"""Live updates: the hub that fans new versions out to open streams."""
