"""What a server prints in its terminal, read back: the address it announces and the QR code under it.

``read_qr`` turns the block characters of the QR code (two rows of modules to a
line: ``█`` both light, `` `` both dark, ``▀`` light over dark, ``▄`` dark over
light) back into a picture and has zbarimg (Debian's zbar-tools) decode it, so
the test checks what a phone's camera would read, not how the code was drawn.
"""
import re
import subprocess
import tempfile
from pathlib import Path

from PIL import Image

QR_CHARACTERS = set("█▀▄ ")
# (top, bottom) light? for each character
HALVES = {"█": (True, True), " ": (False, False), "▀": (True, False), "▄": (False, True)}
MODULE_PX, MARGIN = 8, 4


def announced(output: str) -> str:
    """The address after "Phones open:"."""
    match = re.search(r"Phones open: (\S+)", output)
    assert match, output
    return match.group(1)


def qr_lines(output: str) -> list[str]:
    """The lines of the QR code: the longest run of lines made of block characters only."""
    runs, run = [], []
    for line in output.splitlines():
        if line and set(line) <= QR_CHARACTERS and "█" in line:
            run.append(line)
        else:
            runs.append(run)
            run = []
    runs.append(run)
    return max(runs, key=len)


def read_qr(output: str) -> str:
    """What zbarimg reads in the QR code printed in ``output``."""
    lines = qr_lines(output)
    assert len(lines) >= 10, output
    width = max(len(line) for line in lines)
    image = Image.new("L", ((width + 2 * MARGIN) * MODULE_PX, (2 * len(lines) + 2 * MARGIN) * MODULE_PX), 255)
    for y, line in enumerate(lines):
        for x, character in enumerate(line.ljust(width, "█")):
            for half, light in enumerate(HALVES[character]):
                if not light:
                    left, top = (x + MARGIN) * MODULE_PX, (2 * y + half + MARGIN) * MODULE_PX
                    image.paste(0, (left, top, left + MODULE_PX, top + MODULE_PX))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "qr.png"
        image.save(path)
        result = subprocess.run(["zbarimg", "--raw", "-q", str(path)], capture_output=True, text=True, check=True)
    return result.stdout.strip()
