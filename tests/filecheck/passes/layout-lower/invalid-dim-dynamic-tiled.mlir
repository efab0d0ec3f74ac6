// The size of a '?' dim a layout tiles is not in its physical buffer (`n ceildiv 4` tiles of
// 4 hold n = 13, 14, 15 or 16 elements): where no allocation in the function holds it, an
// op that needs it is an error naming the op, the memref and its physical extent (never
// the wrong value upstream --normalize-memrefs gives, the physical extent).
// RUN: layout-opt %s --split-input-file -p layout-lower --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s --split-input-file -p layout-lower 2>&1 | filecheck %s --check-prefix=FIRST

// memref.dim of a function argument's tiled dim.
// FIRST: invalid-dim-dynamic-tiled.mlir:[[# @LINE + 5]]:3: error: layout-lower: memref.dim: the size of '?' dim 0 of memref<?xf32, affine_map<(d0) -> ((d0 floordiv 4), (d0 mod 4))>> is not recoverable: the layout tiles that dim (physical extent d0 ceildiv 4 over the logical sizes d<i>), and only an allocation in this function holds it; pass the size alongside the memref
// FIRST-NOT: builtin.module
// CHECK: layout-lower: memref.dim: the size of '?' dim 0 of memref<?xf32, affine_map<(d0) -> ((d0 floordiv 4), (d0 mod 4))>> is not recoverable
func.func @argument(%a: memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>) -> index {
  %c0 = arith.constant 0 : index
  %d = memref.dim %a, %c0 : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
  func.return %d : index
}

// -----
// memref.dim of a call result's tiled channel dim.
// CHECK: layout-lower: memref.dim: the size of '?' dim 1 of memref<1x?x4x4xf32, #layout.tag<"NCHW->NCHW16c">> is not recoverable: the layout tiles that dim (physical extent d1 ceildiv 16
func.func private @make(%c: index) -> memref<1x?x4x4xf32, #layout.tag<"NCHW->NCHW16c">> {
  %a = memref.alloc(%c) : memref<1x?x4x4xf32, #layout.tag<"NCHW->NCHW16c">>
  func.return %a : memref<1x?x4x4xf32, #layout.tag<"NCHW->NCHW16c">>
}
func.func @call_result(%c: index) -> index {
  %a = func.call @make(%c) : (index) -> memref<1x?x4x4xf32, #layout.tag<"NCHW->NCHW16c">>
  %c1 = arith.constant 1 : index
  %d = memref.dim %a, %c1 : memref<1x?x4x4xf32, #layout.tag<"NCHW->NCHW16c">>
  func.return %d : index
}

// -----
// A conversion between two tiled arguments: its loops need the logical size, which
// neither side holds.
// CHECK: layout-lower: layout.convert: the size of '?' dim 0 of memref<?xf32, #layout.tag<"C->C4c">> is not recoverable
func.func @convert(%a: memref<?xf32, #layout.tag<"C->C4c">>, %b: memref<?xf32, #layout.tag<"C->C8c">>) {
  layout.convert %a to %b : memref<?xf32, #layout.tag<"C->C4c">> to memref<?xf32, #layout.tag<"C->C8c">>
  func.return
}
