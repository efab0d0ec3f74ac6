"""linalg named ops upstream MLIR 22 has and xDSL 0.74 lacks or defines too narrowly.

Missing in xDSL: `map` (what `tensor.pad` bufferizes to without `--convert-tensor-to-linalg`),
`batch_matmul`, `matvec`, `vecmat`, `dot`, `depthwise_conv_2d_nhwc_hwc`,
`depthwise_conv_2d_nchw_chw`, `pooling_nhwc_sum|max|min`, `pooling_nchw_sum`, and the 1-D and
3-D windows (ONNX's Conv1d/Conv3d, 1-D and 3-D pools, LRN): `conv_1d_ncw_fcw`,
`conv_1d_nwc_wcf`, `conv_3d_ncdhw_fcdhw`, `conv_3d_ndhwc_dhwcf`, `pooling_ncw|nwc|ndhwc_sum|max|min`. Too narrow in
xDSL: `conv_2d_nchw_fchw`, `conv_2d_nhwc_hwcf` and `pooling_nchw_max` require `strides`
and `dilations`, which upstream defaults to 1. Bodies different from upstream's in xDSL:
`add`, `sub`, `mul`, `matmul` and the other convolutions add `i1` with `arith.addi` (xor),
where upstream's region builder (`RegionBuilderHelper::buildBinaryFn` in LinalgOps.cpp)
adds bools with `arith.ori` and multiplies them with `arith.andi`, and refuses `sub` of
them; xDSL's `matmul` does not cast its inputs to the output's type (i8 × i8 into i32).
xDSL's `reduce` reads no short form (`linalg.reduce { arith.addf } ins(…) outs(…)`) and no
attribute dictionary.
Each op carries the body and indexing maps upstream's `--linalg-generalize-named-ops`
gives it (checked against MLIR 22), so running or lowering it means running its
`linalg.generic` form.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    ContainerType,
    DenseArrayBase,
    DenseIntElementsAttr,
    IntegerType,
    MemRefType,
    ShapedType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import ConvOperation, ElementwiseOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

Binary = Callable[[SSAValue, SSAValue], SSAValue]
Body = Callable[[Sequence[SSAValue], SSAValue], SSAValue]
"""Builds the scalar body: from the inputs (cast to the output's element type) and the
output element, the yielded value."""


def _cast(value: SSAValue, target: Attribute) -> SSAValue:
    """upstream's `cast_signed`: integers sign-extend or truncate, floats extend or
    truncate, integers become floats signed."""
    source = value.type
    if source == target:
        return value
    if isinstance(source, IntegerType) and isinstance(target, IntegerType):
        if source.width.data < target.width.data:
            return arith.ExtSIOp(value, target).result
        return arith.TruncIOp(value, target).result
    if isinstance(source, AnyFloat) and isinstance(target, AnyFloat):
        if source.bitwidth < target.bitwidth:
            return arith.ExtFOp(value, target).result
        return arith.TruncFOp(value, target).result
    if isinstance(source, IntegerType) and isinstance(target, AnyFloat):
        return arith.SIToFPOp(value, target).result
    if isinstance(target, IntegerType):
        return arith.FPToSIOp(value, target).result
    raise ValueError(f"no cast from {source} to {target}")


def _is_bool(value: SSAValue) -> bool:
    return isinstance(value.type, IntegerType) and value.type.width.data == 1


def _add(lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """upstream's `BinaryFn::add`: `arith.ori` on i1 (bools), not xor."""
    if isinstance(lhs.type, AnyFloat):
        return arith.AddfOp(lhs, rhs).result
    if _is_bool(lhs):
        return arith.OrIOp(lhs, rhs).result
    return arith.AddiOp(lhs, rhs).result


def _mul(lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """upstream's `BinaryFn::mul`: `arith.andi` on i1."""
    if isinstance(lhs.type, AnyFloat):
        return arith.MulfOp(lhs, rhs).result
    if _is_bool(lhs):
        return arith.AndIOp(lhs, rhs).result
    return arith.MuliOp(lhs, rhs).result


def _sub(lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """upstream's `BinaryFn::sub` (refused on i1: `verify_` of the op says so)."""
    if isinstance(lhs.type, AnyFloat):
        return arith.SubfOp(lhs, rhs).result
    return arith.SubiOp(lhs, rhs).result


def _mac(inputs: Sequence[SSAValue], out: SSAValue) -> SSAValue:
    """`out + in0 · in1`, in upstream's operand order."""
    return _add(out, _mul(inputs[0], inputs[1]))


def _sum(inputs: Sequence[SSAValue], out: SSAValue) -> SSAValue:
    return _add(out, inputs[0])


def _max(inputs: Sequence[SSAValue], out: SSAValue) -> SSAValue:
    if isinstance(out.type, AnyFloat):
        return arith.MaximumfOp(out, inputs[0]).result
    return arith.MaxSIOp(out, inputs[0]).result


def _min(inputs: Sequence[SSAValue], out: SSAValue) -> SSAValue:
    if isinstance(out.type, AnyFloat):
        return arith.MinimumfOp(out, inputs[0]).result
    return arith.MinSIOp(out, inputs[0]).result


class _UpstreamBody(NamedOperation):
    """A named op whose body is `BODY` on its inputs cast to the output's element type."""

    BODY: ClassVar[Body]
    BODY_INPUTS: ClassVar[int] = 2
    """How many inputs the body reads (pooling windows read only the image)."""

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        body = cls.BODY

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            out = args[-1]
            cast = [_cast(a, out.type) for a in args[: cls.BODY_INPUTS]]
            YieldOp(body(cast, out))

        return hidden_region


class _Named(_UpstreamBody):
    """A named op defined by its body, its maps over `LOOPS` dims and their iterators."""

    ITERATORS: ClassVar[str]
    """One letter per loop: `p` parallel, `r` reduction."""

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr(
            IteratorTypeAttr.parallel() if c == "p" else IteratorTypeAttr.reduction()
            for c in self.ITERATORS
        )


def _maps(loops: int, *results: Sequence[AffineExpr]) -> tuple[AffineMap, ...]:
    return tuple(AffineMap(loops, 0, tuple(r)) for r in results)


def _dims(count: int) -> list[AffineExpr]:
    return [AffineDimExpr(i) for i in range(count)]


@irdl_op_definition
class BatchMatmulOp(_Named):
    name = "linalg.batch_matmul"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "pppr"

    indexing_maps = opt_prop_def(ArrayAttr[AffineMapAttr])
    """Upstream writes the default maps into the generic form; other maps (transposed
    operands) are not supported."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        b, m, n, k = _dims(4)
        return _maps(4, (b, m, k), (b, k, n), (b, m, n))

    def verify_(self) -> None:
        super().verify_()
        if self.indexing_maps is not None and [m.data for m in self.indexing_maps] != list(
            self.get_default_indexing_maps()
        ):
            raise VerifyException(f"{self.name}: only the default indexing maps are supported")


@irdl_op_definition
class MatvecOp(_Named):
    name = "linalg.matvec"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "pr"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        m, k = _dims(2)
        return _maps(2, (m, k), (k,), (m,))


@irdl_op_definition
class VecmatOp(_Named):
    name = "linalg.vecmat"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "pr"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, k = _dims(2)
        return _maps(2, (k,), (k, n), (n,))


@irdl_op_definition
class DotOp(_Named):
    name = "linalg.dot"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "r"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        (k,) = _dims(1)
        return _maps(1, (k,), (k,), ())


class _Window(_Named):
    """Convolutions and poolings: `strides` and `dilations` (one per spatial dim, default 1)
    place the window over the image."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    SPATIAL: ClassVar[int] = 2
    """Spatial dims: 1 (`*_1d_*`, `pooling_ncw_*`), 2, or 3 (`*_3d_*`, `pooling_ndhwc_*`)."""

    strides = opt_prop_def(DenseIntElementsAttr)
    dilations = opt_prop_def(DenseIntElementsAttr)

    def window(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        ones = (1,) * self.SPATIAL
        strides = ones if self.strides is None else tuple(self.strides.get_values())
        dilations = ones if self.dilations is None else tuple(self.dilations.get_values())
        return strides, dilations

    def _at(self, out: AffineExpr, window: AffineExpr, axis: int) -> AffineExpr:
        (strides, dilations) = self.window()
        return out * strides[axis] + window * dilations[axis]

    def _image(self, outs: Sequence[AffineExpr], windows: Sequence[AffineExpr]) -> list[AffineExpr]:
        return [self._at(o, w, axis) for axis, (o, w) in enumerate(zip(outs, windows, strict=True))]

    def verify_(self) -> None:
        super().verify_()
        for name in ("strides", "dilations"):
            values = getattr(self, name)
            if values is not None and len(values.get_values()) != self.SPATIAL:
                raise VerifyException(
                    f"{self.name}: {name} needs {self.SPATIAL} values, got "
                    f"{len(values.get_values())}"
                )


@irdl_op_definition
class Conv2DNchwFchwOp(_Window):
    name = "linalg.conv_2d_nchw_fchw"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "pppprrr"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, f, oh, ow, c, kh, kw = _dims(7)
        image = (n, c, self._at(oh, kh, 0), self._at(ow, kw, 1))
        return _maps(7, image, (f, c, kh, kw), (n, f, oh, ow))


@irdl_op_definition
class Conv2DNhwcHwcfOp(_Window):
    name = "linalg.conv_2d_nhwc_hwcf"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "pppprrr"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, f, kh, kw, c = _dims(7)
        image = (n, self._at(oh, kh, 0), self._at(ow, kw, 1), c)
        return _maps(7, image, (kh, kw, c, f), (n, oh, ow, f))


@irdl_op_definition
class Conv1DNcwFcwOp(_Window):
    name = "linalg.conv_1d_ncw_fcw"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "ppprr"
    SPATIAL: ClassVar[int] = 1

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, f, ow, c, kw = _dims(5)
        return _maps(5, (n, c, *self._image([ow], [kw])), (f, c, kw), (n, f, ow))


@irdl_op_definition
class Conv1DNwcWcfOp(_Window):
    name = "linalg.conv_1d_nwc_wcf"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "ppprr"
    SPATIAL: ClassVar[int] = 1

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, ow, f, kw, c = _dims(5)
        return _maps(5, (n, *self._image([ow], [kw]), c), (kw, c, f), (n, ow, f))


@irdl_op_definition
class Conv3DNcdhwFcdhwOp(_Window):
    name = "linalg.conv_3d_ncdhw_fcdhw"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "ppppprrrr"
    SPATIAL: ClassVar[int] = 3

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, f, od, oh, ow, c, kd, kh, kw = _dims(9)
        image = (n, c, *self._image([od, oh, ow], [kd, kh, kw]))
        return _maps(9, image, (f, c, kd, kh, kw), (n, f, od, oh, ow))


@irdl_op_definition
class Conv3DNdhwcDhwcfOp(_Window):
    name = "linalg.conv_3d_ndhwc_dhwcf"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "ppppprrrr"
    SPATIAL: ClassVar[int] = 3

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, od, oh, ow, f, kd, kh, kw, c = _dims(9)
        image = (n, *self._image([od, oh, ow], [kd, kh, kw]), c)
        return _maps(9, image, (kd, kh, kw, c, f), (n, od, oh, ow, f))


@irdl_op_definition
class DepthwiseConv2DNhwcHwcOp(_Window):
    name = "linalg.depthwise_conv_2d_nhwc_hwc"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "pppprr"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = _dims(6)
        image = (n, self._at(oh, kh, 0), self._at(ow, kw, 1), c)
        return _maps(6, image, (kh, kw, c), (n, oh, ow, c))


@irdl_op_definition
class DepthwiseConv2DNchwChwOp(_Window):
    name = "linalg.depthwise_conv_2d_nchw_chw"
    BODY: ClassVar[Body] = staticmethod(_mac)
    ITERATORS: ClassVar[str] = "pppprr"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = _dims(6)
        image = (n, c, self._at(oh, kh, 0), self._at(ow, kw, 1))
        return _maps(6, image, (c, kh, kw), (n, c, oh, ow))


class _PoolingNhwc(_Window):
    ITERATORS: ClassVar[str] = "pppprr"
    BODY_INPUTS: ClassVar[int] = 1

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = _dims(6)
        image = (n, self._at(oh, kh, 0), self._at(ow, kw, 1), c)
        return _maps(6, image, (kh, kw), (n, oh, ow, c))


class _PoolingNchw(_Window):
    ITERATORS: ClassVar[str] = "pppprr"
    BODY_INPUTS: ClassVar[int] = 1

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, c, oh, ow, kh, kw = _dims(6)
        image = (n, c, self._at(oh, kh, 0), self._at(ow, kw, 1))
        return _maps(6, image, (kh, kw), (n, c, oh, ow))


class _PoolingNcw(_Window):
    ITERATORS: ClassVar[str] = "pppr"
    BODY_INPUTS: ClassVar[int] = 1
    SPATIAL: ClassVar[int] = 1

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, c, ow, kw = _dims(4)
        return _maps(4, (n, c, *self._image([ow], [kw])), (kw,), (n, c, ow))


class _PoolingNwc(_Window):
    ITERATORS: ClassVar[str] = "pppr"
    BODY_INPUTS: ClassVar[int] = 1
    SPATIAL: ClassVar[int] = 1

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, ow, c, kw = _dims(4)
        return _maps(4, (n, *self._image([ow], [kw]), c), (kw,), (n, ow, c))


class _PoolingNdhwc(_Window):
    ITERATORS: ClassVar[str] = "ppppprrr"
    BODY_INPUTS: ClassVar[int] = 1
    SPATIAL: ClassVar[int] = 3

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, od, oh, ow, c, kd, kh, kw = _dims(8)
        image = (n, *self._image([od, oh, ow], [kd, kh, kw]), c)
        return _maps(8, image, (kd, kh, kw), (n, od, oh, ow, c))


@irdl_op_definition
class PoolingNcwSumOp(_PoolingNcw):
    name = "linalg.pooling_ncw_sum"
    BODY: ClassVar[Body] = staticmethod(_sum)


@irdl_op_definition
class PoolingNcwMaxOp(_PoolingNcw):
    name = "linalg.pooling_ncw_max"
    BODY: ClassVar[Body] = staticmethod(_max)


@irdl_op_definition
class PoolingNcwMinOp(_PoolingNcw):
    name = "linalg.pooling_ncw_min"
    BODY: ClassVar[Body] = staticmethod(_min)


@irdl_op_definition
class PoolingNwcSumOp(_PoolingNwc):
    name = "linalg.pooling_nwc_sum"
    BODY: ClassVar[Body] = staticmethod(_sum)


@irdl_op_definition
class PoolingNwcMaxOp(_PoolingNwc):
    name = "linalg.pooling_nwc_max"
    BODY: ClassVar[Body] = staticmethod(_max)


@irdl_op_definition
class PoolingNwcMinOp(_PoolingNwc):
    name = "linalg.pooling_nwc_min"
    BODY: ClassVar[Body] = staticmethod(_min)


@irdl_op_definition
class PoolingNdhwcSumOp(_PoolingNdhwc):
    name = "linalg.pooling_ndhwc_sum"
    BODY: ClassVar[Body] = staticmethod(_sum)


@irdl_op_definition
class PoolingNdhwcMaxOp(_PoolingNdhwc):
    name = "linalg.pooling_ndhwc_max"
    BODY: ClassVar[Body] = staticmethod(_max)


@irdl_op_definition
class PoolingNdhwcMinOp(_PoolingNdhwc):
    name = "linalg.pooling_ndhwc_min"
    BODY: ClassVar[Body] = staticmethod(_min)


@irdl_op_definition
class PoolingNhwcSumOp(_PoolingNhwc):
    name = "linalg.pooling_nhwc_sum"
    BODY: ClassVar[Body] = staticmethod(_sum)


@irdl_op_definition
class PoolingNhwcMaxOp(_PoolingNhwc):
    name = "linalg.pooling_nhwc_max"
    BODY: ClassVar[Body] = staticmethod(_max)


@irdl_op_definition
class PoolingNhwcMinOp(_PoolingNhwc):
    name = "linalg.pooling_nhwc_min"
    BODY: ClassVar[Body] = staticmethod(_min)


@irdl_op_definition
class PoolingNchwSumOp(_PoolingNchw):
    name = "linalg.pooling_nchw_sum"
    BODY: ClassVar[Body] = staticmethod(_sum)


@irdl_op_definition
class PoolingNchwMaxOp(_PoolingNchw):
    name = "linalg.pooling_nchw_max"
    BODY: ClassVar[Body] = staticmethod(_max)


# ---- xDSL's ops with upstream's bodies ---------------------------------------------------------
class _Elementwise(ElementwiseOperation):
    """An elementwise binary op: `BINARY` of its two inputs, uncast (as upstream's)."""

    BINARY: ClassVar[Binary]

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        binary = cls.BINARY

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(binary(args[0], args[1]))

        return hidden_region


@irdl_op_definition
class AddOp(_Elementwise):
    """`arith.ori` on i1 (xDSL's: `arith.addi`)."""

    name = "linalg.add"
    BINARY: ClassVar[Binary] = staticmethod(_add)


@irdl_op_definition
class MulOp(_Elementwise):
    """`arith.andi` on i1 (xDSL's: `arith.muli`, the same bits)."""

    name = "linalg.mul"
    BINARY: ClassVar[Binary] = staticmethod(_mul)


@irdl_op_definition
class SubOp(_Elementwise):
    """Refused on i1, as upstream refuses it ("unsupported operation: sub with bools")."""

    name = "linalg.sub"
    BINARY: ClassVar[Binary] = staticmethod(_sub)

    def verify_(self) -> None:
        if any(_is_bool(a) for a in self.body.block.args[:2]):
            raise VerifyException(
                f"{self.name}: sub of i1 (bools) is not supported (upstream MLIR refuses it)"
            )


@irdl_op_definition
class MatmulOp(_UpstreamBody):
    """Inputs cast to the output's type, then `out + a · b` (`arith.ori` / `arith.andi` on
    i1), as upstream; xDSL's casts nothing and adds i1 with `arith.addi`."""

    name = "linalg.matmul"
    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    BODY: ClassVar[Body] = staticmethod(_mac)

    indexing_maps = prop_def(
        ArrayAttr[AffineMapAttr],
        default_value=linalg.MatmulOp.get_irdl_definition()
        .properties["indexing_maps"]
        .default_value,
    )

    get_default_indexing_maps = linalg.MatmulOp.get_default_indexing_maps
    get_indexing_maps = linalg.MatmulOp.get_indexing_maps
    get_iterator_types = linalg.MatmulOp.get_iterator_types

    @classmethod
    def parse(cls, parser: Parser) -> MatmulOp:
        """Upstream's `linalg.matmul indexing_maps = [...] ins(...) outs(...)` too (xDSL's
        parser reads no maps there, and its printer drops them)."""
        maps = None
        if parser.parse_optional_keyword("indexing_maps") is not None:
            parser.parse_punctuation("=")
            at = parser.pos
            parsed = parser.parse_attribute()
            if not isa(parsed, ArrayAttr[AffineMapAttr]):
                parser.raise_error(
                    f"linalg.matmul: indexing_maps {parsed} is not a list of affine maps", at
                )
            maps = parsed
        op = super().parse(parser)
        assert isinstance(op, MatmulOp)
        if maps is not None:
            op.indexing_maps = maps
        return op

    def print(self, printer: Printer) -> None:
        default = type(self).get_irdl_definition().properties["indexing_maps"].default_value
        if self.indexing_maps != default:
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.indexing_maps)
        super().print(printer)


class _Convolution(_UpstreamBody, ConvOperation):
    """xDSL's convolutions with upstream's body: inputs cast to the output's type (floats
    extended, not sign-extended), bools or-ed and and-ed."""

    BODY: ClassVar[Body] = staticmethod(_mac)


@irdl_op_definition
class Conv2DNgchwFgchwOp(_Convolution):
    name = "linalg.conv_2d_ngchw_fgchw"
    get_default_indexing_maps = linalg.Conv2DNgchwFgchwOp.get_default_indexing_maps


@irdl_op_definition
class Conv2DNgchwGfchwOp(_Convolution):
    name = "linalg.conv_2d_ngchw_gfchw"
    get_default_indexing_maps = linalg.Conv2DNgchwGfchwOp.get_default_indexing_maps


@irdl_op_definition
class Conv2DNhwcFhwcOp(_Convolution):
    name = "linalg.conv_2d_nhwc_fhwc"
    get_default_indexing_maps = linalg.Conv2DNhwc_FhwcOp.get_default_indexing_maps


@irdl_op_definition
class Conv2DNhwgcGfhwcOp(_Convolution):
    name = "linalg.conv_2d_nhwgc_gfhwc"
    get_default_indexing_maps = linalg.Conv2DNhwgcGfhwcOp.get_default_indexing_maps


# ---- linalg.map and linalg.reduce -----------------------------------------------------------
def _parse_short_form(parser: Parser) -> tuple[str, dict[str, Attribute]] | None:
    """`{ payload.op {attrs} }`: the one op of a body in upstream's short form."""
    if parser.parse_optional_punctuation("{") is None:
        return None
    name = parser.parse_identifier()
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation("}")
    return name, attributes


def _parse_operands(parser: Parser, keyword: str, optional: bool = False) -> list[SSAValue]:
    """`ins(%a, %b : ta, tb)` or `outs(…)` (an optional group absent: none)."""
    if optional and parser.parse_optional_keyword(keyword) is None:
        return []
    if not optional:
        parser.parse_keyword(keyword)
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"{keyword}: {len(names)} operands but {len(types)} types")
    return [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]


def _element(value: SSAValue) -> Attribute:
    return value.type.get_element_type() if isinstance(value.type, ContainerType) else value.type


def _payload_region(
    parser: Parser,
    short_form: tuple[str, dict[str, Attribute]],
    operands: Sequence[SSAValue],
    payload_args: Sequence[int],
) -> Region:
    """The body upstream builds from a short form: one block argument per operand (their
    element types), the payload op on the arguments `payload_args`, its result yielded."""
    name, attributes = short_form
    op_type = parser.ctx.get_optional_op(name)
    if op_type is None:
        parser.raise_error(f"short form of a linalg body: operation {name} is not registered")
    properties: dict[str, Attribute] = {}
    if issubclass(op_type, IRDLOperation):
        names = op_type.get_irdl_definition().properties
        properties = {k: v for k, v in attributes.items() if k in names}
        attributes = {k: v for k, v in attributes.items() if k not in names}
    block = Block(arg_types=[_element(o) for o in operands])
    payload = op_type.create(
        operands=[block.args[i] for i in payload_args],
        result_types=[_element(operands[-1])],
        properties=properties,
        attributes=attributes,
    )
    block.add_ops([payload, YieldOp(payload.results[0])])
    return Region(block)


def _parse_body(parser: Parser) -> Region:
    """`(%in: f32, %init: f32) { … }`: a body in full."""
    arguments = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
    return parser.parse_region(arguments)


def _print_operands(printer: Printer, keyword: str, operands: Sequence[SSAValue]) -> None:
    printer.print_string(f" {keyword}(")
    printer.print_list(operands, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list([o.type for o in operands], printer.print_attribute)
    printer.print_string(")")


def _print_body(printer: Printer, region: Region) -> None:
    printer.print_string(" (")
    printer.print_list(region.block.args, printer.print_block_argument)
    printer.print_string(") ")
    printer.print_region(region, print_entry_block_args=False)


@irdl_op_definition
class MapOp(IRDLOperation):
    """`linalg.map`: the body applied to the elements of the inputs at each point of the
    init, written there. Its block takes one argument per operand, the init's last (as MLIR 22
    builds it); the short form `{ arith.addf }` applies the op to the inputs' arguments.
    Every operand has the init's shape, so every indexing map is the identity."""

    name = "linalg.map"

    inputs = var_operand_def()
    init = operand_def()
    result = var_result_def()
    mapper = region_def("single_block")

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        short_form = _parse_short_form(parser)
        inputs = _parse_operands(parser, "ins", optional=True)
        outputs = _parse_operands(parser, "outs")
        if len(outputs) != 1:
            parser.raise_error(f"linalg.map: expected one init, got {len(outputs)}")
        attributes = parser.parse_optional_attr_dict()
        operands = [*inputs, *outputs]
        if short_form is not None:
            region = _payload_region(parser, short_form, operands, range(len(inputs)))
        else:
            region = _parse_body(parser)
        results = [outputs[0].type] if not isinstance(outputs[0].type, MemRefType) else []
        return cls.create(
            operands=operands, result_types=results, regions=[region], attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        if self.inputs:
            _print_operands(printer, "ins", self.inputs)
        _print_operands(printer, "outs", [self.init])
        printer.print_op_attributes(self.attributes)
        _print_body(printer, self.mapper)

    def verify_(self) -> None:
        shape = self.init.type.get_shape() if isinstance(self.init.type, ShapedType) else None
        for operand in self.inputs:
            if not isinstance(operand.type, ShapedType) or operand.type.get_shape() != shape:
                raise VerifyException(
                    f"{self.name}: an input of type {operand.type} does not have the init's shape "
                    f"({self.init.type})"
                )
        if len(self.mapper.block.args) != len(self.operands):
            raise VerifyException(
                f"{self.name}: the body takes {len(self.mapper.block.args)} arguments, "
                f"expected one per operand ({len(self.operands)})"
            )


class ReduceOp(linalg.ReduceOp):
    """Upstream's short form too (`linalg.reduce { arith.addf } ins(…) outs(…) dimensions =
    [1]`, whose payload op takes the init's argument first, then the input's) and an
    attribute dictionary after the dimensions."""

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        short_form = _parse_short_form(parser)
        at = parser.pos
        inputs, inits = _parse_operands(parser, "ins"), _parse_operands(parser, "outs")
        if len(inputs) != 1 or len(inits) != 1:
            parser.raise_error(
                f"linalg.reduce of {len(inputs)} inputs into {len(inits)} inits: only one "
                "input and one init are supported",
                at,
            )
        (input,), (init,) = inputs, inits
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dimensions = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_integer
        )
        attributes = parser.parse_optional_attr_dict()
        if short_form is not None:
            region = _payload_region(parser, short_form, [input, init], (1, 0))
        else:
            region = _parse_body(parser)
        op = cls(input, init, DenseArrayBase.from_list(i64, dimensions), region)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        _print_operands(printer, "ins", [self.input])
        _print_operands(printer, "outs", [self.init])
        printer.print_string(" dimensions = ")
        with printer.in_square_brackets():
            printer.print_list(self.dimensions.get_values(), printer.print_int)
        printer.print_op_attributes(self.attributes)
        _print_body(printer, self.region)


OPS: list[type[Operation]] = [
    MapOp,
    ReduceOp,
    AddOp,
    MulOp,
    SubOp,
    MatmulOp,
    Conv2DNgchwFgchwOp,
    Conv2DNgchwGfchwOp,
    Conv2DNhwcFhwcOp,
    Conv2DNhwgcGfhwcOp,
    BatchMatmulOp,
    MatvecOp,
    VecmatOp,
    DotOp,
    Conv2DNchwFchwOp,
    Conv2DNhwcHwcfOp,
    DepthwiseConv2DNhwcHwcOp,
    DepthwiseConv2DNchwChwOp,
    PoolingNhwcSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcMinOp,
    PoolingNchwSumOp,
    PoolingNchwMaxOp,
    Conv1DNcwFcwOp,
    Conv1DNwcWcfOp,
    Conv3DNcdhwFcdhwOp,
    Conv3DNdhwcDhwcfOp,
    PoolingNcwSumOp,
    PoolingNcwMaxOp,
    PoolingNcwMinOp,
    PoolingNwcSumOp,
    PoolingNwcMaxOp,
    PoolingNwcMinOp,
    PoolingNdhwcSumOp,
    PoolingNdhwcMaxOp,
    PoolingNdhwcMinOp,
]
