"""A competition (比賽, ``/api/competitions``): many tables at once, round after round, every entrant ranked.

- ``routes``: the competition, its entrants, rounds (draw, clock) and standings.
- ``schemas``: every request and answer shape; ``views``: the JSON of answers.
- ``service``: every change, begun, locked and committed in one place; ``access``: its two tokens and
  its tables' tokens.

What is computed (the draw, who sits out, the standings) is ``ledger.competition`` and ``ledger.draw``;
what is stored, ``ledger.competition_store``; each table is an evening of ``api.sessions``.
"""
