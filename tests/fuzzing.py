"""How hard the generated tests try: the fuzzing modules (test_fuzz.py, test_any_json.py) send a bounded number of
examples per operation and the property tests try a quarter of theirs in ``make test`` and ``make check``; the
deep run, ``make fuzz``, loads hypothesis's ``fuzz`` profile (``--hypothesis-profile=fuzz``; the profiles are
registered in tests/conftest.py) and tries them all."""
from hypothesis import settings

PROFILE = "fuzz"


def deep_run() -> bool:
    """Whether this is the deep run (``make fuzz``)."""
    return settings.get_current_profile_name() == PROFILE


def examples(bounded: int, deep: int) -> int:
    """``deep`` examples under the fuzz profile, else ``bounded``."""
    return deep if deep_run() else bounded


def databases() -> tuple[str, ...]:
    """Where each generated request goes: both databases under the fuzz profile, else SQLite alone (what
    PostgreSQL alone refuses has explicit tests on both: tests/api/http/test_fuzz.py's docstring names them)."""
    return ("sqlite", "postgresql") if deep_run() else ("sqlite",)
