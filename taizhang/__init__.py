"""The ``taizhang`` command: ``serve`` (gunicorn, ``api.gunicorn_config``) and the app's Flask commands."""
