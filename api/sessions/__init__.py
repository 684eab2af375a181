"""An evening (牌局, ``/api/sessions``): one table, its hands, seats, house rules, live updates, backups, reports.

- ``routes``: start, read, seat a substitute, audit, close, reopen, new links;
  ``hands``, ``previews``, ``house_rules``, ``events``, ``backup``,
  ``reports``: the other routes, one blueprint each.
- ``schemas``: every request and answer shape; ``views``: the JSON of answers.
- ``service``: every change, begun, locked and committed in one place;
  ``documents``: an evening as one JSON document and back; ``live``: how a
  change reaches the streams that follow it.
"""
