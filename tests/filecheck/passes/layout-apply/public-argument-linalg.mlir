// layout-apply on a public function's output argument that only linalg ops write (the IR of
// an ONNX import): linalg ops read their inputs and read and write their outputs (the
// op-role table's `structured_roles`), so the converted copy goes back before the return,
// also when the op writes a view of it. An argument linalg only reads is not converted back.
// RUN: layout-opt %s -p layout-apply | filecheck %s

// CHECK-LABEL: func.func @conv(%x: memref<1x3x6x6xf32>, %w: memref<32x3x3x3xf32>, %out: memref<1x32x4x4xf32>) {
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<1x32x4x4xf32, #layout.tag<"nChw16c">>
// CHECK-NEXT:    layout.convert %out to %[[T]]
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw {{.*}} outs(%[[T]] : memref<1x32x4x4xf32, #layout.tag<"nChw16c">>)
// CHECK-NEXT:    layout.convert %[[T]] to %out : memref<1x32x4x4xf32, #layout.tag<"nChw16c">> to memref<1x32x4x4xf32>
// CHECK-NEXT:    memref.dealloc %[[T]]
// CHECK-NEXT:    func.return
func.func @conv(%x: memref<1x3x6x6xf32>, %w: memref<32x3x3x3xf32>, %out: memref<1x32x4x4xf32>) {
  layout.assign %out to #layout.tag<"nChw16c"> : memref<1x32x4x4xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x3x6x6xf32>, memref<32x3x3x3xf32>) outs(%out : memref<1x32x4x4xf32>)
  func.return
}

// CHECK-LABEL: func.func @matmul_tile(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<8x12xf32>) {
// CHECK:         linalg.matmul
// CHECK-NEXT:    layout.convert %[[T:.*]] to %c : memref<8x12xf32, #layout.tag<"HW->Hw4w">> to memref<8x12xf32>
// CHECK-NEXT:    memref.dealloc %[[T]]
func.func @matmul_tile(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<8x12xf32>) {
  layout.assign %c to #layout.tag<"HW->Hw4w"> : memref<8x12xf32>
  %tile = memref.subview %c[2, 4] [4, 4] [1, 1] : memref<8x12xf32> to memref<4x4xf32, strided<[12, 1], offset: 28>>
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%tile : memref<4x4xf32, strided<[12, 1], offset: 28>>)
  func.return
}

// CHECK-LABEL: func.func @generic_input(%a: memref<8x12xf32>, %out: memref<8x12xf32>) {
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<8x12xf32, #layout.tag<"HW->WH">>
// CHECK-NEXT:    layout.convert %a to %[[T]]
// CHECK-NEXT:    linalg.generic
// CHECK:           linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[T]]
// CHECK-NEXT:    func.return
func.func @generic_input(%a: memref<8x12xf32>, %out: memref<8x12xf32>) {
  layout.assign %a to #layout.tag<"HW->WH"> : memref<8x12xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x12xf32>) outs(%out : memref<8x12xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  func.return
}
