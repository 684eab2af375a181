"""The phone page (``/``): its HTML, scripts (``static/app/js``: ``shell/``, ``screens/``, ``parts/``,
``format/``), icons, manifest and service worker, served by ``routes`` with nothing from the internet."""
