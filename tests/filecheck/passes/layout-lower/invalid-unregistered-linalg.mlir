// A linalg op that layout-lower cannot make loops (here unregistered, with upstream's
// generic form) has the roles of its operand groups, inputs read and outputs written, and
// no lowering of its own: on a layout-typed memref it is refused by name.
// RUN: not layout-opt %s --allow-unregistered-dialect -p layout-lower 2>&1 | filecheck %s

// CHECK: invalid-unregistered-linalg.mlir:[[# @LINE + 2]]:3: error: layout-lower: linalg.map_like uses the layout-typed memref memref<4xf32, #layout.tag<"W->w2w">> and has no lowering; nothing is skipped silently
func.func @f(%a: memref<4xf32, #layout.tag<"W->w2w">>, %c: memref<4xf32>) {
  "linalg.map_like"(%a, %c) ({
  ^bb0(%x: f32, %z: f32):
    "linalg.yield"(%x) : (f32) -> ()
  }) {operandSegmentSizes = array<i32: 1, 1>} : (memref<4xf32, #layout.tag<"W->w2w">>, memref<4xf32>) -> ()
  func.return
}
