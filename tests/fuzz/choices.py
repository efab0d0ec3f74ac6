"""The random choices a generator makes, from a seed or from hypothesis.

The generators of `tests/fuzz` (and the strategies built on them) take a `Choices`, so one
generator serves both the seeded fuzzer (`SeededChoices`: one integer seed reproduces a
case) and the hypothesis tests (`DrawnChoices`: hypothesis draws, so it can shrink).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")


class Choices(Protocol):
    def integer(self, low: int, high: int) -> int:
        """An integer in [low, high]."""
        ...

    def choice(self, options: Sequence[T]) -> T: ...

    def boolean(self) -> bool: ...

    def permutation(self, items: Sequence[T]) -> list[T]: ...


class SeededChoices:
    """Choices from `random.Random(seed)`: the same seed, the same choices."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.random.randint(low, high)

    def choice(self, options: Sequence[T]) -> T:
        assert options, "choice from no options"
        return options[self.random.randrange(len(options))]

    def boolean(self) -> bool:
        return self.random.random() < 0.5

    def permutation(self, items: Sequence[T]) -> list[T]:
        return self.random.sample(list(items), len(items))


class DrawnChoices:
    """Choices drawn by hypothesis inside an `st.composite`."""

    def __init__(self, draw: Any) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return int(self.draw(st.integers(low, high)))

    def choice(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(list(options)))  # type: ignore[no-any-return]

    def boolean(self) -> bool:
        return bool(self.draw(st.booleans()))

    def permutation(self, items: Sequence[T]) -> list[T]:
        return list(self.draw(st.permutations(list(items))))


def chance(choices: Choices, percent: int) -> bool:
    """True with probability `percent`/100."""
    return choices.integer(0, 99) < percent
