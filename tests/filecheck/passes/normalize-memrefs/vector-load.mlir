// Where upstream `mlir-opt --normalize-memrefs` goes wrong, (2): a vector load crossing a
// tile boundary. Logical elements (0, 2), (0, 3), (0, 4), (0, 5) of the 4x4-tiled 10x16
// buffer live at tiled positions [0, 0, 0, 2], [0, 0, 0, 3], [0, 1, 0, 0], [0, 1, 0, 1].
// Upstream emits one affine.vector_load at [0, 0, 0, 2], which reads [0, 0, 0, 2..5]: two
// right elements, then the first two of row 1 in tile (0, 0) — logical (1, 0) and (1, 1).
// layout-lower splits the load into the four right scalar loads.
// REQUIRES: mlir-opt
// RUN: %mlir_opt --normalize-memrefs %s | filecheck %s --check-prefix=UPSTREAM
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s

#tiled = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>

// UPSTREAM-LABEL: func.func @crossing(%{{.*}}: memref<3x4x4x4xf32>) -> vector<4xf32> {
// UPSTREAM:         %[[V:.*]] = affine.vector_load %{{.*}}[0, 0, 0, 2] : memref<3x4x4x4xf32>, vector<4xf32>
// UPSTREAM-NEXT:    return %[[V]] : vector<4xf32>

// CHECK-LABEL: func.func @crossing(%A: memref<3x4x4x4xf32>) -> vector<4xf32> {
// CHECK-NOT:     vector_load
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[X0:.*]] = memref.load %A[%[[C0]], %[[C0]], %[[C0]], %[[C2]]] : memref<3x4x4x4xf32>
// CHECK-DAG:     %[[X1:.*]] = memref.load %A[%[[C0]], %[[C0]], %[[C0]], %[[C3]]] : memref<3x4x4x4xf32>
// CHECK-DAG:     %[[X2:.*]] = memref.load %A[%[[C0]], %[[C1]], %[[C0]], %[[C0]]] : memref<3x4x4x4xf32>
// CHECK-DAG:     %[[X3:.*]] = memref.load %A[%[[C0]], %[[C1]], %[[C0]], %[[C1]]] : memref<3x4x4x4xf32>
// CHECK:         %[[V:.*]] = vector.from_elements %[[X0]], %[[X1]], %[[X2]], %[[X3]] : vector<4xf32>
// CHECK-NEXT:    func.return %[[V]] : vector<4xf32>
func.func @crossing(%A: memref<10x16xf32, #tiled>) -> vector<4xf32> {
  %v = affine.vector_load %A[0, 2] : memref<10x16xf32, #tiled>, vector<4xf32>
  func.return %v : vector<4xf32>
}
