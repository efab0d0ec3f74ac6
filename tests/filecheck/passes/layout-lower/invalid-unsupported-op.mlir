// An op with no lowering that uses a layout-typed memref is an error naming the op and the
// type; nothing is skipped silently. (Generic form: xDSL has no pretty syntax for it.)
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: {{.*}}invalid-unsupported-op.mlir:[[# @LINE + 2]]:3: error: layout-lower: memref.extract_aligned_pointer_as_index uses the layout-typed memref memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> and has no lowering; nothing is skipped silently
func.func @aligned_pointer(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> index {
  %p = "memref.extract_aligned_pointer_as_index"(%m) : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> index
  func.return %p : index
}
