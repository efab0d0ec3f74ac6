"""Sophgo TPU local memory: `#layout.tpu<lanes = X, start = Q, stride = …>`.

A logical NCHW tensor spread over X lanes (NPUs): channel c lives on lane (Q + c) mod X at
offset n·Ns + ((Q + c) floordiv X)·Cs + h·Hs + w·Ws; physical shape (X, L). `aligned` makes
Cs the H·W rounded up to 128 bytes' worth of elements, `compact` makes it H·W, and
Ns = Cs · ceil((Q + C) / X). `lmem = S` (bytes per lane) with `address = A` places the
tensor at A = lane·S + offset·bytes. The matrix layout views an N×M matrix as
(N, ceil(M/W), 1, W); the 4N / 2N / 2IC storage modes block N (or I) by 4 or 2 into one 32-
or 64-bit word, an innermost physical dim that `pack` may fold into a container.

`tpu_layout` builds the `Layout` on a memref's shape; `symbolic_map` is the same map with
the shape-dependent quantities as symbols, which is what `#layout.tpu` answers to
`get_affine_map()` (like MLIR's layout maps, it does not know the memref's shape).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass
from typing import Any

from xdsl.ir.affine import AffineExpr, AffineMap

from heterolayout.layout.constructors import DEFAULT, Common
from heterolayout.layout.element_types import ElementType
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import format_index, format_shape, times
from heterolayout.layout.model import Layout
from heterolayout.layout.packing import Packing
from heterolayout.layout.parameters import Syntax, format_ints, parameter

STRIDE_KINDS = ("aligned", "compact")
STRIDE_HINT = "aligned, compact or [Ns, Cs, Hs, Ws]"
MODES = {"4N": 4, "2N": 2, "2IC": 2}
"""Storage mode → how many elements of N (or I) one word holds."""
ALIGNMENT_BYTES = 128
COMPACT_ADDRESS_BYTES = 4

Stride = str | tuple[int, ...]
Strides = tuple[int, int, int, int]


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


@dataclass(frozen=True)
class TpuParams:
    """The parameters of `#layout.tpu<…>`; build checked ones with `TpuParams.create`."""

    lanes: int = parameter(MISSING, Syntax("int", shown=True))
    start: int = parameter(0, Syntax("int", shown=True))
    stride: Stride = parameter(
        "aligned", Syntax("word_or_ints", STRIDE_KINDS, STRIDE_HINT, shown=True)
    )
    lmem: int | None = parameter(None, Syntax("int"))
    address: int | None = parameter(None, Syntax("int"))
    matrix: int | None = parameter(None, Syntax("int"))
    mode: str | None = parameter(None, Syntax("string", hint='a storage mode: "4N", "2N" or "2IC"'))

    @staticmethod
    def create(values: Mapping[str, Any], where: str = "#layout.tpu") -> TpuParams:
        """Normalize the parameters as written (`start` from `address` when only that is
        given, the mode's canonical spelling) and check what needs no shape."""
        values = dict(values)
        if values.get("lanes") is None:
            raise LayoutError(f"{where}: needs lanes = <number of lanes (NPUs)>")
        mode = values.get("mode")
        if mode is not None:
            canonical = {m.upper(): m for m in MODES}.get(mode.upper())
            if canonical is None:
                raise LayoutError(
                    f'{where}: mode = "{mode}" is not a storage mode (expected "4N", "2N" or "2IC")'
                )
            values["mode"] = canonical
        if values.get("start") is None:
            address, lmem = values.get("address"), values.get("lmem")
            values["start"] = 0 if address is None or lmem is None or lmem <= 0 else address // lmem
        if not isinstance(values.get("stride", ""), str):
            values["stride"] = tuple(values["stride"])
        params = TpuParams(**values)
        params.check(where)
        return params

    @property
    def block(self) -> int:
        """Elements of N (or I) per word: 4 for 4N, 2 for 2N and 2IC, else 1."""
        return MODES[self.mode] if self.mode else 1

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
        self._check_stride(where)
        if self.lmem is not None and self.lmem <= 0:
            raise LayoutError(f"{where}: lmem = {self.lmem} (bytes per lane) must be positive")
        if self.address is not None:
            self._check_address(self.address, where)
        if not 0 <= self.start < self.lanes:
            raise LayoutError(
                f"{where}: start lane {self.start} is out of range: lanes are 0 to {self.lanes - 1} "
                f"(lanes = {self.lanes})"
            )
        if self.matrix is not None and self.matrix <= 0:
            raise LayoutError(
                f"{where}: matrix = {self.matrix} (the column block W) must be positive"
            )

    def _check_stride(self, where: str) -> None:
        if isinstance(self.stride, str):
            if self.stride not in STRIDE_KINDS:
                raise LayoutError(f"{where}: stride = {self.stride} (expected {STRIDE_HINT})")
            return
        if len(self.stride) != 4:
            raise LayoutError(
                f"{where}: stride = {format_ints(self.stride)} needs 4 strides [Ns, Cs, Hs, Ws]"
            )
        negative = [s for s in self.stride if s < 0]
        if negative:
            raise LayoutError(
                f"{where}: stride = {format_ints(self.stride)}: stride {negative[0]} is negative"
            )

    def _check_address(self, address: int, where: str) -> None:
        if self.lmem is None:
            raise LayoutError(
                f"{where}: address = {address} needs lmem = <bytes per lane> "
                "(an address is lane · lmem + offset)"
            )
        if not 0 <= address < self.lanes * self.lmem:
            raise LayoutError(
                f"{where}: address {address} is outside local memory "
                f"[0, {self.lanes * self.lmem - 1}] (lanes = {self.lanes}, lmem = {self.lmem})"
            )
        lane = address // self.lmem
        if lane != self.start:
            raise LayoutError(
                f"{where}: address {address} is on lane {lane} (address floordiv lmem), "
                f"but start = {self.start}"
            )

    # ---- the 4-D view -------------------------------------------------------------------
    def view_shape(
        self, shape: Sequence[int | None], where: str = "#layout.tpu"
    ) -> tuple[int, int, int, int]:
        """(N, C, H, W) as the strides count them: after the matrix view and the mode's
        words (N becomes ceil(N / block))."""
        static = self.check_shape(shape, where)
        if self.matrix is not None:
            rows, columns = static
            n, c, h, w = rows, -(-columns // self.matrix), 1, self.matrix
        else:
            n, c, h, w = static
        return -(-n // self.block), c, h, w

    def word_bytes(self, dtype: ElementType | None, what: str, where: str) -> int:
        """Bytes of one stored word: the element, or the mode's block of elements."""
        if dtype is None:
            raise LayoutError(f"{where}: {what} needs the element type (dtype)")
        return dtype.nbytes * self.block

    def strides(
        self, shape: Sequence[int | None], dtype: ElementType | None, where: str = "#layout.tpu"
    ) -> Strides:
        """(Ns, Cs, Hs, Ws) in words: explicit, or as `aligned` / `compact` define them."""
        if not isinstance(self.stride, str):
            ns, cs, hs, ws = self.stride
            return ns, cs, hs, ws
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

    def base(self, dtype: ElementType | None, where: str) -> int:
        """The tensor's offset inside its lane, in words (from `address`)."""
        if self.lmem is None or self.address is None:
            return 0
        word = self.word_bytes(dtype, "lmem", where)
        required = {"aligned": ALIGNMENT_BYTES, "compact": COMPACT_ADDRESS_BYTES}.get(
            self.stride if isinstance(self.stride, str) else "", word
        )
        if self.address % required:
            layout_name = self.stride if isinstance(self.stride, str) else f"a {word}-byte word"
            raise LayoutError(
                f"{where}: address {self.address} is not a multiple of {required} bytes, "
                f"as {layout_name} needs"
            )
        return (self.address % self.lmem) // word

    def check_shape(self, shape: Sequence[int | None], where: str) -> tuple[int, ...]:
        if len(shape) != self.rank:
            if self.matrix is not None:
                raise LayoutError(
                    f"{where}: the matrix layout needs a 2-D N×M memref, not {format_shape(shape)}"
                )
            names = "IOHW (a conv weight)" if self.mode == "2IC" else "NCHW"
            raise LayoutError(
                f"{where}: #layout.tpu needs a 4-D {names} memref, not {format_shape(shape)} "
                f"(rank {len(shape)})"
            )
        static = tuple(e for e in shape if e is not None)
        if len(static) != len(shape):
            raise LayoutError(
                f"{where}: #layout.tpu needs a static shape, not {format_shape(shape)}"
            )
        if self.matrix is not None and self.matrix > static[1]:
            raise LayoutError(
                f"{where}: matrix = {self.matrix} is wider than the matrix's {static[1]} columns "
                "(W lies in [1, M])"
            )
        return static

    def check_mode(self, dtype: ElementType | None, packing: Packing | None, where: str) -> None:
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


# ---- the index map ------------------------------------------------------------------------------
View = tuple[AffineExpr | None, AffineExpr | None, AffineExpr | None, AffineExpr | None]


def _view(
    params: TpuParams, rank: int, static: tuple[int, ...] | None
) -> tuple[View, AffineExpr | None]:
    """(n words, c, h, w) over the logical dims, and the position inside a word. On a
    `static` logical shape, a view dim of extent 1 is None (always 0) and a word that holds
    all of N needs no division; without one (the symbolic map) every term stays."""
    d = [AffineExpr.dimension(i) for i in range(rank)]
    n: AffineExpr | None = d[0]
    h: AffineExpr | None = None
    if params.matrix is None:
        c, h, w = d[1], d[2], d[3]
    elif static is not None and params.matrix >= static[1]:
        c, w = None, d[1]
    elif params.matrix == 1:
        c, w = d[1], None
    else:
        c, w = d[1] // params.matrix, d[1] % params.matrix
    part: AffineExpr | None = None
    if params.block > 1:
        whole = static is not None and static[0] <= params.block
        part = d[0] if whole else d[0] % params.block
        n = None if whole else d[0] // params.block
    if static is None:
        return (n, c, h, w), part
    sizes = params.view_shape(static)
    n, c, h, w = (e if size > 1 else None for e, size in zip((n, c, h, w), sizes, strict=True))
    return (n, c, h, w), part


def _lane_and_offset(
    params: TpuParams, view: View, rows: int | None, strides: Sequence[AffineExpr | int]
) -> tuple[AffineExpr, AffineExpr]:
    """lane = (c + Q) mod X, offset = n·Ns + ((c + Q) floordiv X)·Cs + h·Hs + w·Ws. `rows`
    (channel rows per lane), when known, drops the division it makes constant."""
    n, c, h, w = view
    lanes, start = params.lanes, params.start
    row: AffineExpr | None
    if c is None:
        lane, row = AffineExpr.constant(start), None
    else:
        shifted = c + start if start else c
        if lanes == 1:
            lane, row = AffineExpr.constant(0), shifted
        elif rows == 1:
            lane, row = shifted, None
        else:
            lane, row = shifted % lanes, shifted // lanes
    terms = [
        times(value, stride)
        for value, stride in zip((n, row, h, w), strides, strict=True)
        if value is not None and not (isinstance(stride, int) and stride == 0)
    ]
    offset = terms[0] if terms else AffineExpr.constant(0)
    for term in terms[1:]:
        offset = offset + term
    return lane, offset


def symbolic_map(params: TpuParams) -> AffineMap:
    """The index map for any shape: symbols s0, s1, s2 are the strides Ns, Cs, Hs in words
    (constants when `stride` lists them) and s3 the tensor's base offset inside its lane
    (with `lmem`); `tpu_layout` on a shape is this map with those values."""
    view, part = _view(params, params.rank, None)
    symbol = AffineExpr.symbol
    if isinstance(params.stride, str):
        strides: list[AffineExpr | int] = [symbol(0), symbol(1), symbol(2), 1]
    else:
        strides = list(params.stride)
    lane, offset = _lane_and_offset(params, view, None, strides)
    symbols = 3 if isinstance(params.stride, str) else 0
    if params.lmem is not None:
        offset = offset + symbol(3)
        symbols = 4
    results = [lane, offset] if part is None else [lane, offset, part]
    return AffineMap(params.rank, symbols, tuple(results))


def map_symbols(
    params: TpuParams, shape: Sequence[int | None], dtype: ElementType | None
) -> tuple[int, ...]:
    """The values of `symbolic_map`'s symbols on a shape and element type."""
    values: list[int] = []
    if isinstance(params.stride, str):
        values += params.strides(shape, dtype)[:3]
    if params.lmem is not None:
        values += [0] * (3 - len(values)) + [params.base(dtype, "#layout.tpu")]
    return tuple(values)


def tpu_layout(params: TpuParams, shape: Sequence[int | None], common: Common = DEFAULT) -> Layout:
    """The layout of `#layout.tpu` on a memref's shape and element type."""
    where, dtype = common.where, common.dtype
    params.check(where)
    params.check_mode(dtype, common.packing, where)
    sizes = params.view_shape(shape, where)
    strides = params.strides(shape, dtype, where)
    rows = channels_per_lane(params.lanes, params.start, sizes[1])
    view, part = _view(params, len(shape), params.check_shape(shape, where))
    lane, offset = _lane_and_offset(params, view, rows, strides)
    reach = sum(
        (extent - 1) * stride
        for extent, stride in zip((sizes[0], rows, sizes[2], sizes[3]), strides, strict=True)
    )
    length = sizes[0] * strides[0]
    if not isinstance(params.stride, str):
        length = max(length, reach + 1)
    lane_slots = length
    if params.lmem is not None:
        base, lane_slots = _local_memory(params, dtype, length, where)
        if base:
            offset = offset + base
    results = [lane, offset] if part is None else [lane, offset, part]
    physical = (
        [params.lanes, lane_slots] if part is None else [params.lanes, lane_slots, params.block]
    )
    common.check_physical_shape(physical, "#layout.tpu defines")
    index_map = AffineMap(len(shape), 0, tuple(results))
    layout = common.create(shape, index_map, physical, dim_names=params.dim_names, injective=True)
    if not isinstance(params.stride, str):
        _check_no_overlap(layout, params.stride, where)
    return layout


def _local_memory(
    params: TpuParams, dtype: ElementType | None, length: int, where: str
) -> tuple[int, int]:
    """(offset of the tensor inside its lane, slots per lane) in words, from lmem and address."""
    assert params.lmem is not None
    word = params.word_bytes(dtype, "lmem", where)
    if params.lmem % word:
        raise LayoutError(
            f"{where}: lmem = {params.lmem} bytes is not a whole number of {word}-byte words"
        )
    base = params.base(dtype, where)
    slots = params.lmem // word
    if base + length > slots:
        raise LayoutError(
            f"{where}: the tensor needs {length} words ({length * word} bytes) per lane from "
            f"offset {base * word}, more than lmem = {params.lmem} bytes"
        )
    return base, slots


def _check_no_overlap(layout: Layout, stride: Sequence[int], where: str) -> None:
    clash = layout.first_clash()
    if clash is None:
        return
    first, second = clash
    place = layout.physical_index(first)
    raise LayoutError(
        f"{where}: stride = {format_ints(stride)} overlaps within lane {place[0]}: "
        f"{format_index(first)} and {format_index(second)} are both at offset {place[1]}"
    )
