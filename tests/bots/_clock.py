"""A fake clock for the search bots' time budgets: wall-clock assertions flake on a loaded machine."""

from types import SimpleNamespace


class StepClock:
    """Stands in for ``time.perf_counter``: every read advances it by ``step`` seconds.

    ``install(monkeypatch, module)`` makes ``module.time.perf_counter`` this clock for that module
    only. A search that honours its budget stops within a few reads past its deadline, so
    ``now`` stays within the budget plus a few steps however slow the machine is.
    """

    def __init__(self, step: float = 1 / 1024) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now

    def install(self, monkeypatch, module) -> "StepClock":
        monkeypatch.setattr(module, "time", SimpleNamespace(perf_counter=self))
        return self
