// memref.subview of a layout-typed memref has no lowering (a window of a blocked buffer is
// not a strided view): an error naming the op.
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: layout-lower: memref.subview uses the layout-typed memref memref<16xf32, #layout.tag<"W->W4w">> and has no lowering; nothing is skipped silently
// CHECK-NOT: builtin.module {
func.func @window(%m: memref<16xf32, #layout.tag<"W->W4w">>) -> memref<4xf32, strided<[1]>> {
  %s = memref.subview %m[0] [4] [1] : memref<16xf32, #layout.tag<"W->W4w">> to memref<4xf32, strided<[1]>>
  func.return %s : memref<4xf32, strided<[1]>>
}
