// layout-lower on memref.cast (generic form: xDSL 0.74 has no pretty syntax for it): a cast
// between two shapes of one layout becomes a cast between the physical types, the dynamic
// dims landing where the layout puts them.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// nhwc: logical N and W (dims 0, 3) are physical dims 0 and 2.
// CHECK-LABEL: func.func @cast_to_dynamic(%m: memref<2x5x4x17xf32>, %i: index) -> f32 {
// CHECK-NEXT:    %[[D:.*]] = memref.cast %m : memref<2x5x4x17xf32> to memref<?x5x?x17xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[D]][%i, %[[C0]], %i, %[[C0]]] : memref<?x5x?x17xf32>
// CHECK-NEXT:    func.return %[[X]] : f32
func.func @cast_to_dynamic(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>, %i: index) -> f32 {
  %d = "memref.cast"(%m) : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>) -> memref<?x17x5x?xf32, #layout.tag<"NCHW->nhwc">>
  %c0 = arith.constant 0 : index
  %x = memref.load %d[%i, %c0, %c0, %i] : memref<?x17x5x?xf32, #layout.tag<"NCHW->nhwc">>
  func.return %x : f32
}

// A cast of a blocked layout's undivided dim (N of nChw4c) and back.
// CHECK-LABEL: func.func @cast_round(%m: memref<1x1x1x1x4xf32>) -> memref<1x1x1x1x4xf32> {
// CHECK-NEXT:    %[[D:.*]] = memref.cast %m : memref<1x1x1x1x4xf32> to memref<?x1x1x1x4xf32>
// CHECK-NEXT:    %[[S:.*]] = memref.cast %[[D]] : memref<?x1x1x1x4xf32> to memref<1x1x1x1x4xf32>
// CHECK-NEXT:    func.return %[[S]] : memref<1x1x1x1x4xf32>
func.func @cast_round(%m: memref<1x3x1x1xf32, #layout.tag<"NCHW->nChw4c">>) -> memref<1x3x1x1xf32, #layout.tag<"NCHW->nChw4c">> {
  %d = "memref.cast"(%m) : (memref<1x3x1x1xf32, #layout.tag<"NCHW->nChw4c">>) -> memref<?x3x1x1xf32, #layout.tag<"NCHW->nChw4c">>
  %s = "memref.cast"(%d) : (memref<?x3x1x1xf32, #layout.tag<"NCHW->nChw4c">>) -> memref<1x3x1x1xf32, #layout.tag<"NCHW->nChw4c">>
  func.return %s : memref<1x3x1x1xf32, #layout.tag<"NCHW->nChw4c">>
}
