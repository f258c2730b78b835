"""The Lua scripts run in Redis (read by ``services/scripts.py``)."""
