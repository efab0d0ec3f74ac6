// linalg ops on layout-typed memrefs lower inside layout-lower: each becomes upstream's
// convert-linalg-to-loops nest (loops in iteration-dim order, the body loading and storing
// the output at every point), whose accesses are then lowered. linalg on plain memrefs is
// left alone.
// RUN: layout-opt %s -p layout-lower | filecheck %s

// CHECK-LABEL: func.func @matmul(%A: memref<4x2x4xf32>, %B: memref<6x8xf32>, %C: memref<2x6x2xf32>) {
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-NOT:     linalg
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C6]] step %[[C1]] {
// CHECK-NEXT:        scf.for %[[K:.*]] = %[[C0]] to %[[C8]] step %[[C1]] {
// CHECK-NEXT:          %[[KB:.*]] = arith.divui %[[K]], %[[C4]] : index
// CHECK-NEXT:          %[[KI:.*]] = arith.remui %[[K]], %[[C4]] : index
// CHECK-NEXT:          %[[A:.*]] = memref.load %A[%[[I]], %[[KB]], %[[KI]]] : memref<4x2x4xf32>
// CHECK-NEXT:          %[[B:.*]] = memref.load %B[%[[J]], %[[K]]] : memref<6x8xf32>
// CHECK-NEXT:          %[[IB:.*]] = arith.divui %[[I]], %[[C2]] : index
// CHECK-NEXT:          %[[II:.*]] = arith.remui %[[I]], %[[C2]] : index
// CHECK-NEXT:          %[[C:.*]] = memref.load %C[%[[IB]], %[[J]], %[[II]]] : memref<2x6x2xf32>
// CHECK-NEXT:          %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[C]], %[[M]] : f32
// CHECK-NEXT:          memref.store %[[S]], %C[%[[IB]], %[[J]], %[[II]]] : memref<2x6x2xf32>
// CHECK-NOT:     linalg
// CHECK:         func.return
func.func @matmul(%A: memref<4x8xf32, #layout.tag<"HW->Hw4w">>, %B: memref<8x6xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>, %C: memref<4x6xf32, #layout.tag<"HW->hW2h">>) {
  linalg.matmul ins(%A, %B : memref<4x8xf32, #layout.tag<"HW->Hw4w">>, memref<8x6xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>) outs(%C : memref<4x6xf32, #layout.tag<"HW->hW2h">>)
  return
}

// A generic with linalg.index, writing a builtin tile-mapped output; the plain fill stays.
// CHECK-LABEL: func.func @generic(%X: memref<3x5xf32>, %Y: memref<1x2x4x4xf32>) {
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%X : memref<3x5xf32>)
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[X:.*]] = memref.load %X[%[[I]], %[[J]]] : memref<3x5xf32>
// CHECK-NEXT:        %[[IC:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:             memref.store %{{.*}}, %Y[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x2x4x4xf32>
// CHECK-NOT:     linalg.generic
func.func @generic(%X: memref<3x5xf32>, %Y: memref<3x5xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%X : memref<3x5xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%X : memref<3x5xf32>) outs(%Y : memref<3x5xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>) {
  ^bb0(%x: f32, %y: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %x, %f : f32
    linalg.yield %s : f32
  }
  return
}
