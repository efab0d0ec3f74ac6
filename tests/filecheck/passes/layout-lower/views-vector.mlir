// vector.transfer_read/write of a view of a layout-typed memref lower like transfers of the
// memref itself: through the view's composed layout, one vector access where the lanes are
// provably consecutive in the root's physical buffer, one scalar access per lane otherwise.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | mlir-opt-22 | filecheck %s --check-prefix=UPSTREAM

// Channels 16..31 of nChw16c are one block: the 16 lanes are one vector.load and store.
// UPSTREAM: func.func @block_transfer
// CHECK-LABEL: func.func @block_transfer(%a: memref<1x2x2x4x16xf32>, %h: index, %w: index) {
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[V:.*]] = vector.load %a[%[[Z]], %[[ONE]], %h, %w, %[[Z]]] : memref<1x2x2x4x16xf32>, vector<16xf32>
// CHECK-NEXT:    %[[R:.*]] = arith.addf %[[V]], %[[V]] : vector<16xf32>
// CHECK-NEXT:    vector.store %[[R]], %a[%[[Z]], %[[Z]], %h, %w, %[[Z]]] : memref<1x2x2x4x16xf32>, vector<16xf32>
// CHECK-NEXT:    func.return
func.func @block_transfer(%a: memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %hi = memref.subview %a[0, 16, 0, 0] [1, 16, 2, 4] [1, 1, 1, 1] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">> to memref<16x2x4xf32, strided<[8, 4, 1], offset: 128>>
  %lo = memref.subview %a[0, 0, 0, 0] [1, 16, 2, 4] [1, 1, 1, 1] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">> to memref<16x2x4xf32, strided<[8, 4, 1]>>
  %v = vector.transfer_read %hi[%c0, %h, %w], %pad {in_bounds = [true], permutation_map = affine_map<(c, h, w) -> (c)>} : memref<16x2x4xf32, strided<[8, 4, 1], offset: 128>>, vector<16xf32>
  %r = arith.addf %v, %v : vector<16xf32>
  vector.transfer_write %r, %lo[%c0, %h, %w] {in_bounds = [true], permutation_map = affine_map<(c, h, w) -> (c)>} : vector<16xf32>, memref<16x2x4xf32, strided<[8, 4, 1]>>
  func.return
}

// Channels 8..23 straddle two blocks: one scalar load per lane.
// CHECK-LABEL: func.func @straddling(%a: memref<1x2x2x4x16xf32>, %h: index, %w: index) -> vector<16xf32> {
// CHECK-COUNT-16: memref.load %a
// CHECK:        vector.from_elements
// CHECK-NOT:    vector.transfer_read
func.func @straddling(%a: memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">>, %h: index, %w: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %s = memref.subview %a[0, 8, 0, 0] [1, 16, 2, 4] [1, 1, 1, 1] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">> to memref<16x2x4xf32, strided<[8, 4, 1], offset: 64>>
  %v = vector.transfer_read %s[%c0, %h, %w], %pad {in_bounds = [true], permutation_map = affine_map<(c, h, w) -> (c)>} : memref<16x2x4xf32, strided<[8, 4, 1], offset: 64>>, vector<16xf32>
  func.return %v : vector<16xf32>
}

// A run-time block offset (%b · 16 channels): the transfer becomes a transfer of the root
// along its channel dim, whose lanes the lowering then proves consecutive (16·b + c lies in
// block b): one vector.load of block %b.
// CHECK-LABEL: func.func @runtime_block(%a: memref<1x2x2x4x16xf32>, %b: index, %h: index, %w: index) -> vector<16xf32> {
// CHECK-NEXT:  %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %v = vector.load %a[%[[Z]], %b, %h, %w, %[[Z]]] : memref<1x2x2x4x16xf32>, vector<16xf32>
// CHECK-NEXT:  func.return %v
func.func @runtime_block(%a: memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">>, %b: index, %h: index, %w: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  %off = arith.muli %b, %c16 : index
  %s = memref.subview %a[0, %off, 0, 0] [1, 16, 2, 4] [1, 1, 1, 1] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">> to memref<16x2x4xf32, strided<[8, 4, 1], offset: ?>>
  %v = vector.transfer_read %s[%c0, %h, %w], %pad {in_bounds = [true], permutation_map = affine_map<(c, h, w) -> (c)>} : memref<16x2x4xf32, strided<[8, 4, 1], offset: ?>>, vector<16xf32>
  func.return %v : vector<16xf32>
}
