"""A progress bar on a text stream (stderr): designs done of all, and the rate. tqdm is not in
the project's environment, and this is all a sweep needs."""

import time
from collections.abc import Callable

BAR_WIDTH = 30
REDRAW_S = 0.2
"""Redraw at most five times a second: a fast sweep finishes thousands of designs a second."""


class ProgressBar:
    """Drawn with `write` (text without a line end) and `flush`."""

    def __init__(self, write: Callable[[str], object], flush: Callable[[], object], total: int):
        self.write, self.flush, self.total = write, flush, total
        self.done = 0
        self.started = time.perf_counter()
        self.drawn = 0.0

    def advance(self, count: int) -> None:
        self.done += count
        now = time.perf_counter()
        if now - self.drawn >= REDRAW_S or self.done >= self.total:
            self.drawn = now
            self.draw(now)

    def draw(self, now: float) -> None:
        share = self.done / self.total if self.total else 1.0
        filled = round(share * BAR_WIDTH)
        rate = self.done / max(now - self.started, 1e-9)
        self.write(f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {self.done:,}/{self.total:,} designs, {rate:,.0f}/s")
        self.flush()

    def close(self) -> float:
        """End the bar's line; the seconds since it started."""
        self.write("\n")
        self.flush()
        return time.perf_counter() - self.started
