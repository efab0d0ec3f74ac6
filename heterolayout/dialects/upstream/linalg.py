"""linalg named ops upstream MLIR 22 has and xDSL 0.74 lacks or defines too narrowly.

Missing in xDSL: `batch_matmul`, `matvec`, `vecmat`, `dot`, `depthwise_conv_2d_nhwc_hwc`,
`depthwise_conv_2d_nchw_chw`, `pooling_nhwc_sum|max|min`, `pooling_nchw_sum`. Too narrow in
xDSL: `conv_2d_nchw_fchw`, `conv_2d_nhwc_hwcf` and `pooling_nchw_max` require `strides`
and `dilations`, which upstream defaults to 1. Each op carries the body and indexing maps
upstream's `--linalg-generalize-named-ops` gives it (checked against MLIR 22), so running
or lowering it means running its `linalg.generic` form.
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
    DenseIntElementsAttr,
    IntegerType,
)
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def
from xdsl.utils.exceptions import VerifyException

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


def _mac(inputs: Sequence[SSAValue], out: SSAValue) -> SSAValue:
    """`out + in0 · in1`, in upstream's operand order."""
    if isinstance(out.type, AnyFloat):
        return arith.AddfOp(out, arith.MulfOp(inputs[0], inputs[1]).result).result
    return arith.AddiOp(out, arith.MuliOp(inputs[0], inputs[1]).result).result


def _sum(inputs: Sequence[SSAValue], out: SSAValue) -> SSAValue:
    if isinstance(out.type, AnyFloat):
        return arith.AddfOp(out, inputs[0]).result
    return arith.AddiOp(out, inputs[0]).result


def _max(inputs: Sequence[SSAValue], out: SSAValue) -> SSAValue:
    if isinstance(out.type, AnyFloat):
        return arith.MaximumfOp(out, inputs[0]).result
    return arith.MaxSIOp(out, inputs[0]).result


def _min(inputs: Sequence[SSAValue], out: SSAValue) -> SSAValue:
    if isinstance(out.type, AnyFloat):
        return arith.MinimumfOp(out, inputs[0]).result
    return arith.MinSIOp(out, inputs[0]).result


class _Named(NamedOperation):
    """A named op defined by its body, its maps over `LOOPS` dims and their iterators."""

    BODY: ClassVar[Body]
    ITERATORS: ClassVar[str]
    """One letter per loop: `p` parallel, `r` reduction."""
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
    """Convolutions and poolings: `strides` and `dilations` (2-D, default 1) place the
    window over the image."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    strides = opt_prop_def(DenseIntElementsAttr)
    dilations = opt_prop_def(DenseIntElementsAttr)

    def window(self) -> tuple[tuple[int, int], tuple[int, int]]:
        strides = (1, 1) if self.strides is None else tuple(self.strides.get_values())
        dilations = (1, 1) if self.dilations is None else tuple(self.dilations.get_values())
        return strides, dilations  # type: ignore[return-value]

    def _at(self, out: AffineExpr, window: AffineExpr, axis: int) -> AffineExpr:
        (strides, dilations) = self.window()
        return out * strides[axis] + window * dilations[axis]


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


OPS: list[type[Operation]] = [
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
]
