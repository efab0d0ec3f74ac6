// An external declaration with a layout-typed memref in its signature cannot be lowered:
// its definition lives elsewhere, so retyping it would silently change its ABI.
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: {{.*}}invalid-external-declaration.mlir:[[# @LINE + 1]]:1: error: layout-lower: external function @conv has a layout-typed memref in its signature; lowering would change its ABI. Declare it with the physical type, or define it in this module
func.func private @conv(memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> ()
func.func @main(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) {
  func.call @conv(%m) : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> ()
  func.return
}
