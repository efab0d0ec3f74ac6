// layout-strip keeps a view of a layout-typed memref as it is, on the plain logical memref:
// its type is already the one upstream gives that view (dialects/view_types.py), which is
// exactly its logical meaning. The result parses and verifies in mlir-opt 22.
// RUN: layout-opt %s -p layout-strip | filecheck %s
// RUN: layout-opt %s -p layout-strip | mlir-opt-22 | filecheck %s --check-prefix=UPSTREAM

// CHECK-LABEL: func.func @views(%a: memref<8x8xf32>, %n: index) -> f32 {
// CHECK-NEXT:    %s = memref.subview %a[0, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 2>>
// CHECK-NEXT:    %d = memref.subview %a[%n, 0] [2, 8] [1, 1] : memref<8x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT:    %c = memref.collapse_shape %a {{\[}}[0{{( : i64)?}}, 1{{( : i64)?}}]] : memref<8x8xf32> into memref<64xf32>
// CHECK-NEXT:    %t = memref.transpose %a (d0, d1) -> (d1, d0) : memref<8x8xf32> to memref<8x8xf32, strided<[1, 8]>>
// UPSTREAM: memref.subview %{{.*}}[0, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 2>>
func.func @views(%a: memref<8x8xf32, #layout.tag<"NC->CN4n">>, %n: index) -> f32 {
  %s = memref.subview %a[0, 2] [4, 4] [1, 1] : memref<8x8xf32, #layout.tag<"NC->CN4n">> to memref<4x4xf32, strided<[8, 1], offset: 2>>
  %d = memref.subview %a[%n, 0] [2, 8] [1, 1] : memref<8x8xf32, #layout.tag<"NC->CN4n">> to memref<2x8xf32, strided<[8, 1], offset: ?>>
  %c = memref.collapse_shape %a [[0, 1]] : memref<8x8xf32, #layout.tag<"NC->CN4n">> into memref<64xf32>
  %t = memref.transpose %a (d0, d1) -> (d1, d0) : memref<8x8xf32, #layout.tag<"NC->CN4n">> to memref<8x8xf32, strided<[1, 8]>>
  %c1 = arith.constant 1 : index
  %x = memref.load %s[%c1, %c1] : memref<4x4xf32, strided<[8, 1], offset: 2>>
  %y = memref.load %d[%c1, %c1] : memref<2x8xf32, strided<[8, 1], offset: ?>>
  %z = memref.load %c[%c1] : memref<64xf32>
  %w = memref.load %t[%c1, %c1] : memref<8x8xf32, strided<[1, 8]>>
  %r1 = arith.addf %x, %y : f32
  %r2 = arith.addf %z, %w : f32
  %r = arith.addf %r1, %r2 : f32
  func.return %r : f32
}
