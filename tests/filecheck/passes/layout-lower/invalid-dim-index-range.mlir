// memref.dim of a layout-typed memref with a constant dim index beyond its rank is an error
// naming the op (it was an internal error).
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: {{.*}}invalid-dim-index-range.mlir:[[# @LINE + 4]]:3: error: layout-lower: memref.dim index 1 is out of range for rank 1
// CHECK-NOT: Traceback
func.func @f(%m: memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>) -> index {
  %c1 = arith.constant 1 : index
  %d = memref.dim %m, %c1 : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
  func.return %d : index
}
