// A subview of a layout-typed memref has the root's layout composed with its window: an
// access to it indexes the root's physical buffer, and the view op disappears. Static
// windows fold into constants; a run-time offset becomes an index leaf; chains compose.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | mlir-opt-22 | filecheck %s --check-prefix=UPSTREAM

// UPSTREAM: func.func @channel_block
// CHECK-LABEL: func.func @channel_block(%a: memref<1x4x4x4x16xf32>) -> f32 {
// CHECK-NOT: memref.subview
// Channel 16 + 3 is block 1, lane 3; h = 1, w = 3.
// CHECK: %v = memref.load %a[%c0, %c1, %c1, %c3, %c3] : memref<1x4x4x4x16xf32>
func.func @channel_block(%a: memref<1x64x4x4xf32, #layout.tag<"NCHW->nChw16c">>) -> f32 {
  %s = memref.subview %a[0, 16, 0, 0] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x64x4x4xf32, #layout.tag<"NCHW->nChw16c">> to memref<1x16x4x4xf32, strided<[1024, 16, 4, 1], offset: 256>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %v = memref.load %s[%c0, %c3, %c1, %c3] : memref<1x16x4x4xf32, strided<[1024, 16, 4, 1], offset: 256>>
  func.return %v : f32
}

// Channel 16 + c of the view is channel block 1, lane c: a loop over the view's channels
// walks the innermost physical dim with no index code at all.
// CHECK-LABEL: func.func @rank_reducing(%a: memref<1x4x4x4x16xf32>, %o: memref<16xf32>) {
// CHECK:       scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:    %v = memref.load %a[%c0, %c1, %{{.*}}, %c0, %[[C]]] : memref<1x4x4x4x16xf32>
// CHECK-NEXT:    memref.store %v, %o[%[[C]]] : memref<16xf32>
func.func @rank_reducing(%a: memref<1x64x4x4xf32, #layout.tag<"NCHW->nChw16c">>, %o: memref<16xf32>) {
  %s = memref.subview %a[0, 16, 2, 0] [1, 16, 1, 1] [1, 1, 1, 1] : memref<1x64x4x4xf32, #layout.tag<"NCHW->nChw16c">> to memref<16xf32, strided<[16], offset: 264>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %c = %c0 to %c16 step %c1 {
    %v = memref.load %s[%c] : memref<16xf32, strided<[16], offset: 264>>
    memref.store %v, %o[%c] : memref<16xf32>
  }
  func.return
}

// A run-time channel offset: the channel is %off + c, split into block and lane. Upstream
// requires the view inside its source (%off in [0, 48]) and the load inside the view (%c in
// [0, 15]), so the channel is not negative: unsigned division, as for a static offset.
// CHECK-LABEL: func.func @dynamic_offset(%a: memref<1x4x4x4x16xf32>, %off: index, %c: index) -> f32 {
// CHECK:       %[[CH:.*]] = arith.addi %off, %c : index
// CHECK-NEXT:  %[[BLOCK:.*]] = arith.divui %[[CH]], %{{.*}} : index
// CHECK-NEXT:  %[[LANE:.*]] = arith.remui %[[CH]], %{{.*}} : index
// CHECK-NEXT:  memref.load %a[%{{.*}}, %[[BLOCK]], %{{.*}}, %{{.*}}, %[[LANE]]] : memref<1x4x4x4x16xf32>
// CHECK-NOT:   memref.subview
func.func @dynamic_offset(%a: memref<1x64x4x4xf32, #layout.tag<"NCHW->nChw16c">>, %off: index, %c: index) -> f32 {
  %s = memref.subview %a[0, %off, 0, 0] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x64x4x4xf32, #layout.tag<"NCHW->nChw16c">> to memref<1x16x4x4xf32, strided<[1024, 16, 4, 1], offset: ?>>
  %c0 = arith.constant 0 : index
  %v = memref.load %s[%c0, %c, %c0, %c0] : memref<1x16x4x4xf32, strided<[1024, 16, 4, 1], offset: ?>>
  func.return %v : f32
}

// A subview of a subview: rows 2..5 of columns 8..15, then every second row from row 1.
// Row 2 + 1 + 2i, column 8 + j of "NC->CN4n" is (column, row / 4, row mod 4).
// CHECK-LABEL: func.func @chain(%a: memref<16x4x4xf32>, %i: index, %j: index) -> f32 {
// CHECK-NOT:   memref.subview
// CHECK:       %[[COL:.*]] = arith.addi %j, %{{.*}} : index
// CHECK-NEXT:  %[[I1:.*]] = arith.addi %i, %[[ONE:.*]] : index
// CHECK-NEXT:  %[[BLOCK:.*]] = arith.divui %[[I1]], %[[TWO:.*]] : index
// CHECK-NEXT:  %[[PARITY:.*]] = arith.remui %[[I1]], %[[TWO]] : index
// CHECK-NEXT:  %[[TWICE:.*]] = arith.muli %[[PARITY]], %[[TWO]] : index
// CHECK-NEXT:  %[[LANE:.*]] = arith.addi %[[TWICE]], %[[ONE]] : index
// CHECK-NEXT:  %v = memref.load %a[%[[COL]], %[[BLOCK]], %[[LANE]]] : memref<16x4x4xf32>
func.func @chain(%a: memref<16x16xf32, #layout.tag<"NC->CN4n">>, %i: index, %j: index) -> f32 {
  %s = memref.subview %a[2, 8] [8, 8] [1, 1] : memref<16x16xf32, #layout.tag<"NC->CN4n">> to memref<8x8xf32, strided<[16, 1], offset: 40>>
  %t = memref.subview %s[1, 0] [2, 8] [2, 1] : memref<8x8xf32, strided<[16, 1], offset: 40>> to memref<2x8xf32, strided<[32, 1], offset: 56>>
  %v = memref.load %t[%i, %j] : memref<2x8xf32, strided<[32, 1], offset: 56>>
  func.return %v : f32
}
