"""Read models: per-viewer documents, the lobby, statistics and ratings, post-game analysis."""
