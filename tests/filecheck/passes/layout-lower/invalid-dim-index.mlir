// memref.dim of a layout-typed memref with a non-constant dim index: which logical dim is
// meant is unknown at compile time, so it is refused.
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: {{.*}}invalid-dim-index.mlir:[[# @LINE + 2]]:3: error: layout-lower: memref.dim of a layout-typed memref needs a constant index
func.func @f(%m: memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>, %k: index) -> index {
  %d = memref.dim %m, %k : memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  func.return %d : index
}
