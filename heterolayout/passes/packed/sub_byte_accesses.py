"""Vector accesses to sub-byte elements, written as accesses to the bytes that hold them.

Upstream MLIR 22 lowers a memref of `iN` (N not a multiple of 8) to LLVM with one element
per allocation unit of `iN` (a byte for i1 … i7, two bytes for i9 … i16: its GEPs step by
the alloc size), but LLVM lays a vector of `iN` out bit-packed: `vector.load %m[%i, %k] :
memref<64x2048xi1>, vector<64xi1>` compiled by `mlir-opt` reads the 64 bits of 8 bytes, not
64 elements. Every such access in a module `layout-lower` lowers (or `layout-strip` strips)
goes through the memref viewed as its allocation-size integers: a
`builtin.unrealized_conversion_cast` to `memref<…xi8>` (same shape, layout and memory space,
so the same LLVM descriptor: `reconcile-unrealized-casts` folds the cast once
`finalize-memref-to-llvm` has run), the same access on `vector<64xi8>`, and `arith.trunci`
after a load, `arith.extui` before a store (LLVM keeps the bits above an `iN`'s width zero
in memory). The access stays one vector access: LLVM turns bytes truncated to i1 and
bitcast to a word into `vpmovmskb`. The engines run the cast as that view (`ByteView`).

An element of a memref of bit vectors (`memref<…xvector<6xi1>>`, the containers of
`pack = vector<6xi1>`) is LLVM's bit-packed word, which upstream reads right but x86 moves
bit by bit; its loads and stores go through the same view, one integer each (`arith.trunci`
to i6 and `vector.bitcast` to the lanes, or the other way round). A bit vector of more than
64 bits (`vector<6xi12>`) is viewed as its allocation in i64 words (`vector<2xi64>`), each
lane shifted out of (or into) the words that hold it: LLVM 22's x86 backend loads and stores
such a vector wrong itself (a `vector<6xi12>` stored and loaded back loses lanes 1 to 5).

Elements wider than 64 bits, and signed or unsigned integers (which `arith` does not
truncate), are moved lane by lane instead: `memref.load`s assembled with
`vector.from_elements`, `vector.extract`s stored with `memref.store`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import affine, arith, memref, vector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.common_subexpression_elimination import cse

from heterolayout.dialects.diagnostics import fail
from heterolayout.dialects.functions import enclosing_function
from heterolayout.dialects.names import op_name
from heterolayout.dialects.roles import (
    SCALAR_LOADS,
    SCALAR_STORES,
    VECTOR_ACCESSES,
    VECTOR_LOADS,
    VECTOR_STORES,
)
from heterolayout.dialects.upstream.arith import ExtUIOp, TruncIOp
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.layout.element_types import element_type
from heterolayout.passes.packed.element_access import integer_constant

Insert = Callable[[Operation], None]


def allocation_bits(bits: int) -> int | None:
    """Bits LLVM allocates for one `iN` in memory (the next power of two from 8), or None
    above 64."""
    allocated = max(8, 1 << (bits - 1).bit_length())
    return allocated if allocated <= 64 else None


def sub_byte_element(memref_type: Attribute) -> IntegerType | None:
    """The element of a memref of integers whose width is not a whole number of bytes."""
    if not isinstance(memref_type, MemRefType):
        return None
    element = memref_type.element_type
    return element if isinstance(element, IntegerType) and element.width.data % 8 else None


def bit_vector_bits(memref_type: Attribute) -> int | None:
    """For a memref of 1-D vectors of signless sub-byte integers: the bits of one vector."""
    if not isinstance(memref_type, MemRefType):
        return None
    element = memref_type.element_type
    if not isinstance(element, VectorType) or element.get_num_dims() != 1:
        return None
    lane = element.element_type
    if not _narrow_signless(lane):
        return None
    assert isinstance(lane, IntegerType)
    return element.get_shape()[0] * lane.width.data


WORD = 64


def word_view_element(memref_type: Attribute) -> IntegerType | VectorType | None:
    """The element of the view through which a memref of bit vectors is accessed: the
    integer LLVM allocates for one vector (up to 64 bits), or that allocation (the next
    power of two of its bytes) as i64 words."""
    bits = bit_vector_bits(memref_type)
    if bits is None:
        return None
    allocated = allocation_bits(bits)
    if allocated is not None:
        return IntegerType(allocated)
    return VectorType(IntegerType(WORD), [(1 << (bits - 1).bit_length()) // WORD])


def _narrow_signless(element: Attribute) -> bool:
    return (
        isinstance(element, IntegerType)
        and element.width.data % 8 != 0
        and element.signedness.data == Signedness.SIGNLESS
    )


def memref_operand(op: Operation) -> SSAValue:
    """The memref a vector or element access reads or writes."""
    return op.operands[1 if op.name in VECTOR_STORES | SCALAR_STORES else 0]


def moves_packed_bits(op: Operation) -> bool:
    """Whether upstream's LLVM lowering would move `op`'s vector as packed bits where the
    memref holds one sub-byte element per allocation unit: a vector access to a memref of
    sub-byte integers."""
    return op.name in VECTOR_ACCESSES and (sub_byte_element(memref_operand(op).type) is not None)


def miscompiled_upstream(op: Operation) -> bool:
    """Whether upstream's LLVM lowering would access the elements `op` names wrong: a vector
    access moving packed bits (`moves_packed_bits`), or an element access to a memref of bit
    vectors of more than 64 bits."""
    if moves_packed_bits(op):
        return True
    if op.name not in SCALAR_LOADS | SCALAR_STORES:
        return False
    bits = bit_vector_bits(memref_operand(op).type)
    return bits is not None and bits > WORD


def access_sub_bytes_as_bytes(module: ModuleOp, pass_name: str) -> bool:
    """Rewrite every vector access to sub-byte integers, and every element access to a memref
    of bit vectors, in `module` as accesses to the memref's bytes (see the module's doc);
    whether there was one. An access that can be neither widened nor split into lanes fails
    `pass_name` naming it, before anything is rewritten."""
    widened: list[Operation] = []
    split: list[Operation] = []
    words: list[Operation] = []
    for op in module.walk():
        if op.name in VECTOR_ACCESSES:
            element = sub_byte_element(memref_operand(op).type)
            if element is None:
                continue
            if _narrow_signless(element) and allocation_bits(element.width.data) is not None:
                widened.append(op)
            else:
                _check_lanes(op, pass_name)
                split.append(op)
        elif op.name in SCALAR_LOADS | SCALAR_STORES and bit_vector_bits(memref_operand(op).type):
            words.append(op)
    functions = {enclosing_function(op) for op in (*widened, *split, *words)}
    views = _Views()
    for op in widened:
        _widen(op, views)
    for op in split:
        _lane_by_lane(op)
    for op in words:
        if isinstance(word_view_element(memref_operand(op).type), VectorType):
            _as_words(op, views)
        else:
            _as_word(op, views)
    for function in functions:  # the widened values and lane indices the rewrites repeat
        if function is not None:
            cse(function)
    return bool(functions)


class _Views:
    """One byte view per memref value, right after its definition (dominating every use)."""

    def __init__(self) -> None:
        self._views: dict[SSAValue, SSAValue] = {}

    def of(self, buffer: SSAValue, container: IntegerType | VectorType) -> SSAValue:
        view = self._views.get(buffer)
        if view is not None:
            return view
        memref_type = buffer.type
        assert isinstance(memref_type, MemRefType)
        wide = MemRefType(
            container, memref_type.shape, memref_type.layout, memref_type.memory_space
        )
        cast = UnrealizedConversionCastOp.get([buffer], [wide])
        if isinstance(buffer, BlockArgument):
            Rewriter.insert_op(cast, InsertPoint.at_start(buffer.block))
        else:
            assert isinstance(buffer.owner, Operation)
            Rewriter.insert_op(cast, InsertPoint.after(buffer.owner))
        view = self._views[buffer] = cast.results[0]
        return view


def _widen(op: Operation, views: _Views) -> None:
    """The access on the byte view, of a vector of allocation-size integers."""
    element = sub_byte_element(memref_operand(op).type)
    assert element is not None
    bits = allocation_bits(element.width.data)
    assert bits is not None
    container = IntegerType(bits)
    add = _before(op)
    buffer = memref_operand(op)
    operands = list(op.operands)
    operands[operands.index(buffer)] = views.of(buffer, container)
    if op.name in VECTOR_LOADS:
        narrow_type = op.results[0].type
        assert isinstance(narrow_type, VectorType)
        wide_type = _with_element(narrow_type, container)
        if isinstance(op, vector.TransferReadOp):
            padding = _added(add, ExtUIOp(op.padding, container))
            operands[operands.index(op.padding)] = padding.results[0]
        wide = _added(add, _recreated(op, operands, [wide_type]))
        narrowed = _added(add, TruncIOp(wide.results[0], narrow_type))
        op.results[0].replace_all_uses_with(narrowed.results[0])
    else:
        value = op.operands[0]
        narrow_type = value.type
        assert isinstance(narrow_type, VectorType)
        widened = _added(add, ExtUIOp(value, _with_element(narrow_type, container)))
        operands[0] = widened.results[0]
        add(_recreated(op, operands, []))
    Rewriter.erase_op(op)


def _with_element(vector_type: VectorType, element: Attribute) -> VectorType:
    return VectorType(element, vector_type.get_shape(), vector_type.scalable_dims)


def _recreated(
    op: Operation, operands: Sequence[SSAValue], results: Sequence[Attribute]
) -> Operation:
    """`op` again (its properties and attributes) on other operands and result types."""
    return type(op).create(
        operands=operands,
        result_types=results,
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )


def _as_word(op: Operation, views: _Views) -> None:
    """An element access to a memref of bit vectors, on the memref viewed as integers."""
    buffer = memref_operand(op)
    assert isinstance(buffer.type, MemRefType)
    lanes_type = buffer.type.element_type
    assert isinstance(lanes_type, VectorType)
    bits = bit_vector_bits(buffer.type)
    assert bits is not None
    word = IntegerType(bits)
    allocated = allocation_bits(bits)
    assert allocated is not None
    container = IntegerType(allocated)
    view = views.of(buffer, container)
    add = _before(op)
    words = VectorType(word, [1])
    operands = list(op.operands)
    operands[operands.index(buffer)] = view
    if op.name in SCALAR_LOADS:
        value: SSAValue = _added(add, _recreated(op, operands, [container])).results[0]
        if container != word:
            value = _added(add, TruncIOp(value, word)).results[0]
        packed = _added(add, vector.BroadcastOp(value, words))
        lanes = _added(add, vector.BitcastOp(packed.results[0], lanes_type))
        op.results[0].replace_all_uses_with(lanes.results[0])
        _fold_word_uses(lanes, packed, value)
    else:
        lanes_value = op.operands[0]
        operands[0] = _stored_word(lanes_value, words, container, add)
        add(_recreated(op, operands, []))
        Rewriter.erase_op(op)
        constant = lanes_value.owner
        if isinstance(constant, arith.ConstantOp) and not constant.result.uses:
            Rewriter.erase_op(constant)  # its word is a constant of its own now
        return
    Rewriter.erase_op(op)


def _as_words(op: Operation, views: _Views) -> None:
    """An element access to a memref of bit vectors of more than 64 bits, on the memref
    viewed as i64 words: each lane shifted out of the words that hold it (two where it
    straddles them), or shifted into them."""
    buffer = memref_operand(op)
    assert isinstance(buffer.type, MemRefType)
    lanes_type = buffer.type.element_type
    assert isinstance(lanes_type, VectorType)
    lane_type = lanes_type.element_type
    assert isinstance(lane_type, IntegerType)
    words_type = word_view_element(buffer.type)
    assert isinstance(words_type, VectorType)
    view = views.of(buffer, words_type)
    add = _before(op)
    operands = list(op.operands)
    operands[operands.index(buffer)] = view
    lane_bits, lanes = lane_type.width.data, lanes_type.get_shape()[0]
    word = IntegerType(WORD)
    constant = _word_constants(add)
    if op.name in SCALAR_LOADS:
        loaded = _added(add, _recreated(op, operands, [words_type])).results[0]
        used = -(-lanes * lane_bits // WORD)
        words = [_added(add, vector.ExtractOp(loaded, [j], word)).results[0] for j in range(used)]
        values: list[SSAValue] = []
        for lane in range(lanes):
            first, shift = divmod(lane * lane_bits, WORD)
            value = words[first]
            if shift:
                value = _added(add, arith.ShRUIOp(value, constant(shift))).results[0]
            if shift + lane_bits > WORD:
                high = _added(add, arith.ShLIOp(words[first + 1], constant(WORD - shift)))
                value = _added(add, arith.OrIOp(value, high.results[0])).results[0]
            values.append(_added(add, TruncIOp(value, lane_type)).results[0])
        gathered = _added(add, FromElementsOp(values, lanes_type))
        op.results[0].replace_all_uses_with(gathered.results[0])
        Rewriter.erase_op(op)
        return
    stored = op.operands[0]
    operands[0] = _stored_words(stored, words_type, add, constant)
    add(_recreated(op, operands, []))
    Rewriter.erase_op(op)
    made = stored.owner
    if isinstance(made, arith.ConstantOp) and not made.result.uses:
        Rewriter.erase_op(made)  # its words are a constant of their own now


def _word_constants(add: Insert) -> Callable[[int], SSAValue]:
    """i64 constants made once each, before the access."""
    made: dict[int, SSAValue] = {}

    def constant(value: int) -> SSAValue:
        if value not in made:
            made[value] = _added(add, integer_constant(value, WORD)).results[0]
        return made[value]

    return constant


def _stored_words(
    lanes: SSAValue, words_type: VectorType, add: Insert, constant: Callable[[int], SSAValue]
) -> SSAValue:
    """The i64 words whose low bits are `lanes` (zero above them): a constant for constant
    lanes, else each lane zero-extended and shifted into the words it overlaps."""
    lanes_type = lanes.type
    assert isinstance(lanes_type, VectorType)
    lane_type = lanes_type.element_type
    assert isinstance(lane_type, IntegerType)
    lane_bits, count = lane_type.width.data, lanes_type.get_shape()[0]
    word = IntegerType(WORD)
    made = lanes.owner
    if isinstance(made, arith.ConstantOp) and isinstance(made.value, DenseIntOrFPElementsAttr):
        mask = (1 << lane_bits) - 1
        bits = sum(
            (int(v) & mask) << (i * lane_bits) for i, v in enumerate(made.value.get_values())
        )
        values = [
            element_type(f"i{WORD}").wrap((bits >> (j * WORD)) & ((1 << WORD) - 1))
            for j in range(words_type.get_shape()[0])
        ]
        dense = DenseIntOrFPElementsAttr.from_list(words_type, values)  # type: ignore[type-var]
        return _added(add, arith.ConstantOp(dense)).results[0]  # type: ignore[arg-type]
    words: list[SSAValue | None] = [None] * words_type.get_shape()[0]

    def put(index: int, piece: SSAValue) -> None:
        held = words[index]
        words[index] = piece if held is None else _added(add, arith.OrIOp(held, piece)).results[0]

    for lane in range(count):
        extracted = _added(add, vector.ExtractOp(lanes, [lane], lane_type)).results[0]
        wide = _added(add, ExtUIOp(extracted, word)).results[0]
        first, shift = divmod(lane * lane_bits, WORD)
        low = wide
        if shift:
            low = _added(add, arith.ShLIOp(wide, constant(shift))).results[0]
        put(first, low)
        if shift + lane_bits > WORD:
            put(first + 1, _added(add, arith.ShRUIOp(wide, constant(WORD - shift))).results[0])
    filled = [constant(0) if held is None else held for held in words]
    return _added(add, FromElementsOp(filled, words_type)).results[0]


def _fold_word_uses(lanes: Operation, packed: Operation, word: SSAValue) -> None:
    """Uses that turn the loaded lanes back into their word (word-level code does) take the
    word itself; the lanes go if nothing else uses them."""
    for use in list(lanes.results[0].uses):
        back = use.operation
        if isinstance(back, vector.BitcastOp) and back.result.type == packed.results[0].type:
            back.result.replace_all_uses_with(packed.results[0])
            Rewriter.erase_op(back)
    for use in list(packed.results[0].uses):
        extract = use.operation
        if isinstance(extract, vector.ExtractOp) and _first_element(extract):
            extract.result.replace_all_uses_with(word)
            Rewriter.erase_op(extract)
    for op in (lanes, packed):
        if not op.results[0].uses:
            Rewriter.erase_op(op)


def _first_element(extract: vector.ExtractOp) -> bool:
    return not extract.dynamic_position and list(extract.static_position.get_values()) == [0]


def _stored_word(
    lanes: SSAValue, words: VectorType, container: IntegerType, add: Insert
) -> SSAValue:
    """The `container` integer whose low bits are `lanes`: a constant for constant lanes, the
    word they were made from (lanes bitcast from a broadcast word), or a bitcast and an
    extract, zero-extended."""
    made = lanes.owner
    word: SSAValue | None = None
    if isinstance(made, arith.ConstantOp) and isinstance(made.value, DenseIntOrFPElementsAttr):
        lane_bits = lanes.type.element_type.width.data  # type: ignore[attr-defined]
        mask = (1 << lane_bits) - 1
        bits = sum(
            (int(v) & mask) << (i * lane_bits) for i, v in enumerate(made.value.get_values())
        )
        return _added(add, integer_constant(bits, container.width.data)).results[0]
    if isinstance(made, vector.BitcastOp) and made.source.type == words:
        source = made.source.owner
        if isinstance(source, vector.BroadcastOp) and not isinstance(
            source.source.type, VectorType
        ):
            word = source.source
    if word is None:
        packed = _added(add, vector.BitcastOp(lanes, words)).results[0]
        word = _added(add, vector.ExtractOp(packed, [0], words.element_type)).results[0]
    if word.type != container:
        word = _added(add, ExtUIOp(word, container)).results[0]
    return word


def _check_lanes(op: Operation, pass_name: str) -> None:
    if isinstance(op, vector.TransferReadOp | vector.TransferWriteOp):
        fail(
            op,
            f"{pass_name}: {op_name(op)} of {_vector_type(op)} on {memref_operand(op).type}: "
            "upstream MLIR moves a vector of these elements as packed bits, and only "
            "vector.load/store (affine too) of them can be split into lanes",
        )
    if _vector_type(op).get_num_dims() != 1:
        fail(
            op,
            f"{pass_name}: {op_name(op)} of {_vector_type(op)} on {memref_operand(op).type}: "
            "upstream MLIR moves a vector of these elements as packed bits, and only 1-D "
            "vectors of them can be split into lanes",
        )


def _lane_by_lane(op: Operation) -> None:
    """Scalar accesses, one per lane, for elements a byte view cannot truncate."""
    vector_type = _vector_type(op)
    add = _before(op)
    buffer = memref_operand(op)
    indices = _indices(op, add)
    element = vector_type.element_type
    lanes: list[SSAValue] = []
    for lane in range(vector_type.get_shape()[0]):
        position = [*indices[:-1], _plus(indices[-1], lane, add)]
        if op.name in VECTOR_LOADS:
            lanes.append(_added(add, memref.LoadOp.get(buffer, position)).results[0])
        else:
            extract = _added(add, vector.ExtractOp(op.operands[0], [lane], element))
            add(memref.StoreOp.get(extract.results[0], buffer, position))
    if op.name in VECTOR_LOADS:
        gathered = _added(add, FromElementsOp(lanes, vector_type))
        op.results[0].replace_all_uses_with(gathered.results[0])
    Rewriter.erase_op(op)


def _vector_type(op: Operation) -> VectorType:
    vector_type = (op.results[0] if op.name in VECTOR_LOADS else op.operands[0]).type
    assert isinstance(vector_type, VectorType)
    return vector_type


def _indices(op: Operation, add: Insert) -> list[SSAValue]:
    first = 2 if op.name in VECTOR_STORES else 1
    operands = list(op.operands[first:])
    if isinstance(op, vector.LoadOp | vector.StoreOp):
        return operands
    access_map: AffineMap = op.properties["map"].data  # type: ignore[attr-defined]
    results: list[SSAValue] = []
    for result in access_map.results:
        single = AffineMap(access_map.num_dims, access_map.num_symbols, (result,))
        results.append(_added(add, affine.ApplyOp(operands, AffineMapAttr(single))).results[0])
    return results


def _plus(index: SSAValue, lane: int, add: Insert) -> SSAValue:
    if lane == 0:
        return index
    constant = _added(add, arith.ConstantOp(IntegerAttr(lane, IndexType())))
    return _added(add, arith.AddiOp(index, constant.results[0])).results[0]


def _before(op: Operation) -> Insert:
    return lambda new: Rewriter.insert_op(new, InsertPoint.before(op))


def _added(add: Insert, op: Operation) -> Operation:
    add(op)
    return op
