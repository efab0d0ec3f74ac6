// The engines name an op neither of them runs.
// RUN: layout-run
// RUN: layout-run --engine interp
// ERROR: memref.subview
func.func @main(%a: memref<8xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %s = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %v = memref.load %a[%c1] : memref<8xf32>
  func.return %v : f32
}
