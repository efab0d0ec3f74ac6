"""Target layouts: Sophgo TPU local memory (`#layout.tpu`) and FPGA memory partitions
(`#layout.partition`).

Both are quasi-affine maps, so each is a constructor of a plain `Layout`: nothing
downstream (numpy pack/unpack, layout-lower, the interpreter) tells them from other maps.
The Layout keeps the spec that built it (`Layout.target`, provenance like `dim_names`),
which is how the notations and `layout-explain` name it.

TPU: a logical NCHW tensor spread over X lanes (NPUs). Channel c lives on lane
(Q + c) mod X at offset n·Ns + ((Q + c) floordiv X)·Cs + h·Hs + w·Ws; physical shape
(X, L). The matrix layout views an N×M matrix as (N, ceil(M/W), 1, W); the 4N / 2N / 2IC
storage modes block N (or I) by 4 or 2 into one 32- or 64-bit word, as an innermost
physical dim that `pack` may fold into a container.

Partition (Vivado `array_partition`, HeteroCL `s.partition`): bank dims first, then the
index inside a bank for every logical dim; cyclic (i mod f, i floordiv f), block
(i floordiv (D/f), i mod (D/f)), complete (i, 0).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from xdsl.ir.affine import AffineExpr, AffineMap

from heterolayout.layout.attribute_text import (
    AttributeText,
    parse_int_list,
    split_top_level,
    unquote,
)
from heterolayout.layout.element_types import ElementType
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout, format_shape
from heterolayout.layout.packing import Packing

TARGET_KINDS = ("tpu", "partition")
COMMON_PARAMETERS = ("pad", "pack", "bit_order")
TPU_PARAMETERS = ("lanes", "start", "stride", "lmem", "address", "matrix", "mode")
PARTITION_PARAMETERS = ("dims", "factor")
PARTITION_KINDS = ("cyclic", "block", "complete")
TPU_STRIDE_KINDS = ("aligned", "compact")
TPU_MODES = {"4N": 4, "2N": 2, "2IC": 2}
"""Storage mode → how many elements of N (or I) one word holds."""
ALIGNMENT_BYTES = 128
COMPACT_ADDRESS_BYTES = 4

_SPELLING = re.compile(r"^(tpu|partition)\s*<")
_PARAM = re.compile(r"^([a-z_]+)\s*[=:]\s*(.+)$", re.S)

Stride = str | tuple[int, int, int, int]
Shape = tuple[int | None, ...]


def is_target_spec(text: str) -> bool:
    """`tpu<…>` or `partition<…>`: the attribute text without `#layout.`."""
    return _SPELLING.match(text) is not None


def channels_per_lane(lanes: int, start: int, channels: int) -> int:
    """ceil((Q + C) / X): the channel rows a tensor starting on lane Q takes on every lane
    (the seed's `okk_channle_num_per_npu`)."""
    return -(-(start + channels) // lanes)


def split_address(address: int, lmem: int) -> tuple[int, int]:
    """A = Q·S + R: the lane a local-memory address is on, and the byte offset inside it."""
    if lmem <= 0:
        raise LayoutError(f"lmem = {lmem}: the bytes per lane must be positive")
    if address < 0:
        raise LayoutError(f"address {address} is negative")
    return divmod(address, lmem)


# ---- Sophgo TPU local memory ------------------------------------------------------------------
@dataclass(frozen=True)
class TpuSpec:
    """The parameters of `#layout.tpu<…>`, normalized: `start` is always set (from `address`
    when only that is given)."""

    lanes: int
    start: int = 0
    stride: Stride = "aligned"
    lmem: int | None = None
    address: int | None = None
    matrix: int | None = None
    mode: str | None = None

    @staticmethod
    def create(
        lanes: int | None,
        start: int | None = None,
        stride: Stride = "aligned",
        lmem: int | None = None,
        address: int | None = None,
        matrix: int | None = None,
        mode: str | None = None,
        *,
        where: str = "#layout.tpu",
    ) -> TpuSpec:
        """Normalize and check what needs no shape."""
        if lanes is None:
            raise LayoutError(f"{where}: needs lanes = <number of lanes (NPUs)>")
        if mode is not None:
            canonical = {m.upper(): m for m in TPU_MODES}.get(mode.upper())
            if canonical is None:
                raise LayoutError(
                    f'{where}: mode = "{mode}" is not a storage mode (expected "4N", "2N" or "2IC")'
                )
            mode = canonical
        if start is None:
            start = 0 if address is None or lmem is None or lmem <= 0 else address // lmem
        if not isinstance(stride, str):
            stride = tuple(stride)  # type: ignore[assignment]
        spec = TpuSpec(lanes, start, stride, lmem, address, matrix, mode)
        spec.check(where)
        return spec

    @property
    def block(self) -> int:
        """Elements of N (or I) per word: 4 for 4N, 2 for 2N and 2IC, else 1."""
        return TPU_MODES[self.mode] if self.mode else 1

    @property
    def rank(self) -> int:
        return 2 if self.matrix is not None else 4

    @property
    def dim_names(self) -> str:
        if self.matrix is not None:
            return "NM"
        return "IOHW" if self.mode == "2IC" else "NCHW"

    def check(self, where: str) -> None:
        if self.lanes <= 0:
            raise LayoutError(f"{where}: lanes = {self.lanes} must be positive")
        if isinstance(self.stride, str):
            if self.stride not in TPU_STRIDE_KINDS:
                raise LayoutError(
                    f"{where}: stride = {self.stride} (expected aligned, compact or [Ns, Cs, Hs, Ws])"
                )
        else:
            if len(self.stride) != 4:
                raise LayoutError(
                    f"{where}: stride = {_int_list(self.stride)} needs 4 strides [Ns, Cs, Hs, Ws]"
                )
            negative = [s for s in self.stride if s < 0]
            if negative:
                raise LayoutError(
                    f"{where}: stride = {_int_list(self.stride)}: stride {negative[0]} is negative"
                )
        if self.lmem is not None and self.lmem <= 0:
            raise LayoutError(f"{where}: lmem = {self.lmem} (bytes per lane) must be positive")
        if self.address is not None:
            if self.lmem is None:
                raise LayoutError(
                    f"{where}: address = {self.address} needs lmem = <bytes per lane> "
                    "(an address is lane · lmem + offset)"
                )
            if not 0 <= self.address < self.lanes * self.lmem:
                raise LayoutError(
                    f"{where}: address {self.address} is outside local memory "
                    f"[0, {self.lanes * self.lmem - 1}] (lanes = {self.lanes}, lmem = {self.lmem})"
                )
            lane = self.address // self.lmem
            if lane != self.start:
                raise LayoutError(
                    f"{where}: address {self.address} is on lane {lane} (address floordiv lmem), "
                    f"but start = {self.start}"
                )
        if not 0 <= self.start < self.lanes:
            raise LayoutError(
                f"{where}: start lane {self.start} is out of range: lanes are 0 to {self.lanes - 1} "
                f"(lanes = {self.lanes})"
            )
        if self.matrix is not None and self.matrix <= 0:
            raise LayoutError(
                f"{where}: matrix = {self.matrix} (the column block W) must be positive"
            )

    def text(self) -> str:
        """The parameters as `#layout.tpu<…>` writes them (pad and pack aside)."""
        stride = self.stride if isinstance(self.stride, str) else _int_list(self.stride)
        parts = [f"lanes = {self.lanes}", f"start = {self.start}", f"stride = {stride}"]
        if self.lmem is not None:
            parts.append(f"lmem = {self.lmem}")
        if self.address is not None:
            parts.append(f"address = {self.address}")
        if self.matrix is not None:
            parts.append(f"matrix = {self.matrix}")
        if self.mode is not None:
            parts.append(f'mode = "{self.mode}"')
        return ", ".join(parts)

    # ---- the 4-D view -------------------------------------------------------------------
    def view_shape(
        self, shape: Sequence[int | None], where: str = "#layout.tpu"
    ) -> tuple[int, int, int, int]:
        """(N, C, H, W) as the strides count them: after the matrix view and the mode's
        words (N becomes ceil(N / block))."""
        self._check_shape(shape, where)
        if self.matrix is not None:
            rows, columns = shape
            assert self.matrix is not None and columns is not None and rows is not None
            n, c, h, w = rows, -(-columns // self.matrix), 1, self.matrix
        else:
            n, c, h, w = shape  # type: ignore[misc]
        return -(-n // self.block), c, h, w  # type: ignore[operator]

    def word_bytes(self, dtype: ElementType | None, what: str, where: str) -> int:
        """Bytes of one stored word: the element, or the mode's block of elements."""
        if dtype is None:
            raise LayoutError(f"{where}: {what} needs the element type (dtype)")
        return dtype.nbytes * self.block

    def strides(
        self, shape: Sequence[int | None], dtype: ElementType | None, where: str = "#layout.tpu"
    ) -> tuple[int, int, int, int]:
        """(Ns, Cs, Hs, Ws) in words: explicit, or as `aligned` / `compact` define them."""
        if not isinstance(self.stride, str):
            return self.stride
        _, c, h, w = self.view_shape(shape, where)
        plane = h * w
        if self.stride == "aligned":
            word = self.word_bytes(dtype, "stride = aligned", where)
            if ALIGNMENT_BYTES % word:
                raise LayoutError(
                    f"{where}: stride = aligned needs a word that divides {ALIGNMENT_BYTES} bytes, "
                    f"not {word} bytes"
                )
            per_line = ALIGNMENT_BYTES // word
            channel = -(-plane // per_line) * per_line
        else:
            channel = plane
        return channel * channels_per_lane(self.lanes, self.start, c), channel, w, 1

    def layout(
        self,
        shape: Sequence[int | None],
        *,
        dtype: ElementType | None = None,
        pad: int | float = 0,
        packing: Packing | None = None,
        where: str = "#layout.tpu",
    ) -> Layout:
        self.check(where)
        self._check_mode(dtype, packing, where)
        n_words, channels, height, width = self.view_shape(shape, where)
        strides = self.strides(shape, dtype, where)
        rows = channels_per_lane(self.lanes, self.start, channels)
        view = self._view_exprs(shape)
        lane, offset = self._lane_and_offset(view, (n_words, channels, height, width), strides)
        reach = sum(
            (extent - 1) * stride
            for extent, stride in zip((n_words, rows, height, width), strides, strict=True)
        )
        length = n_words * strides[0]
        if not isinstance(self.stride, str):
            length = max(length, reach + 1)
        base, lane_slots = 0, length
        if self.lmem is not None:
            word = self.word_bytes(dtype, "lmem", where)
            base, lane_slots = self._local_memory(word, length, where)
            if base:
                offset = offset + base
        results = [lane, offset]
        physical = [self.lanes, lane_slots]
        if self.block > 1:
            results.append(view[4])
            physical.append(self.block)
        layout = Layout.create(
            shape,
            AffineMap(len(shape), 0, tuple(results)),
            physical,
            pad=pad,
            dtype=dtype,
            packing=packing,
            dim_names=self.dim_names,
            where=where,
            injective=True,
        )
        if not isinstance(self.stride, str):
            _check_no_overlap(layout, self, where)
        return replace(layout, target=self)

    def _check_shape(self, shape: Sequence[int | None], where: str) -> None:
        if len(shape) != self.rank:
            if self.matrix is not None:
                raise LayoutError(
                    f"{where}: the matrix layout needs a 2-D N×M memref, not {format_shape(tuple(shape))}"
                )
            names = "IOHW (a conv weight)" if self.mode == "2IC" else "NCHW"
            raise LayoutError(
                f"{where}: #layout.tpu needs a 4-D {names} memref, not {format_shape(tuple(shape))} "
                f"(rank {len(shape)})"
            )
        if None in shape:
            raise LayoutError(
                f"{where}: #layout.tpu needs a static shape, not {format_shape(tuple(shape))}"
            )
        if self.matrix is not None and self.matrix > shape[1]:  # type: ignore[operator]
            raise LayoutError(
                f"{where}: matrix = {self.matrix} is wider than the matrix's {shape[1]} columns "
                "(W lies in [1, M])"
            )

    def _check_mode(self, dtype: ElementType | None, packing: Packing | None, where: str) -> None:
        if packing is not None and self.mode is None:
            raise LayoutError(
                f"{where}: pack = {packing.container} needs a storage mode "
                '(mode = "4N", "2N" or "2IC"): it packs the words of that mode'
            )
        if self.mode is None or dtype is None:
            return
        wanted = {
            "4N": (dtype.kind == "int" and dtype.bits == 8, "an 8-bit integer (int8 or uint8)"),
            "2N": (dtype.kind == "int" and dtype.bits == 16, "a 16-bit integer (int16 or uint16)"),
            "2IC": (dtype.name == "f32", "f32"),
        }
        fits, what = wanted[self.mode]
        if not fits:
            raise LayoutError(f'{where}: mode = "{self.mode}" stores {what}, not {dtype.name}')

    def _view_exprs(self, shape: Sequence[int | None]) -> tuple[AffineExpr | None, ...]:
        """n (words), c, h, w and the position inside a word, as expressions of the logical
        dims; None where the value is always 0."""
        d = [AffineExpr.dimension(i) for i in range(len(shape))]
        if self.matrix is not None:
            columns: int = shape[1]  # type: ignore[assignment]
            width = self.matrix
            n: AffineExpr | None = d[0]
            if width >= columns:
                c, w = None, d[1]
            elif width == 1:
                c, w = d[1], None
            else:
                c, w = d[1] // width, d[1] % width
            h = None
            extent = shape[0]
        else:
            n, c, h, w = d
            extent = shape[0]
        part: AffineExpr | None = None
        if self.block > 1:
            part = n if extent <= self.block else n % self.block  # type: ignore[operator]
            n = None if extent <= self.block else n // self.block  # type: ignore[operator]
        sizes = self.view_shape(shape)
        return (
            n if sizes[0] > 1 else None,
            c if sizes[1] > 1 else None,
            h if sizes[2] > 1 else None,
            w if sizes[3] > 1 else None,
            part,
        )

    def _lane_and_offset(
        self,
        view: tuple[AffineExpr | None, ...],
        sizes: tuple[int, int, int, int],
        strides: tuple[int, int, int, int],
    ) -> tuple[AffineExpr, AffineExpr]:
        n, c, h, w, _ = view
        lanes, start = self.lanes, self.start
        rows = channels_per_lane(lanes, start, sizes[1])
        if c is None:
            lane: AffineExpr = AffineExpr.constant(start)
            row: AffineExpr | None = None
        else:
            shifted = c + start if start else c
            if lanes == 1:
                lane, row = AffineExpr.constant(0), shifted
            elif rows == 1:
                lane, row = shifted, None
            else:
                lane, row = shifted % lanes, shifted // lanes
        terms = [
            value * stride if stride != 1 else value
            for value, stride in zip((n, row, h, w), strides, strict=True)
            if value is not None and stride != 0
        ]
        offset = terms[0] if terms else AffineExpr.constant(0)
        for term in terms[1:]:
            offset = offset + term
        return lane, offset

    def _local_memory(self, word: int, length: int, where: str) -> tuple[int, int]:
        """(offset of the tensor inside its lane, slots per lane) in words, from lmem and address."""
        assert self.lmem is not None
        if self.lmem % word:
            raise LayoutError(
                f"{where}: lmem = {self.lmem} bytes is not a whole number of {word}-byte words"
            )
        base = 0
        if self.address is not None:
            required = {"aligned": ALIGNMENT_BYTES, "compact": COMPACT_ADDRESS_BYTES}.get(
                self.stride if isinstance(self.stride, str) else "", word
            )
            if self.address % required:
                layout_name = self.stride if isinstance(self.stride, str) else f"a {word}-byte word"
                raise LayoutError(
                    f"{where}: address {self.address} is not a multiple of {required} bytes, "
                    f"as {layout_name} needs"
                )
            base = (self.address % self.lmem) // word
        slots = self.lmem // word
        if base + length > slots:
            raise LayoutError(
                f"{where}: the tensor needs {length} words ({length * word} bytes) per lane from "
                f"offset {base * word}, more than lmem = {self.lmem} bytes"
            )
        return base, slots


def _check_no_overlap(layout: Layout, spec: TpuSpec, where: str) -> None:
    offsets = layout.offsets().ravel()
    order = np.argsort(offsets, kind="stable")
    ordered = offsets[order]
    clashes = np.flatnonzero(ordered[1:] == ordered[:-1])
    if not clashes.size:
        return
    shape = layout.logical_shape
    first, second = (
        tuple(int(i) for i in np.unravel_index(order[k], shape))  # type: ignore[arg-type]
        for k in (clashes[0], clashes[0] + 1)
    )
    place = layout.physical_index(first)
    raise LayoutError(
        f"{where}: stride = {_int_list(spec.stride)} overlaps within lane {place[0]}: "  # type: ignore[arg-type]
        f"{_index(first)} and {_index(second)} are both at offset {place[1]}"
    )


# ---- FPGA partitions --------------------------------------------------------------------------
@dataclass(frozen=True)
class PartitionSpec:
    """The parameters of `#layout.partition<…>`: one kind per partitioned dim, the dims (bank
    dims in this order), and the factor as written: one for every cyclic/block dim, one per
    dim (a complete dim's entry is its extent), or None when every dim is complete."""

    kinds: tuple[str, ...]
    dims: tuple[int, ...]
    factor: int | tuple[int, ...] | None = None

    @staticmethod
    def create(
        kinds: str | Sequence[str],
        dims: Sequence[int] | None,
        factor: int | Sequence[int] | None = None,
        *,
        where: str = "#layout.partition",
    ) -> PartitionSpec:
        if dims is None:
            raise LayoutError(f"{where}: needs dims = [<dims to partition>]")
        dims = tuple(dims)
        kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
        if len(kinds) == 1:
            kinds = kinds * len(dims)
        if not isinstance(factor, (int, type(None))):
            factor = tuple(factor)
            if "complete" not in kinds and len(set(factor)) == 1 and len(factor) == len(dims):
                factor = factor[0]
        spec = PartitionSpec(kinds, dims, factor)
        spec.check(where)
        return spec

    def check(self, where: str) -> None:
        if not self.dims:
            raise LayoutError(f"{where}: dims = [] partitions nothing")
        if len(self.kinds) != len(self.dims):
            raise LayoutError(
                f"{where}: {len(self.kinds)} kinds for {len(self.dims)} dims (one kind, or one per dim)"
            )
        for kind in self.kinds:
            if kind not in PARTITION_KINDS:
                raise LayoutError(
                    f"{where}: unknown partition kind '{kind}' (expected cyclic, block or complete)"
                )
        for dim in self.dims:
            if dim < 0:
                raise LayoutError(f"{where}: dim {dim} is negative (dims count from 0)")
        repeated = [d for d in self.dims if self.dims.count(d) > 1]
        if repeated:
            raise LayoutError(f"{where}: dim {repeated[0]} is partitioned twice")
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
                f"{where}: factor = {_int_list(self.factor)} has {len(self.factor)} entries for "
                f"{len(self.dims)} dims (one factor, or one per dim)"
            )

    def text(self) -> str:
        kinds = self.kinds[0] if len(set(self.kinds)) == 1 else "[" + ", ".join(self.kinds) + "]"
        parts = [kinds, f"dims = {_int_list(self.dims)}"]
        if isinstance(self.factor, int):
            parts.append(f"factor = {self.factor}")
        elif self.factor is not None:
            parts.append(f"factor = {_int_list(self.factor)}")
        return ", ".join(parts)

    def factors(
        self, shape: Sequence[int | None], where: str = "#layout.partition"
    ) -> tuple[int, ...]:
        """The number of banks of every partitioned dim (a complete dim: its extent)."""
        result = []
        for position, (kind, dim) in enumerate(zip(self.kinds, self.dims, strict=True)):
            if dim >= len(shape):
                raise LayoutError(
                    f"{where}: dim {dim} is out of range for the {len(shape)}-D shape "
                    f"{format_shape(tuple(shape))} (dims count from 0)"
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

    def layout(
        self,
        shape: Sequence[int | None],
        *,
        dtype: ElementType | None = None,
        pad: int | float = 0,
        packing: Packing | None = None,
        where: str = "#layout.partition",
    ) -> Layout:
        self.check(where)
        factors = self.factors(shape, where)
        banks: list[AffineExpr] = []
        bank_extents: list[int] = []
        inner: dict[int, tuple[AffineExpr, int]] = {}
        for kind, dim, factor in zip(self.kinds, self.dims, factors, strict=True):
            d = AffineExpr.dimension(dim)
            extent: int = shape[dim]  # type: ignore[assignment]
            if kind == "complete":
                bank, within, size = d, AffineExpr.constant(0), 1
            elif kind == "cyclic":
                bank = d % factor if factor > 1 else AffineExpr.constant(0)
                within = d // factor if factor > 1 else d
                size = -(-extent // factor)
            else:
                size = extent // factor
                bank = d // size if size > 1 else d
                within = d % size if size > 1 else AffineExpr.constant(0)
            banks.append(bank)
            bank_extents.append(factor)
            inner[dim] = (within, size)
        results = list(banks)
        physical: list[int | None] = list(bank_extents)
        for dim, extent in enumerate(shape):
            within, size = inner.get(dim, (AffineExpr.dimension(dim), extent))  # type: ignore[arg-type]
            results.append(within)
            physical.append(size)
        layout = Layout.create(
            shape,
            AffineMap(len(shape), 0, tuple(results)),
            physical,
            pad=pad,
            dtype=dtype,
            packing=packing,
            where=where,
            injective=True,
        )
        return replace(layout, target=self)


TargetSpec = TpuSpec | PartitionSpec


# ---- text ------------------------------------------------------------------------------------
def target_attribute(attribute: AttributeText, where: str) -> AttributeText:
    """`#layout.tpu` / `#layout.partition` attribute text with every `key = value` among the
    parameters (the generic split takes the first part for the body) and the names checked."""
    kind, body, params = attribute.kind, attribute.body, dict(attribute.params)
    match = _PARAM.match(body)
    if match:
        key, value = match.group(1), match.group(2).strip()
        if key in params:
            raise LayoutError(f"{where}: parameter '{key}' is given twice")
        params = {key: value, **params}
        body = ""
    own = TPU_PARAMETERS if kind == "tpu" else PARTITION_PARAMETERS
    for key in params:
        if key not in own and key not in COMMON_PARAMETERS:
            raise LayoutError(
                f"{where}: unknown parameter '{key}' (expected {', '.join((*own, *COMMON_PARAMETERS))})"
            )
    if kind == "tpu" and body:
        raise LayoutError(
            f"{where}: '{body}' is not a parameter (expected lanes = X, start = Q, …)"
        )
    if kind == "partition" and not body:
        raise LayoutError(
            f"{where}: #layout.partition needs its kind first (cyclic, block or complete)"
        )
    return AttributeText(kind, body, params)


def parse_target(kind: str, body: str, params: dict[str, str], where: str) -> TargetSpec:
    """The spec of `#layout.<kind><body, params…>` (the parameters as text)."""
    if kind == "tpu":
        stride: Stride = "aligned"
        if "stride" in params:
            stride = _parse_stride(params["stride"], where)
        return TpuSpec.create(
            _optional_int(params, "lanes", where),
            _optional_int(params, "start", where),
            stride,
            _optional_int(params, "lmem", where),
            _optional_int(params, "address", where),
            _optional_int(params, "matrix", where),
            _parse_mode(params["mode"], where) if "mode" in params else None,
            where=where,
        )
    kinds: str | list[str] = body.strip()
    if isinstance(kinds, str) and kinds.startswith("["):
        if not kinds.endswith("]"):
            raise LayoutError(f"{where}: expected a list of kinds [cyclic, block, …], got {kinds}")
        kinds = [k.strip() for k in split_top_level(kinds[1:-1])]
    dims = _int_values(params["dims"], "dims", where) if "dims" in params else None
    factor: int | list[int] | None = None
    if "factor" in params:
        text = params["factor"].strip()
        factor = (
            _int_values(text, "factor", where)
            if text.startswith("[")
            else _int(text, "factor", where)
        )
    return PartitionSpec.create(kinds, dims, factor, where=where)


def target_layout(
    kind: str,
    body: str,
    params: dict[str, str],
    logical: Shape,
    explicit_shape: Shape | None,
    common: dict,
) -> Layout:
    """`parse_layout`'s branch for the target kinds (`common`: pad, dtype, packing, where)."""
    where = common["where"]
    spec = parse_target(kind, body, params, where)
    layout = spec.layout(logical, **common)
    if explicit_shape is not None and tuple(explicit_shape) != layout.physical_shape:
        raise LayoutError(
            f"{where}: physical shape {format_shape(tuple(explicit_shape))} contradicts the "
            f"physical shape {format_shape(layout.physical_shape)} that #layout.{kind} defines"
        )
    return layout


def _parse_stride(text: str, where: str) -> Stride:
    text = text.strip()
    if text in TPU_STRIDE_KINDS:
        return text
    if not text.startswith("["):
        raise LayoutError(
            f"{where}: stride = {text} (expected aligned, compact or [Ns, Cs, Hs, Ws])"
        )
    return tuple(_int_values(text, "stride", where))  # type: ignore[return-value]


def _parse_mode(text: str, where: str) -> str:
    text = text.strip()
    return unquote(text, where) if text.startswith('"') else text


def _optional_int(params: dict[str, str], key: str, where: str) -> int | None:
    return _int(params[key], key, where) if key in params else None


def _int(text: str, key: str, where: str) -> int:
    try:
        return int(text.strip(), 0)
    except ValueError:
        raise LayoutError(f"{where}: {key} = {text.strip()} is not an integer") from None


def _int_values(text: str, key: str, where: str) -> list[int]:
    values = parse_int_list(text, f"{where}: {key}")
    if None in values:
        raise LayoutError(f"{where}: {key} = {text.strip()}: '?' is not allowed here")
    return values  # type: ignore[return-value]


def _int_list(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _count_of(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _index(index: Sequence[int]) -> str:
    return "(" + ",".join(str(v) for v in index) + ")"


# ---- provenance ------------------------------------------------------------------------------
def recognize(layout: Layout) -> TargetSpec | None:
    """The TPU or partition spec that built `layout`, or None (a layout parsed from another
    notation keeps that notation, even when its map happens to be a target layout's)."""
    return layout.target


def target_text(layout: Layout, kind: str) -> str | None:
    """The body of `#layout.<kind><…>` for `layout` (no pad or pack), or None."""
    spec = layout.target
    if kind == "tpu" and isinstance(spec, TpuSpec):
        return spec.text()
    if kind == "partition" and isinstance(spec, PartitionSpec):
        return spec.text()
    return None


# ---- placement (layout-explain) -----------------------------------------------------------------
@dataclass(frozen=True)
class Placement:
    """Where a target layout puts things: its leading `unit_dims` physical dims number the
    lanes (TPU) or banks (partition); the rest is the place inside one."""

    spec: TargetSpec
    unit: str
    unit_dims: int
    unit_shape: tuple[int, ...]
    slots_per_unit: int

    @property
    def units(self) -> int:
        return math.prod(self.unit_shape)

    def unit_label(self, unit: int) -> str:
        """`lane 2`, `bank 3`, or `bank (1,0)` for several bank dims."""
        if self.unit_dims == 1:
            return f"{self.unit} {unit}"
        return f"{self.unit} {_index(np.unravel_index(unit, self.unit_shape))}"  # type: ignore[arg-type]

    def element_counts(self, layout: Layout) -> np.ndarray:
        """Logical elements held by each lane or bank (flat unit order)."""
        units = layout.offsets().ravel() // self.slots_per_unit
        return np.bincount(units, minlength=self.units)

    def summary(self, layout: Layout) -> str:
        """One line: what the target parameters make of this shape."""
        spec, shape = self.spec, layout.logical_shape
        if isinstance(spec, PartitionSpec):
            factors = spec.factors(shape)
            parts = [
                f"{kind} dim {dim} into {_count_of(factor, 'bank')}"
                for kind, dim, factor in zip(spec.kinds, spec.dims, factors, strict=True)
            ]
            return f"FPGA partition into {_count_of(self.units, 'bank')}: " + ", ".join(parts)
        n, c, h, w = spec.view_shape(shape)
        rows = channels_per_lane(spec.lanes, spec.start, c)
        strides = spec.strides(shape, layout.dtype)
        unit = "words" if spec.block > 1 else "elements"
        parts = [f"Sophgo TPU local memory, {_count_of(spec.lanes, 'lane')} (NPUs)"]
        if spec.matrix is not None:
            parts.append(
                f"the {shape[0]}x{shape[1]} matrix viewed as ({shape[0]}, {c}, 1, {spec.matrix})"
            )
        if spec.mode is not None:
            blocked = "I" if spec.mode == "2IC" else "N"
            parts.append(
                f"{spec.mode} mode: {spec.block} elements of {blocked} per word, "
                f"viewed as ({n}, {c}, {h}, {w})"
            )
        shifted = f"({spec.start} + c)" if spec.start else "c"
        parts.append(f"channel c on lane {shifted} mod {spec.lanes}")
        parts.append(f"{_count_of(rows, 'channel row')} per lane")
        parts.append(
            f"strides in {unit}: N {strides[0]}, C {strides[1]}, H {strides[2]}, W {strides[3]}"
        )
        if spec.lmem is not None:
            address = spec.address if spec.address is not None else spec.start * spec.lmem
            lane, offset = split_address(address, spec.lmem)
            parts.append(
                f"lmem = {spec.lmem} bytes per lane, address {address} = "
                f"lane {lane} · {spec.lmem} + {offset}"
            )
        return "; ".join(parts)

    def describe(self, physical: Sequence[int]) -> str:
        """A physical index in the target's words: `lane 2, offset 5` or `bank 1, index (0,3)`."""
        unit = physical[: self.unit_dims]
        head = f"{self.unit} {unit[0]}" if self.unit_dims == 1 else f"{self.unit} {_index(unit)}"
        rest = physical[self.unit_dims :]
        if isinstance(self.spec, TpuSpec):
            text = f"{head}, offset {rest[0]}"
            if len(rest) > 1:
                text += f", element {rest[1]} of the {self.spec.mode} word"
            return text
        return f"{head}, index {_index(rest)}"


def placement(layout: Layout) -> Placement | None:
    """The lanes or banks of a target layout; None for other layouts."""
    spec = layout.target
    if spec is None or layout.is_dynamic:
        return None
    count = 1 if isinstance(spec, TpuSpec) else len(spec.dims)
    unit_shape: tuple[int, ...] = layout.physical_shape[:count]  # type: ignore[assignment]
    return Placement(
        spec,
        "lane" if isinstance(spec, TpuSpec) else "bank",
        count,
        unit_shape,
        layout.size // math.prod(unit_shape),
    )
