// A 10^10-element allocation: refused before anything is allocated.
// RUN: layout-run
// RUN: layout-run --engine interp
// ERROR: memref.alloc at {{FILE}}:6:3: a buffer of 10000000000 elements (memref<100000x100000xf32>) is more than the limit of 16777216 elements
func.func @main() -> f32 {
  %m = memref.alloc() : memref<100000x100000xf32>
  %c1 = arith.constant 1 : index
  %v = memref.load %m[%c1, %c1] : memref<100000x100000xf32>
  memref.dealloc %m : memref<100000x100000xf32>
  func.return %v : f32
}
