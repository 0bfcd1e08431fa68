"""What a sweep keeps as its designs come in, batch by batch and in any order: the counts, the
refusals grouped by path, the Pareto front and the best design per objective. Only the front and
the best are held (plus every design when asked), so a sweep of millions costs the memory of
its front."""

from dataclasses import dataclass, field

from sweeps.solver.engine import DesignResult
from sweeps.solver.pareto import best_by_objective, best_order, pareto_front, undominated
from sweeps.solver.spec import SweepSpec


@dataclass
class Refusals:
    count: int = 0
    example: str = ""
    """The message of the first design refused there (messages differ in their numbers)."""


@dataclass
class SweepSummary:
    spec: SweepSpec
    keep_designs: bool = False
    designs: int = 0
    feasible: int = 0
    refusals: dict[str, Refusals] = field(default_factory=dict)
    """By dotted path: a scenario path or a constraint's bound, most designs first once sorted."""
    front: list[DesignResult] = field(default_factory=list)
    best: list[DesignResult | None] = field(default_factory=list)
    kept: list[DesignResult] = field(default_factory=list)

    def __post_init__(self):
        self.best = [None] * len(self.spec.objectives)

    def objective_values(self, design: DesignResult) -> list[float]:
        return [design.figures[objective.key] for objective in self.spec.objectives]

    def add(self, results: list[DesignResult]) -> None:
        self.designs += len(results)
        feasible = [result for result in results if result.feasible]
        self.feasible += len(feasible)
        for result in results:
            if not result.feasible:
                refusals = self.refusals.setdefault(result.refused_at, Refusals(example=result.reason or ""))
                refusals.count += 1
        if self.keep_designs:
            self.kept.extend(results)
        if not feasible:
            return
        signs = [objective.sign for objective in self.spec.objectives]
        if self.front:  # a design the front dominates is on no later front, nor best (`best_order`)
            feasible = [feasible[index] for index in undominated(
                [self.objective_values(design) for design in feasible],
                [self.objective_values(design) for design in self.front], signs)]
        candidates = sorted(self.front + feasible, key=lambda design: design.index)
        points = [self.objective_values(design) for design in candidates]
        self.front = [candidates[index] for index in pareto_front(points, signs)]
        for position, index in enumerate(best_by_objective(points, signs)):
            self._keep_best(position, candidates[index])

    def _keep_best(self, position: int, design: DesignResult) -> None:
        """The best so far by `best_order`, then the design of the lowest number (the order
        batches finish in does not change the answer)."""
        current = self.best[position]
        signs = [objective.sign for objective in self.spec.objectives]

        def rank(candidate: DesignResult) -> tuple:
            return best_order(self.objective_values(candidate), signs, position), candidate.index

        if current is None or rank(design) < rank(current):
            self.best[position] = design

    def sorted_refusals(self) -> list[tuple[str, Refusals]]:
        return sorted(self.refusals.items(), key=lambda item: (-item[1].count, item[0]))
