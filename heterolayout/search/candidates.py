"""Candidate layouts for one buffer, each verified by the `Layout` model.

Kinds, in the order they are generated (a layout with the memory image of an earlier one is
dropped, so a
named format wins over the permutation it spells):

- `named`: oneDNN and MegEngine format names of the buffer's rank (`nChw16c`, `OIhw16i16o`);
- `plain`: every permutation of the dims (`ABCD->ACDB`);
- `blocked`: the dims in their order (every order up to rank 3) plus one innermost block of
  one dim, for each block size (powers of two up to twice the extent, at most `MAX_BLOCK`,
  and the target's vector lanes);
- `joint`: every dim the buffer shares a loop with another tuned buffer blocked by the same
  size (a convolution's weights blocked on both channel dims);
- `chunked`: Hexagon HTP's chunked aliases (rank 4);
- `packed`: for sub-byte integers (i1 … i4), a block of the innermost dim packed into an
  integer container (`pack = i8` …).

A candidate that does not verify (a pack that does not fit its container, a chunked layout
of another rank) is returned as `Skipped` with the model's reason.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass

from heterolayout.layout.chunked import ALIASES
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout
from heterolayout.layout.parse import parse_layout
from heterolayout.layout.tags import MEGENGINE_FORMATS, ONEDNN_FORMATS

LETTERS = "ABCDEFGH"
MAX_BLOCK = 64
CONTAINERS = (8, 32, 64)
"""Integer containers tried for packed candidates."""
SUB_BYTE_BITS = 4
PERMUTED_BLOCK_RANK = 3


@dataclass(frozen=True)
class Candidate:
    kind: str
    spec: str
    """The `#layout.…` attribute text `layout.assign` takes."""
    layout: Layout

    @property
    def label(self) -> str:
        """The spec without the `#layout.tag<"…">` wrapping."""
        if self.spec.startswith('#layout.tag<"') and self.spec.endswith('">'):
            return self.spec[len('#layout.tag<"') : -2]
        if self.spec.startswith("#layout.chunked<["):
            pairs = self.spec.removeprefix("#layout.chunked<[").removesuffix("]>")
            text = f"ChunkedMemoryLayout<4, {pairs.replace(', ', ',').replace(',', ', ')}>"
            for alias, chunked in ALIASES.items():
                if " ".join(chunked.replace(",", ", ").split()) == " ".join(text.split()):
                    return alias
        return self.spec.removeprefix("#layout.")


@dataclass(frozen=True)
class Skipped:
    buffer: str
    spec: str
    reason: str


def _tag(text: str, params: str = "") -> str:
    return f'#layout.tag<"{text}"{params}>'


def _named(rank: int) -> list[str]:
    names = [n for n in ONEDNN_FORMATS if len({c for c in n.lower() if c.isalpha()}) == rank]
    return names + (list(MEGENGINE_FORMATS) if rank == 4 else [])


def _plain(rank: int) -> list[str]:
    source = LETTERS[:rank]
    return [f"{source}->{''.join(p)}" for p in itertools.permutations(source)]


def block_sizes(extent: int, lanes: tuple[int, ...]) -> list[int]:
    """Powers of two from 2 below twice the extent (at most MAX_BLOCK), and the lanes."""
    sizes = {b for b in (2**k for k in range(1, 7)) if b < 2 * extent and b <= MAX_BLOCK}
    sizes.update(lane for lane in lanes if 1 < lane < 2 * extent)
    return sorted(sizes)


def _blocked(shape: tuple[int, ...], lanes: tuple[int, ...]) -> list[str]:
    """One innermost block of one dim, on the dims in their order, and for ranks up to
    `PERMUTED_BLOCK_RANK` on every permutation too (`AB->BA16b`: GEMM column panels)."""
    source = LETTERS[: len(shape)]
    orders = _plain(len(shape)) if len(shape) <= PERMUTED_BLOCK_RANK else [f"{source}->{source}"]
    return [
        f"{order}{b}{source[d].lower()}"
        for order in orders
        for d, extent in enumerate(shape)
        if extent > 1
        for b in block_sizes(extent, lanes)
    ]


def _chunked() -> list[str]:
    """The chunked aliases as `#layout.chunked<[dim, size, …]>` (the flat one is `plain`)."""
    specs = []
    for text in ALIASES.values():
        if text.startswith("ChunkedMemoryLayout<"):
            numbers = text.removeprefix("ChunkedMemoryLayout<").removesuffix(">").split(",")[1:]
            specs.append(f"#layout.chunked<[{', '.join(n.strip() for n in numbers)}]>")
    return specs


def _packed(shape: tuple[int, ...], bits: int) -> list[str]:
    source = LETTERS[: len(shape)]
    inner = len(shape) - 1
    specs = []
    for container in CONTAINERS:
        for lanes in sorted({container // bits, 2 * container // bits}):
            if lanes >= 2 and shape[inner] > 1:
                tag = f"{source}->{source}{lanes}{source[inner].lower()}"
                specs.append(_tag(tag, f", pack = i{container}"))
    return specs


def _tied(shape: tuple[int, ...], tied: tuple[int, ...], lanes: tuple[int, ...]) -> list[str]:
    """The dims in their order, every tied dim blocked by the same size, the last tied dim's
    block innermost (`ABCD->ABCD16b16a`, oneDNN's OIhw16i16o on OIHW weights)."""
    source = LETTERS[: len(shape)]
    if len(tied) < 2:
        return []
    sizes = set.intersection(*(set(block_sizes(shape[d], lanes)) for d in tied))
    blocks = [f"{{size}}{source[d].lower()}" for d in sorted(tied, reverse=True)]
    return [f"{source}->{source}{''.join(blocks).format(size=size)}" for size in sorted(sizes)]


def memory_image(layout: Layout) -> tuple[object, ...]:
    """What a layout does to memory: its slot count, packing, pad and the offset of every
    element. Layouts with the same image differ only in the physical dims' names (`chwn`
    and `nchw` when N = 1) and run the same code."""
    digest = hashlib.sha256(layout.offsets().tobytes()).digest()
    return (layout.size, layout.packing, layout.pad, digest)


def generate(
    name: str,
    shape: tuple[int, ...],
    element: str,
    lanes: tuple[int, ...],
    tied: tuple[int, ...] = (),
) -> tuple[list[Candidate], list[Skipped]]:
    """Every candidate layout of buffer `name` (logical `shape`, MLIR `element` type), with
    `lanes` the target's vector lengths in elements and `tied` the dims it shares a loop
    with another tuned buffer (`joint` candidates block them all alike); and those that do
    not verify."""
    rank = len(shape)
    specs = [("named", _tag(n)) for n in _named(rank)]
    specs += [("plain", _tag(t)) for t in _plain(rank)]
    specs += [("blocked", _tag(t)) for t in _blocked(shape, lanes)]
    specs += [("joint", _tag(t)) for t in _tied(shape, tied, lanes)]
    specs += [("chunked", spec) for spec in _chunked()] if rank == 4 else []
    bits = _integer_bits(element)
    if bits is not None and bits <= SUB_BYTE_BITS:
        specs += [("packed", spec) for spec in _packed(shape, bits)]
    candidates: list[Candidate] = []
    skipped: list[Skipped] = []
    seen: set[tuple[object, ...]] = set()
    for kind, spec in specs:
        try:
            layout = parse_layout(spec, shape, dtype=element)
        except LayoutError as error:
            skipped.append(Skipped(name, spec, str(error)))
            continue
        if memory_image(layout) not in seen:
            seen.add(memory_image(layout))
            candidates.append(Candidate(kind, spec, layout))
    return candidates, skipped


def _integer_bits(element: str) -> int | None:
    digits = element.removeprefix("ui").removeprefix("si").removeprefix("i")
    return int(digits) if element[0] in "ius" and digits.isdigit() else None


ACTIVATION_TAGS = {2: "AB->Ba{b}b", 3: "ABC->ACb{b}c", 4: "NCHW->nChw{b}c"}
"""Blocked layouts of activations by rank: an image's channels blocked, the block
innermost (oneDNN's nChw16c); a matrix (or each matrix of a batch) in column panels, as a
matmul's B in Nk16n (oneDNN's aB16b on a matrix is row-major again: the rows stay
outermost)."""
WEIGHT_TAGS = {2: "KN->Nk{b}n", 3: "CHW->Chw{b}c", 4: "OIHW->OIhw{b}i{b}o"}
"""oneDNN-style blocked layouts of weights by rank: a matmul's B in column panels (Nk16n),
depthwise weights blocked by channel, convolution weights on both channels (OIhw16i16o)."""
ROLE_TAGS = {
    "matmul weights": {2: "KN->Nk{b}n", 3: "BKN->BNk{b}n"},
    "conv weights": {4: "OIHW->OIhw{b}i{b}o"},
    "depthwise weights": {3: "CHW->Chw{b}c", 4: "OIHW->OIhw{b}o"},
    "weights": WEIGHT_TAGS,
    "activation": ACTIVATION_TAGS,
}
"""The blocked template of each role (graph.py: how the program uses the buffer) by rank."""
DEPTHWISE_TAG = "OIHW->OIhw{b}o"
"""Rank-4 weights with one input channel (a depthwise convolution's): the block on O only."""
FEW_INPUTS_TAG = "OIHW->Oihw{b}o"
"""Convolution weights on fewer input channels than a block (an image's 3): the block on O
only, as oneDNN's first convolution; tried when the both-channels blocking pads too much."""
MAX_PADDING = 1 / 3
"""A blocked candidate whose padding share is larger is dropped (8 channels in blocks of
16 waste half the buffer: the smaller block is tried instead)."""


def row_major(rank: int) -> str:
    """The attribute text of the row-major layout of a buffer of rank `rank`."""
    source = LETTERS[:rank]
    return _tag(f"{source}->{source}")


def role_template(shape: tuple[int, ...], role: str) -> str | None:
    """The blocked oneDNN-style tag template (`{b}` for the block) of a buffer of `role`
    (`activation`, `matmul weights`, `conv weights`, `depthwise weights`, `weights`: a
    constant of another use) by rank; None: none (rank 0, 1 or above 4)."""
    if role in ("conv weights", "weights") and len(shape) == 4 and shape[1] == 1:
        return DEPTHWISE_TAG
    return ROLE_TAGS.get(role, ACTIVATION_TAGS).get(len(shape))


def program_candidates(
    shape: tuple[int, ...],
    element: str,
    role: str,
    blocks: tuple[int, ...],
    assigned: str | None = None,
    every_block: bool = False,
) -> list[Candidate]:
    """The candidates of a buffer in the whole-program search: row-major first, the
    input's own layout, then its role's blocked layout for the first block size in
    `blocks` (the target's vector lanes, then half of them) that the `Layout` model accepts
    with at most `MAX_PADDING` padding (`every_block`: for each of them); distinct memory
    images only. One block size per buffer keeps a convolution's table at 8 entries, not
    27: a ResNet-18 is measured in minutes."""
    specs = [("plain", row_major(len(shape)))]
    if assigned is not None:
        specs.append(("input", assigned))
    template = role_template(shape, role)
    if template is not None:
        specs += [("blocked", _tag(template.format(b=b))) for b in blocks if b > 1]
    if template == ROLE_TAGS["conv weights"][4]:
        specs += [("blocked", _tag(FEW_INPUTS_TAG.format(b=b))) for b in blocks if b > 1]
    found: list[Candidate] = []
    seen: set[tuple[object, ...]] = set()
    blocked = 0
    for kind, spec in specs:
        if kind == "blocked" and blocked and not every_block:
            break
        try:
            layout = parse_layout(spec, shape, dtype=element)
        except LayoutError:
            continue
        if kind == "blocked" and layout.padding_share > MAX_PADDING:
            continue
        if memory_image(layout) not in seen:
            blocked += kind == "blocked"
            seen.add(memory_image(layout))
            found.append(Candidate(kind, spec, layout))
    return found
