// Transfers on layout-typed memrefs that layout-lower cannot lower are one-line errors naming
// the op, the type and why.
// RUN: layout-opt %s --split-input-file -p layout-lower --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s --split-input-file -p layout-lower 2>&1 | filecheck %s --check-prefix=FIRST
// The first error ends the run, with nothing printed.
// FIRST: invalid-transfers.mlir:[[# @LINE + 8]]:3: error: layout-lower: vector.transfer_read on a layout-typed memref: the size of '?' dim 1
// FIRST-NOT: builtin.module

// The walked `?` dim's size is needed for the guards, and only an allocation holds it.
// CHECK: layout-lower: vector.transfer_read on a layout-typed memref: the size of '?' dim 1 of memref<2x?xf32, #layout.tag<"NC->NC8c">> is not recoverable: the layout tiles that dim (physical extent d1 ceildiv 8 over the logical sizes d<i>), and only an allocation in this function holds it; pass the size alongside the memref
func.func @unknown_extent(%a: memref<2x?xf32, #layout.tag<"NC->NC8c">>, %i: index) -> vector<8xf32> {
  %pad = arith.constant -7.0 : f32
  %c0 = arith.constant 0 : index
  %v = vector.transfer_read %a[%c0, %i], %pad : memref<2x?xf32, #layout.tag<"NC->NC8c">>, vector<8xf32>
  func.return %v : vector<8xf32>
}

// -----
// A 2-D transfer whose innermost vector dim broadcasts has no memref dim for its rows.
// CHECK: layout-lower: vector.transfer_read of vector<2x4xf32> on a layout-typed memref: its innermost vector dim broadcasts (no memref dim to walk)
func.func @broadcast_rows(%a: memref<8x8xf32, #layout.tag<"NC->CN">>, %i: index) -> vector<2x4xf32> {
  %pad = arith.constant -7.0 : f32
  %c0 = arith.constant 0 : index
  %v = vector.transfer_read %a[%i, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<8x8xf32, #layout.tag<"NC->CN">>, vector<2x4xf32>
  func.return %v : vector<2x4xf32>
}
