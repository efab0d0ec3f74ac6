// Where upstream `mlir-opt --normalize-memrefs` goes wrong, (3): an external declaration
// taking a tiled memref. Upstream rewrites the declaration to memref<3x4x4x4xf32> without a
// word, though the function is compiled elsewhere against the 10x16 ABI. layout-lower refuses,
// naming the function.
// REQUIRES: mlir-opt
// RUN: %mlir_opt --normalize-memrefs %s | filecheck %s --check-prefix=UPSTREAM
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

#tiled = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>

// UPSTREAM:      func.func private @external(memref<3x4x4x4xf32>)
// UPSTREAM:      func.func @caller(%[[A:.*]]: memref<3x4x4x4xf32>) {
// UPSTREAM-NEXT:   call @external(%[[A]]) : (memref<3x4x4x4xf32>) -> ()

// CHECK: {{.*}}external-declaration.mlir:[[# @LINE + 1]]:1: error: layout-lower: external function @external has a layout-typed memref in its signature; lowering would change its ABI
func.func private @external(memref<10x16xf32, #tiled>)
func.func @caller(%A: memref<10x16xf32, #tiled>) {
  func.call @external(%A) : (memref<10x16xf32, #tiled>) -> ()
  func.return
}
