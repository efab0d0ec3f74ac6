// layout-opt reads and writes the custom syntax mlir-opt 22 prints for ops xDSL 0.74 has
// no format for (tests/roundtrip checks every op against mlir-opt itself).
// RUN: layout-opt %s | filecheck %s

// CHECK: memref.global "private" constant @weights : memref<2x3xf32> = dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]>
// CHECK: memref.global @state : memref<2xi32> = uninitialized
memref.global "private" constant @weights : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
memref.global @state : memref<2 x i32> = uninitialized

// CHECK-LABEL: func.func @ops(%m: memref<8x8xf32>, %n: index, %c: i1) -> f32 {
// CHECK:         %u = memref.cast %m : memref<8x8xf32> to memref<*xf32>
// CHECK-NEXT:    %r = memref.rank %u : memref<*xf32>
// CHECK-NEXT:    memref.copy %m, %m : memref<8x8xf32> to memref<8x8xf32>
// CHECK-NEXT:    %x = affine.load %m[%n + symbol(%r), 2] : memref<8x8xf32>
// CHECK-NEXT:    affine.prefetch %m[%n, symbol(%r)], read, locality<3>, data : memref<8x8xf32>
// CHECK-NEXT:    %s = scf.parallel (%i) = (%z) to (%n) step (%one) init (%x) -> f32 {
// CHECK:           scf.reduce(%e : f32) {
// CHECK:         affine.parallel (%{{.*}}, %j) = (0, 0) to (8, 8) {
// CHECK:         affine.if affine_set<(d0) : ((d0 + -1) >= 0)>(%n) {
// CHECK:         %y = scf.if %c -> (f32) {
func.func @ops(%m: memref<8x8xf32>, %n: index, %c: i1) -> f32 {
  %z = arith.constant 0 : index
  %one = arith.constant 1 : index
  %u = memref.cast %m : memref<8x8xf32> to memref<*xf32>
  %r = memref.rank %u : memref<*xf32>
  memref.copy %m, %m : memref<8x8xf32> to memref<8x8xf32>
  %x = affine.load %m[%n + symbol(%r), 2] : memref<8x8xf32>
  affine.prefetch %m[%n, symbol(%r)], read, locality<3>, data : memref<8x8xf32>
  %s = scf.parallel (%i) = (%z) to (%n) step (%one) init (%x) -> f32 {
    %e = memref.load %m[%i, %i] : memref<8x8xf32>
    scf.reduce(%e : f32) {
    ^bb0(%l: f32, %k: f32):
      %t = arith.addf %l, %k : f32
      scf.reduce.return %t : f32
    }
  }
  affine.parallel (%i, %j) = (0, 0) to (8, 8) {
    %e = affine.load %m[%i, %j] : memref<8x8xf32>
  }
  affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%n) {
    affine.store %s, %m[0, 0] : memref<8x8xf32>
  }
  %y = scf.if %c -> f32 {
    scf.yield %x : f32
  } else {
    scf.yield %s : f32
  }
  func.return %y : f32
}
