"""A group (牌友會, ``/api/groups``): a roster that plays week after week, its payments, balances and standings.

- ``routes``: the group, its members, evenings, payments, balances,
  standings, seasons, audit and tokens; ``backup`` and ``reports``: the
  other routes, one blueprint each.
- ``schemas``: every request and answer shape; ``views``: the JSON of answers.
- ``service``: every change, begun, locked and committed in one place;
  ``figures``: each evening's summary kept in step, and standings read from
  it; ``documents``: a whole group as one JSON document and back.
"""
