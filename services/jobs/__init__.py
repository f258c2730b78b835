"""Work for the RQ workers: queues, AI turns, dead letters, the pipeline's health (doctor)."""
