// linalg named ops on i1 that upstream MLIR 22's region builder refuses ("unsupported
// operation: sub with bools"): one line naming the op.
// RUN: layout-opt %s --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s 2>&1 | filecheck %s --check-prefix=LINE

// CHECK: linalg.sub: sub of i1 (bools) is not supported (upstream MLIR refuses it)
// LINE: {{.*}}invalid-linalg-bools.mlir:[[# @LINE + 2]]:3: error: linalg.sub: sub of i1 (bools) is not supported (upstream MLIR refuses it)
func.func @sub(%a: memref<4xi1>, %b: memref<4xi1>, %c: memref<4xi1>) {
  linalg.sub ins(%a, %b : memref<4xi1>, memref<4xi1>) outs(%c : memref<4xi1>)
  func.return
}
