"""The log lines' writer (``burrow/logs.py``): a record is handed to a thread of its own, which writes every line
waiting in one call; a stream that does not take lines never holds up the code that logs (lines past ``QUEUED``
are dropped and counted)."""

from __future__ import annotations

import json
import logging
import queue
import threading

from burrow import logs
from services import trace


class Stream:
    """A stream that counts its writes and can be held (a full pipe)."""

    def __init__(self):
        self.writes: list[str] = []
        self.open = threading.Event()
        self.open.set()

    def write(self, text: str) -> None:
        self.open.wait()
        self.writes.append(text)

    def flush(self) -> None:
        pass


def writer_for(stream: Stream) -> tuple[logs.Handoff, logs.Writer, logging.Logger]:
    handler = logs.Handoff(queue.SimpleQueue())
    writer = logs.Writer(handler.queue, stream, logs.JsonLines())
    writer.start()
    logger = logging.getLogger("burrow.requests.test")
    logger.handlers, logger.propagate = [handler], False
    logger.setLevel(logging.INFO)
    return handler, writer, logger


def test_lines_are_json_with_the_request_id_and_written_together():
    stream = Stream()
    stream.open.clear()  # the writer takes its first line and waits on the stream: the rest pile up behind it
    handler, writer, logger = writer_for(stream)
    token = trace.begin("req-1")
    try:
        for i in range(50):
            logger.info("POST %s", i, extra={"fields": {"status": 200}})
    finally:
        trace.end(token)
    stream.open.set()
    writer.stop()
    lines = "".join(stream.writes).splitlines()
    assert [json.loads(line)["msg"] for line in lines] == [f"POST {i}" for i in range(50)]
    assert all(json.loads(line)["rid"] == "req-1" and json.loads(line)["status"] == 200 for line in lines)
    assert len(stream.writes) <= 3  # the first line alone, then what waited in one write
    assert handler.dropped == 0


def test_a_stream_that_takes_nothing_never_holds_up_the_logging_code(monkeypatch):
    monkeypatch.setattr(logs, "QUEUED", 100)
    stream = Stream()
    stream.open.clear()
    handler, writer, logger = writer_for(stream)
    done = threading.Event()

    def log_many() -> None:
        for i in range(1_000):
            logger.info("line %s", i)
        done.set()

    threading.Thread(target=log_many, daemon=True).start()
    assert done.wait(10)  # returned although nothing could be written
    kept = 1_000 - handler.dropped  # what the queue holds and what the writer holds in hand, waiting on the stream
    assert 100 <= kept <= 100 + logs.BATCH
    stream.open.set()
    writer.stop()
    assert len("".join(stream.writes).splitlines()) == kept
