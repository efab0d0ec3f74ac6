// A lowering error is one line: the file:line:col of the op, then what is wrong (it names
// the op), never the module. layout-opt and layout-run print it alike; plain xdsl-opt with
// the plugin raises the same message (its parser records no locations).
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s
// RUN: not layout-run %s -p layout-lower 2>&1 | filecheck %s
// RUN: not xdsl-opt %s -p layout-lower 2>&1 | filecheck %s --check-prefix=XDSL

// CHECK: {{^.*}}one-line-lowering.mlir:[[# @LINE + 7]]:3: error: layout-lower: memref.extract_aligned_pointer_as_index uses the layout-typed memref memref<4x8xf32, #layout.tag<"AB->BA">> and has no lowering; nothing is skipped silently
// CHECK-NOT: {{.}}
// XDSL: PassFailedException: layout-lower: memref.extract_aligned_pointer_as_index uses the layout-typed memref memref<4x8xf32, #layout.tag<"AB->BA">> and has no lowering; nothing is skipped silently
// XDSL-NOT: builtin.module
func.func @f(%m: memref<4x8xf32, #layout.tag<"AB->BA">>) -> index {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0, %c0] : memref<4x8xf32, #layout.tag<"AB->BA">>
  %p = "memref.extract_aligned_pointer_as_index"(%m) : (memref<4x8xf32, #layout.tag<"AB->BA">>) -> index
  func.return %p : index
}
