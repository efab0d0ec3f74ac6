// A negative stride balanced by the offset stays inside the buffer: valid, and runs.
// RUN: layout-run --check
// RUN: layout-run --check --engine interp
// OUTPUT: OK: 17 elements compared
func.func @main(%a: memref<4x4xf32, strided<[1, -4], offset: 12>>) -> f32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = memref.load %a[%c1, %c2] : memref<4x4xf32, strided<[1, -4], offset: 12>>
  func.return %v : f32
}
