"""The ``taizhang`` command (issue 26): serve the table, back up, write reports, import.

``taizhang serve`` is the production server that ``make run`` starts
(gunicorn with ``api.gunicorn_config``'s gevent worker), listening on the
machine's network and printing the address phones open with its QR code
(``taizhang.reach``). The other commands are the app's own Flask commands
(``flask --app api backup …``), run on the database ``--data`` or
``DATABASE_URL`` names (``taizhang.cli``).
"""
