// A memref with no heterolayout layout is never touched: upstream's own view types (fully
// dynamic strided arguments from bufferization, static strided subviews, a dynamic offset
// with static strides), an affine_map with symbols, and a memory space all pass through
// layout-lower unchanged.
// RUN: layout-opt %s -p layout-lower | filecheck %s

// CHECK-LABEL: func.func @bufferized(%A: memref<4x8xf32, strided<[?, ?], offset: ?>>, %B: memref<4x8xf32, strided<[64, 1], offset: ?>>, %i: index) -> f32 {
// CHECK-NEXT:    %sv = memref.subview %A[1, 2] [2, 3] [1, 1] : memref<4x8xf32, strided<[?, ?], offset: ?>> to memref<2x3xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %buffer = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
// CHECK-NEXT:    %window = memref.subview %buffer[0, 4] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
// CHECK-NEXT:    %copy = memref.alloc() : memref<2x4xf32>
// CHECK-NEXT:    memref.copy %window, %copy : memref<2x4xf32, strided<[8, 1], offset: 4>> to memref<2x4xf32>
// CHECK-NEXT:    %x = memref.load %sv[%i, %i] : memref<2x3xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    memref.store %x, %B[%i, %i] : memref<4x8xf32, strided<[64, 1], offset: ?>>
// CHECK-NEXT:    %y = memref.load %window[%i, %i] : memref<2x4xf32, strided<[8, 1], offset: 4>>
// CHECK-NEXT:    func.return %y : f32
func.func @bufferized(%A: memref<4x8xf32, strided<[?, ?], offset: ?>>, %B: memref<4x8xf32, strided<[64, 1], offset: ?>>, %i: index) -> f32 {
  %sv = memref.subview %A[1, 2] [2, 3] [1, 1] : memref<4x8xf32, strided<[?, ?], offset: ?>> to memref<2x3xf32, strided<[?, ?], offset: ?>>
  %buffer = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  %window = memref.subview %buffer[0, 4] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  %copy = memref.alloc() : memref<2x4xf32>
  memref.copy %window, %copy : memref<2x4xf32, strided<[8, 1], offset: 4>> to memref<2x4xf32>
  %x = memref.load %sv[%i, %i] : memref<2x3xf32, strided<[?, ?], offset: ?>>
  memref.store %x, %B[%i, %i] : memref<4x8xf32, strided<[64, 1], offset: ?>>
  %y = memref.load %window[%i, %i] : memref<2x4xf32, strided<[8, 1], offset: 4>>
  func.return %y : f32
}

// CHECK-LABEL: func.func @symbols_and_spaces(%n: index) {
// CHECK-NEXT:    %a = memref.alloc()[%n] : memref<2x4xf32, affine_map<(d0, d1)[s0] -> ((d0 + s0), d1)>, 1 : i64>
// CHECK-NEXT:    %b = memref.alloc() : memref<2x4xf32, 3 : i64>
// CHECK-NEXT:    func.return
func.func @symbols_and_spaces(%n: index) {
  %a = memref.alloc()[%n] : memref<2x4xf32, affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>, 1>
  %b = memref.alloc() : memref<2x4xf32, 3>
  func.return
}
