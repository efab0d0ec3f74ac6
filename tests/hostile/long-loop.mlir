// 10^8 iterations: --timeout ends the run in the Python engines (the default engine, auto,
// runs a program this large natively, where it ends in well under a second).
// RUN: layout-run --timeout 2 --engine compiled
// RUN: layout-run --timeout 2 --engine interp
// RUN: layout-run --timeout 2 --check --engine compiled
// ERROR: layout-run: error: the run used more than 2 s of processor time (--timeout; 0 for no limit)
func.func @main(%m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 100000000 : index
  %x = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %m[%c0] : memref<4xf32>
    %w = arith.addf %v, %x : f32
    memref.store %w, %m[%c0] : memref<4xf32>
  }
  %r = memref.load %m[%c0] : memref<4xf32>
  func.return %r : f32
}
