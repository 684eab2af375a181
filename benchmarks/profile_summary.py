"""Sum ``py-spy record --format raw`` files (collapsed stacks: ``frame;frame;… count``) into the functions where a
worker's busy samples went.

Run: ``.venv/bin/python benchmarks/profile_summary.py FILE… [--top 25]`` (``club_night.py --profile DIR`` writes
one file per worker). A sample whose innermost frame is the gevent hub waiting (``select``/``epoll`` under
``hub.run``/``wait``) is idle; the others are busy. Each function's share is of busy samples, counted once per
sample however often it is on the stack (inclusive), and beside it the share where it is the innermost frame
(self).
"""
import argparse
import re
from collections import Counter

IDLE = re.compile(r"^(run|wait|_wait|select|poll|epoll) \(.*(gevent|selectors|socket)")


LINE = re.compile(r":\d+\)$")


def frames_of(line: str, lines: bool = False) -> tuple[list[str], int]:
    """The frames of one collapsed stack, outermost first, each ``function (file)`` (``lines``: with its line)."""
    stack, _, count = line.rstrip("\n").rpartition(" ")
    frames = [frame.strip() for frame in stack.split(";") if frame.strip()]
    return (frames if lines else [LINE.sub(")", frame) for frame in frames]), int(count)


def is_idle(frames: list[str]) -> bool:
    """The worker was waiting, not working: the innermost frame is the hub's loop (or a thread asleep)."""
    leaf = frames[-1] if frames else ""
    return leaf.startswith(("run (gevent/hub.py", "run (src/gevent/hub.py")) or bool(IDLE.match(leaf)) or \
        "hub.py" in leaf and leaf.startswith(("run ", "switch "))


def summary(paths: list[str], top: int, lines: bool = False, below: str | None = None) -> str:
    inclusive, own, under = Counter(), Counter(), Counter()
    busy = idle = 0
    for path in paths:
        with open(path) as raw:
            for line in raw:
                if not line.strip():
                    continue
                frames, count = frames_of(line, lines)
                if not frames:
                    continue
                if is_idle(frames):
                    idle += count
                    continue
                busy += count
                for frame in set(frames):
                    inclusive[frame] += count
                own[frames[-1]] += count
                if below is not None:
                    called = _called_by(frames, below)
                    if called is not None:
                        under[called] += count
    lines = [f"{busy} busy samples, {idle} idle ({busy / max(busy + idle, 1):.0%} busy)",
             "inclusive  self  function (file:line)"]
    for frame, count in inclusive.most_common(top):
        lines.append(f"{count / busy:8.1%} {own[frame] / busy:6.1%}  {frame}")
    lines.append("self only:")
    for frame, count in own.most_common(top // 2):
        lines.append(f"{count / busy:8.1%}  {frame}")
    if below is not None:
        lines.append(f"below {below}, by the function it called:")
        for frame, count in under.most_common(top):
            lines.append(f"{count / busy:8.1%}  {frame}")
    return "\n".join(lines)


def _called_by(frames: list[str], caller: str) -> str | None:
    """The frame right below the outermost frame of ``caller`` (itself if innermost); None if not on the stack.

    >>> _called_by(["a (x.py)", "checked (auth.py)", "find (store.py)"], "checked")
    'find (store.py)'
    """
    for index, frame in enumerate(frames):
        if frame.startswith(caller + " ("):
            return frames[index + 1] if index + 1 < len(frames) else frame
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--lines", action="store_true", help="tell a function's lines apart")
    parser.add_argument("--below", help="also split the samples under this function by what it called (e.g. "
                                        "SecuredBlueprint.secured.<locals>.checked: the token check apart from "
                                        "the route it wraps)")
    args = parser.parse_args()
    print(summary(args.files, args.top, args.lines, args.below))


if __name__ == "__main__":
    main()
