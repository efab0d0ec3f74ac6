// Half-block vector accesses (4-wide SIMD on 8-wide blocks): w steps by 4 from 0, so each
// vector<4> starts at offset 0 or 4 of its block and stays inside it: one vector.load at
// (w floordiv 8, w mod 8).
// RUN: layout-opt %s -p layout-lower | filecheck %s

// CHECK-LABEL: func.func @half_blocks(%m: memref<2x4x8xf32>, %o: memref<32xf32>) {
// CHECK:         scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-DAG:       %[[B:.*]] = arith.divui %[[W]], %[[C8:.*]] : index
// CHECK-DAG:       %[[I:.*]] = arith.remui %[[W]], %[[C8]] : index
// CHECK:           %[[V:.*]] = vector.load %m[%{{.*}}, %[[B]], %[[I]]] : memref<2x4x8xf32>, vector<4xf32>
// CHECK-NEXT:      vector.store %[[V]], %o[%[[W]]] : memref<32xf32>, vector<4xf32>
// CHECK-NOT:     vector.from_elements
func.func @half_blocks(%m: memref<2x32xf32, #layout.tag<"NW->NW8w">>, %o: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  scf.for %w = %c0 to %c32 step %c4 {
    %v = vector.load %m[%c0, %w] : memref<2x32xf32, #layout.tag<"NW->NW8w">>, vector<4xf32>
    vector.store %v, %o[%w] : memref<32xf32>, vector<4xf32>
  }
  func.return
}
