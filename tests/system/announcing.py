"""A server started by a command that announces itself (``taizhang serve``, ``make run``), as a person runs it.

``AnnouncingServer(command, env, cwd)`` starts it in a process group of its
own, reads its terminal as it prints, and waits for "Stop with Ctrl+C." (the
last line of ``taizhang.reach.announcement``); ``here`` is the address printed
for this machine, ``phones`` the one printed for phones (``tests/system/terminal.py``).
"""
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

START_TIMEOUT_S = 60
#: ``taizhang`` of the environment running the tests (the project's .venv).
TAIZHANG = str(Path(sys.executable).parent / "taizhang")


class AnnouncingServer:
    def __init__(self, command: list[str], env: dict | None = None, cwd: Path | None = None):
        environment = {**os.environ, **(env or {})}
        for name in ("TAIZHANG_PUBLIC_URL", "TAIZHANG_NETWORK_URL"):  # the test's own, or none
            if name not in (env or {}):
                environment.pop(name, None)
        self.process = subprocess.Popen(command, cwd=cwd, env=environment, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.lines: list[str] = []
        threading.Thread(target=lambda: self.lines.extend(self.process.stdout), daemon=True).start()
        self.terminal = self._announcement()

    def _announcement(self) -> str:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline and self.process.poll() is None:
            if any("Stop with Ctrl+C." in line for line in self.lines):
                return "".join(self.lines)
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"{self.process.args} did not announce itself:\n{''.join(self.lines)}")

    @property
    def here(self) -> str:
        """The address printed for this machine (loopback)."""
        return re.search(r"This machine: (\S+)", self.terminal).group(1)

    @property
    def port(self) -> int:
        return int(self.here.rsplit(":", 1)[1])

    def output(self) -> str:
        return "".join(self.lines)

    def stop(self) -> None:
        """Ctrl+C's signal, then SIGKILL after a moment: a phone's stream left open would hold the server for
        gunicorn's whole graceful timeout (30 s), which none of these tests is about."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
