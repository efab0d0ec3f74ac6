// A semi-affine map (a product of two dims, or of a dim and a symbol) is a parse error at
// the map, not an internal error, in layout-opt and layout-run.
// RUN: not layout-opt %s 2>&1 | filecheck %s
// RUN: not layout-run %s 2>&1 | filecheck %s

// CHECK: invalid-semi-affine.mlir:[[# @LINE + 3]]:48
// CHECK: semi-affine map: Multiplication with non-constant (semi-affine) is not supported yet self: d0 other: d1; affine maps here (layouts included) are quasi-affine
// CHECK-NOT: internal error
func.func @main(%a: memref<3x3xf32, affine_map<(d0, d1) -> (d0 * d1)>>) {
  return
}
