// A semi-affine map (a product of two dims, or of a dim and a symbol) is a parse error at
// the map, not an internal error, in layout-opt and layout-run.
// RUN: not layout-opt %s 2>&1 | filecheck %s
// RUN: not layout-run %s 2>&1 | filecheck %s

// CHECK: invalid-semi-affine.mlir:[[# @LINE + 3]]:48
// CHECK: func.func @main: memref<3x3xf32, affine_map<(d0, d1) -> (d0 * d1)>>: the layout affine_map<(d0, d1) -> (d0 * d1)> is semi-affine (d0 * d1 multiplies two terms that are not constants); heterolayout reads quasi-affine maps only
// CHECK-NOT: internal error
func.func @main(%a: memref<3x3xf32, affine_map<(d0, d1) -> (d0 * d1)>>) {
  return
}
