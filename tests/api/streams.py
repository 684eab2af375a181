"""An event stream read through Flask's test client, as a phone follows one (evenings' and competitions' alike).

Read without buffering, each chunk the app yields is one or more events, the first ``retry:`` line or a heartbeat
comment; a thread of its own puts each event in a queue as (id, event, data).
"""
import json
import queue
import threading

WAIT_S = 30


class EventStream:
    """``GET path`` kept open; ``ids`` turns each event's id into what the test compares (``int`` for an evening's
    revisions, ``str`` for a competition's)."""

    def __init__(self, client, path: str, headers: dict | None = None, ids=int):
        self.response = client.get(path, headers=headers or {}, buffered=False)
        self.ids = ids
        self.events: queue.Queue = queue.Queue()
        self.first_line = None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for chunk in self.response.response:
            if self.stopping.is_set():
                break
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            if text.startswith("retry:"):
                self.first_line = text
                continue
            for event in text.split("\n\n"):
                if event.strip() and not event.startswith(":"):
                    fields = dict(line.split(": ", 1) for line in event.strip().split("\n"))
                    self.events.put((self.ids(fields["id"]), fields["event"], json.loads(fields["data"])))

    def take(self, count: int) -> list[tuple]:
        return [self.events.get(timeout=WAIT_S) for _ in range(count)]

    def close(self):
        """Stop reading at the next chunk (a heartbeat at the latest) and close the stream, as a phone leaving."""
        self.stopping.set()
        self.thread.join(WAIT_S)
        self.response.close()
