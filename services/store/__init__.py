"""The event store: streams and their keys, the Lua append, codecs, connections, the journal, export/import and
the partition logs."""
