"""FPGA memory partitions: `#layout.partition<cyclic | block | complete, dims = […], factor = f>`.

The Vivado `array_partition` meaning (HeteroCL's `s.partition`): the bank dims come first,
one per partitioned dim, then the index inside a bank for every logical dim. For a dim of
extent D into f banks: cyclic `(i mod f, i floordiv f)`, block
`(i floordiv (D/f), i mod (D/f))`, complete `(i, 0)`. The bank extent is f even when a
bank is empty.

`partition_layout` builds the `Layout` on a memref's shape; `symbolic_map` is the same map
with each block dim's bank size D/f as a symbol (what `get_affine_map()` answers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass
from typing import Any

from xdsl.ir.affine import AffineExpr, AffineMap

from heterolayout.layout.constructors import DEFAULT, Common
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import floordiv, mod
from heterolayout.layout.model import Layout, format_shape
from heterolayout.layout.parameters import Syntax, format_ints, parameter

KINDS = ("cyclic", "block", "complete")

Factor = int | tuple[int, ...] | None


@dataclass(frozen=True)
class PartitionParams:
    """One kind per partitioned dim, the dims (bank dims in this order), and the factor as
    written: one for every cyclic/block dim, one per dim (a complete dim's entry is its
    extent), or None when every dim is complete. Build checked ones with `create`."""

    kinds: tuple[str, ...] = parameter(
        MISSING,
        Syntax("words", KINDS, "a partition kind (cyclic, block or complete)", positional=True),
    )
    dims: tuple[int, ...] = parameter(MISSING, Syntax("ints", shown=True))
    factor: Factor = parameter(None, Syntax("int_or_ints"))

    @staticmethod
    def create(values: Mapping[str, Any], where: str = "#layout.partition") -> PartitionParams:
        """One kind stands for every dim; a list of equal factors without a complete dim
        is one factor."""
        if values.get("dims") is None:
            raise LayoutError(f"{where}: needs dims = [<dims to partition>]")
        dims = tuple(values["dims"])
        kinds = values.get("kinds", ())
        kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
        if len(kinds) == 1:
            kinds = kinds * len(dims)
        factor = values.get("factor")
        if factor is not None and not isinstance(factor, int):
            factor = tuple(factor)
            if "complete" not in kinds and len(set(factor)) == 1 and len(factor) == len(dims):
                factor = factor[0]
        params = PartitionParams(kinds, dims, factor)
        params.check(where)
        return params

    def check(self, where: str) -> None:
        if not self.dims:
            raise LayoutError(f"{where}: dims = [] partitions nothing")
        if len(self.kinds) != len(self.dims):
            raise LayoutError(
                f"{where}: {len(self.kinds)} kinds for {len(self.dims)} dims (one kind, or one per dim)"
            )
        for kind in self.kinds:
            if kind not in KINDS:
                raise LayoutError(
                    f"{where}: unknown partition kind '{kind}' (expected cyclic, block or complete)"
                )
        for dim in self.dims:
            if dim < 0:
                raise LayoutError(f"{where}: dim {dim} is negative (dims count from 0)")
        repeated = [d for d in self.dims if self.dims.count(d) > 1]
        if repeated:
            raise LayoutError(f"{where}: dim {repeated[0]} is partitioned twice")
        self._check_factor(where)

    def _check_factor(self, where: str) -> None:
        factors = self.factor if isinstance(self.factor, tuple) else (self.factor,)
        for value in factors:
            if value == 0:
                raise LayoutError(
                    f"{where}: factor 0 is not a partition factor (HeteroCL and Allo read 0 as "
                    "'unset'); give the number of banks, or use complete"
                )
            if value is not None and value < 0:
                raise LayoutError(f"{where}: factor {value} must be positive")
        banked = [k for k in self.kinds if k != "complete"]
        if self.factor is None and banked:
            raise LayoutError(f"{where}: a {banked[0]} partition needs factor = <number of banks>")
        if isinstance(self.factor, int) and not banked:
            raise LayoutError(
                f"{where}: factor = {self.factor}: a complete partition takes no factor "
                "(it makes one bank per element)"
            )
        if isinstance(self.factor, tuple) and len(self.factor) != len(self.dims):
            raise LayoutError(
                f"{where}: factor = {format_ints(self.factor)} has {len(self.factor)} entries for "
                f"{len(self.dims)} dims (one factor, or one per dim)"
            )

    @property
    def rank(self) -> int:
        """The smallest rank the partitioned dims fit in."""
        return max(self.dims) + 1

    def factors(
        self, shape: Sequence[int | None], where: str = "#layout.partition"
    ) -> tuple[int, ...]:
        """The number of banks of every partitioned dim (a complete dim: its extent)."""
        result = []
        for position, (kind, dim) in enumerate(zip(self.kinds, self.dims, strict=True)):
            if dim >= len(shape):
                raise LayoutError(
                    f"{where}: dim {dim} is out of range for the {len(shape)}-D shape "
                    f"{format_shape(shape)} (dims count from 0)"
                )
            extent = shape[dim]
            if extent is None:
                raise LayoutError(
                    f"{where}: dim {dim} is dynamic ('?'); a partitioned dim needs a static extent"
                )
            given = self.factor[position] if isinstance(self.factor, tuple) else self.factor
            if kind == "complete":
                if isinstance(self.factor, tuple) and given != extent:
                    raise LayoutError(
                        f"{where}: complete partition of dim {dim} makes {extent} banks, "
                        f"but its factor entry is {given}"
                    )
                result.append(extent)
                continue
            assert given is not None
            if kind == "block" and extent % given:
                raise LayoutError(
                    f"{where}: block factor {given} does not divide dim {dim} of extent {extent} "
                    "(Vivado gives the remainder to the last bank, which no affine map can say; "
                    "use a dividing factor or cyclic)"
                )
            result.append(given)
        return tuple(result)


def _bank_and_index(
    kind: str, d: AffineExpr, factor: int | None, size: AffineExpr | int
) -> tuple[AffineExpr, AffineExpr]:
    """(bank, index inside the bank) of one partitioned dim; `size` is the bank size of a
    block dim (a constant folds the trivial divisions away, a symbol keeps them)."""
    if kind == "complete":
        return d, AffineExpr.constant(0)
    if kind == "cyclic":
        assert factor is not None
        if factor == 1:
            return AffineExpr.constant(0), d
        return d % factor, d // factor
    if isinstance(size, int):
        return (d, AffineExpr.constant(0)) if size == 1 else (d // size, d % size)
    return floordiv(d, size), mod(d, size)


def symbolic_map(params: PartitionParams) -> AffineMap:
    """The index map for any rank-`params.rank` shape: symbol k is the bank size D/f of the
    k-th block dim; other dims need no shape."""
    banks, inner, symbols = [], {}, 0
    for position, (kind, dim) in enumerate(zip(params.kinds, params.dims, strict=True)):
        factor = params.factor[position] if isinstance(params.factor, tuple) else params.factor
        size: AffineExpr | int = 1
        if kind == "block":
            size, symbols = AffineExpr.symbol(symbols), symbols + 1
        bank, within = _bank_and_index(kind, AffineExpr.dimension(dim), factor, size)
        banks.append(bank)
        inner[dim] = within
    rank = params.rank
    results = banks + [inner.get(d, AffineExpr.dimension(d)) for d in range(rank)]
    return AffineMap(rank, symbols, tuple(results))


def map_symbols(params: PartitionParams, shape: Sequence[int | None]) -> tuple[int, ...]:
    """The values of `symbolic_map`'s symbols on a shape."""
    factors = params.factors(shape)
    return tuple(
        shape[dim] // factor  # type: ignore[operator]
        for kind, dim, factor in zip(params.kinds, params.dims, factors, strict=True)
        if kind == "block"
    )


def partition_layout(
    params: PartitionParams, shape: Sequence[int | None], common: Common = DEFAULT
) -> Layout:
    """The layout of `#layout.partition` on a memref's shape."""
    params.check(common.where)
    factors = params.factors(shape, common.where)
    banks: list[AffineExpr] = []
    inner: dict[int, tuple[AffineExpr, int]] = {}
    for kind, dim, factor in zip(params.kinds, params.dims, factors, strict=True):
        extent = shape[dim]
        assert extent is not None
        size = {"complete": 1, "cyclic": -(-extent // factor), "block": extent // factor}[kind]
        bank, within = _bank_and_index(kind, AffineExpr.dimension(dim), factor, size)
        banks.append(bank)
        inner[dim] = (within, size)
    results = list(banks)
    physical: list[int | None] = list(factors)
    for dim, extent in enumerate(shape):
        within, size = inner.get(dim, (AffineExpr.dimension(dim), extent))  # type: ignore[arg-type]
        results.append(within)
        physical.append(size)
    common.check_physical_shape(physical, "#layout.partition defines")
    return common.create(shape, AffineMap(len(shape), 0, tuple(results)), physical, injective=True)
