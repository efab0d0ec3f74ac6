// A 10^10-element argument: layout-run refuses to make its random data; lowering it is fine.
// RUN: layout-run --check
// ERROR: a random argument of type memref<100000x100000xf32, #layout.tag<"RC->CR">>: a buffer of 10000000000 elements
func.func @main(%m: memref<100000x100000xf32, #layout.tag<"RC->CR">>) -> f32 {
  %c1 = arith.constant 1 : index
  %v = memref.load %m[%c1, %c1] : memref<100000x100000xf32, #layout.tag<"RC->CR">>
  func.return %v : f32
}
