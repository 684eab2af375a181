"""How hard the fuzzing modules (test_fuzz.py, test_any_json.py) fuzz: a bounded number of examples per
operation in ``make test``, the deep run in ``make fuzz``, which loads hypothesis's ``fuzz`` profile
(``--hypothesis-profile=fuzz``; the profiles are registered in tests/conftest.py)."""
from hypothesis import settings

PROFILE = "fuzz"


def examples(bounded: int, deep: int) -> int:
    """``deep`` examples under the fuzz profile, else ``bounded``."""
    return deep if settings.get_current_profile_name() == PROFILE else bounded
