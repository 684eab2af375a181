"""A competition (比賽, ``/api/competitions``): many tables at once, round after round, every entrant ranked;
computed by ``ledger.competition`` and ``ledger.draw``, each table an evening of ``api.sessions``.
"""
