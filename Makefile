# make run   - set up, then serve the table on the network (http://<this machine>:5000, SQLite in instance/),
#              printing the address phones open and its QR code (taizhang serve; HOST=127.0.0.1: this machine only)
# make serve - the same server on 127.0.0.1 unless HOST says otherwise (DATABASE_URL honoured)
# make dev   - Flask's development server on 127.0.0.1 (reloads on changes)
# make test  - install what the tests need, then run the whole suite
# make check - the fast loop while working: ledger and API tests on SQLite, and the doctests
# make docs  - take the guide's pictures again (docs/guide/pictures/) from the browser flows
# make fuzz  - the deep run: the fuzzing modules' every generated request, the property tests' every example
# Every target installs only what is missing: a second run starts at once.

VENV := .venv
PYTHON := $(VENV)/bin/python
# empty: make run listens on the network (0.0.0.0), make serve and make dev on this machine (127.0.0.1)
HOST :=
PORT := 5000
# one gevent worker per core: see api/gunicorn_config.py
WORKERS := $(shell nproc)
# empty: each worker takes as many connections as the machine lets it open files (api/gunicorn_config.py);
# a number sets them by hand
CONNECTIONS :=
# Debian packages the tests use: CJK fonts for PDFs (microhei: the configured-font tests), pdftotext, Chromium's headless shell, PostgreSQL,
# npm when the machine has none (the e2e fixture installs axe-core with it; a Node.js from elsewhere brings its own).
# caddy and nginx: the reverse proxies of deploy/, checked and run in front of the server (tests/system/test_deploy.py);
# zbar-tools: zbarimg reads back the QR code make run prints; systemd: systemd-analyze checks the units.
TEST_DEBS := fonts-wqy-zenhei fonts-wqy-microhei fonts-dejavu-core poppler-utils chromium-headless-shell postgresql \
	caddy nginx zbar-tools systemd
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian packages the install builds against: pycairo (reportlab's bitmap renderer, pyproject.toml) has no wheel for
# Linux and compiles against cairo's headers.
BUILD_DEBS := libcairo2-dev pkg-config gcc

# make check leaves out what needs a browser, a real server, fuzzing or PostgreSQL (markers: tests/conftest.py),
# and does not even collect the folders and modules that hold nothing else (collecting them was half its time).
CHECK_MARKERS := not (browser or system or fuzz or postgresql)
# pytest loads its plugins by name rather than every installed one's entry point: an entry point's whole package
# (schemathesis, hypothesis, anyio: 264 modules) is assertion-rewritten and compiled again in every test process,
# since this machine's Python writes no bytecode (PYTHONDONTWRITEBYTECODE): seconds of CPU a process.
# Test modules' rewritten bytecode is kept (__pycache__, ignored by git), so a second `make check` starts at once.
# make check does not load schemathesis's pytest plugin (only the fuzzing, which make check leaves out, uses it).
PYTEST_PLUGINS := xdist.plugin,_hypothesis_pytestplugin
# The tests' files (a SQLite database per test above all) in memory where the machine has /dev/shm: each commit's
# fsync to the disk was a wait of milliseconds, thousands of them. A passed test's files are deleted as it ends.
# Only a /dev/shm with 2 GB free (a container's is often 64 MB): otherwise the system's temporary folder.
TEST_TEMPROOT := $(shell [ "$$(df -Pk /dev/shm 2>/dev/null | awk 'NR==2 {print $$4}')" -gt 2000000 ] 2>/dev/null && echo /dev/shm)
pytest_with = PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 PYTEST_PLUGINS=$(1) PYTHONDONTWRITEBYTECODE= \
	PYTEST_DEBUG_TEMPROOT=$(TEST_TEMPROOT) $(PYTHON) -m pytest -o tmp_path_retention_policy=failed
PYTEST = $(call pytest_with,$(PYTEST_PLUGINS))
# esbuild, the bundler that joins the phone page's modules into its HTML (api/page/release.py), from npm into
# .cache/esbuild (ignored by git); without npm the page is served as its modules, one file each (slower to open).
ESBUILD_VERSION := 0.28.2
ESBUILD := .cache/esbuild/node_modules/.bin/esbuild
# make test: one pytest worker more than the cores. Its browser, system and streaming tests wait part of the time (for
# Chromium, a gunicorn, a stream, a timeout) and a third worker runs meanwhile (keeping the cores busier).
TEST_WORKERS := $(shell echo $$(( $$(nproc) + 1 )))
# more arguments for pytest, e.g. PYTEST_ARGS=--junitxml=/tmp/suite.xml (to refresh tests/durations.json)
PYTEST_ARGS :=
FUZZ_MODULES := tests/api/http/test_fuzz.py tests/api/http/test_any_json.py
# make test runs schemathesis's module in a pytest process of its own beside the workers, its output shown after
# theirs: the plugin, and the coverage cases it builds as the module is collected, then cost one process rather than
# every worker (each collects every module).
SCHEMA_FUZZ := tests/api/http/test_fuzz.py
SCHEMA_PLUGINS := $(PYTEST_PLUGINS),schemathesis.pytest.plugin
CHECK_SKIPS := --ignore=tests/e2e --ignore=tests/system $(addprefix --ignore=,$(FUZZ_MODULES))

.PHONY: run serve dev test check docs fuzz builddebs debs esbuild

run: $(VENV)/.installed esbuild
	$(VENV)/bin/taizhang serve --host $(or $(HOST),0.0.0.0) --port $(PORT) --workers $(WORKERS) \
		$(if $(CONNECTIONS),--connections $(CONNECTIONS)) $(if $(DATABASE_URL),,--data instance)

serve: $(VENV)/.installed esbuild
	$(VENV)/bin/gunicorn --config python:api.gunicorn_config --workers $(WORKERS) \
		$(if $(CONNECTIONS),--worker-connections $(CONNECTIONS)) --bind $(or $(HOST),127.0.0.1):$(PORT) 'api:create_app()'

dev: $(VENV)/.installed esbuild
	$(VENV)/bin/flask --app api run --debug --host $(or $(HOST),127.0.0.1) --port $(PORT)

test: $(VENV)/.installed-test debs esbuild
	schema_log=$$(mktemp); \
	$(call pytest_with,$(SCHEMA_PLUGINS)) -q -p no:cacheprovider $(SCHEMA_FUZZ) \
		> $$schema_log 2>&1 & schema=$$!; \
	$(PYTEST) -n $(TEST_WORKERS) --dist worksteal --durations=20 --ignore=$(SCHEMA_FUZZ) $(PYTEST_ARGS); rest=$$?; \
	wait $$schema; fuzzed=$$?; echo "$(SCHEMA_FUZZ), in its own process:"; cat $$schema_log; rm -f $$schema_log; \
	[ $$rest -ne 0 ] && exit $$rest; exit $$fuzzed

check: $(VENV)/.installed-test debs esbuild
	$(PYTEST) -n auto --dist worksteal -q -m "$(CHECK_MARKERS)" $(CHECK_SKIPS) $(PYTEST_ARGS)

# hypothesis's fuzz profile (tests/fuzzing.py): make test runs the same modules with a few examples per operation
# (on SQLite) and a quarter of each property test's examples; here the fuzzing modules and every property test of
# the ledger and the API (on SQLite; the fuzzing on both databases) run all of theirs.
fuzz: PYTEST_PLUGINS := $(SCHEMA_PLUGINS)
fuzz: $(VENV)/.installed-test debs
	$(PYTEST) -n $(TEST_WORKERS) --dist worksteal --hypothesis-profile=fuzz -m "fuzz or not postgresql" \
		tests/ledger tests/api $(PYTEST_ARGS)

$(PYTHON):
	python3 -m venv $(VENV) || { $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv && python3 -m venv $(VENV); }

$(VENV)/.installed: pyproject.toml | $(PYTHON)
	@$(MAKE) --no-print-directory builddebs
	$(PYTHON) -m pip install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PYTHON)
	@$(MAKE) --no-print-directory builddebs
	$(PYTHON) -m pip install -e '.[test]'
	touch $@ $(VENV)/.installed

esbuild:
	@if [ "$$($(ESBUILD) --version 2>/dev/null)" != "$(ESBUILD_VERSION)" ]; then \
		if command -v npm >/dev/null 2>&1; then \
			npm install --prefix .cache/esbuild --no-save --no-audit --no-fund esbuild@$(ESBUILD_VERSION); \
		else \
			echo "No npm: the phone page is served unbundled (docs/development.md, 'Layout')."; \
		fi; \
	fi

builddebs debs: DEBS = $(if $(filter builddebs,$@),$(BUILD_DEBS),$(TEST_DEBS))
builddebs debs:
	@missing=""; \
	for pkg in $(DEBS); do \
		dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	$(if $(filter debs,$@),command -v npm >/dev/null 2>&1 || missing="$$missing npm";) \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi

docs: $(VENV)/.installed-test debs esbuild
	TAIZHANG_GUIDE_PICTURES=1 $(PYTEST) -n $(TEST_WORKERS) -q tests/e2e/test_guide_pictures.py
