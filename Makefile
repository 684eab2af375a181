# make run   - serve the app on http://127.0.0.1:5000 (Flask's server, SQLite in instance/)
# make serve - the same under gunicorn, several gevent workers (DATABASE_URL honoured)
# make test  - install what the tests need, then run the whole suite
# make check - the fast loop while working: ledger and API tests on SQLite, and the doctests
# Every target installs only what is missing: a second run starts at once.

VENV := .venv
PYTHON := $(VENV)/bin/python
HOST := 127.0.0.1
PORT := 5000
# one gevent worker per core: see api/gunicorn_config.py
WORKERS := $(shell nproc)
CONNECTIONS := 1000
# Debian packages the tests use: CJK fonts for PDFs (microhei: the configured-font tests), pdftotext, a browser, PostgreSQL,
# npm when the machine has none (the e2e fixture installs axe-core with it; a Node.js from elsewhere brings its own).
TEST_DEBS := fonts-wqy-zenhei fonts-wqy-microhei fonts-dejavu-core poppler-utils chromium chromium-driver postgresql
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# make check leaves out what needs a browser, a real server, fuzzing or PostgreSQL (markers: tests/conftest.py)
CHECK_MARKERS := not (browser or system or fuzz or postgresql)

.PHONY: run serve test check debs

run: $(VENV)/.installed
	$(VENV)/bin/flask --app api run --host $(HOST) --port $(PORT)

serve: $(VENV)/.installed
	$(VENV)/bin/gunicorn --config python:api.gunicorn_config --workers $(WORKERS) --worker-connections $(CONNECTIONS) \
		--bind $(HOST):$(PORT) 'api:create_app()'

test: $(VENV)/.installed-test debs
	$(PYTHON) -m pytest -n auto --dist worksteal

check: $(VENV)/.installed-test debs
	$(PYTHON) -m pytest -n auto --dist worksteal -q -m "$(CHECK_MARKERS)"

$(PYTHON):
	python3 -m venv $(VENV) || { $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv && python3 -m venv $(VENV); }

$(VENV)/.installed: pyproject.toml | $(PYTHON)
	$(PYTHON) -m pip install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PYTHON)
	$(PYTHON) -m pip install -e '.[test]'
	touch $@ $(VENV)/.installed

debs:
	@missing=""; \
	for pkg in $(TEST_DEBS); do \
		dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi
