// layout-strip refuses a view of a layout-typed memref (its offsets and strides index the
// physical buffer, which a plain memref of the logical shape does not have), naming the op.
// RUN: not layout-opt %s -p layout-strip 2>&1 | filecheck %s

// CHECK: memref.subview at {{.*}}invalid.mlir:8:3: layout-strip: a view of a layout-typed memref has no plain-memref equivalent
// CHECK-NOT: builtin.module
func.func @view(%a: memref<8x8xf32, #layout.tag<"NC->CN4n">>) {
  %s = memref.subview %a[0, 0] [4, 4] [1, 1] : memref<8x8xf32, #layout.tag<"NC->CN4n">> to memref<4x4xf32, strided<[8, 1]>>
  func.return
}
