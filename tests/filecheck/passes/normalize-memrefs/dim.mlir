// Where upstream `mlir-opt --normalize-memrefs` goes wrong, (1): memref.dim of a tiled
// memref. Upstream rewrites the memref to its tiled shape 3x4x4x4 and leaves memref.dim on
// it, so dim 0 of the 10x16 buffer answers 3 (the tile count) and dim 1 answers 4.
// layout-lower answers the logical sizes 10 and 16.
// REQUIRES: mlir-opt
// RUN: %mlir_opt --normalize-memrefs %s | filecheck %s --check-prefix=UPSTREAM
// RUN: layout-opt %s -p layout-lower | filecheck %s

#tiled = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>

// UPSTREAM-LABEL: func.func @dims() -> (index, index) {
// UPSTREAM-DAG:     %[[C0:.*]] = arith.constant 0 : index
// UPSTREAM-DAG:     %[[C1:.*]] = arith.constant 1 : index
// UPSTREAM:         %[[A:.*]] = memref.alloc() : memref<3x4x4x4xf32>
// UPSTREAM-NEXT:    %[[D0:.*]] = memref.dim %[[A]], %[[C0]] : memref<3x4x4x4xf32>
// UPSTREAM-NEXT:    %[[D1:.*]] = memref.dim %[[A]], %[[C1]] : memref<3x4x4x4xf32>
// UPSTREAM:         return %[[D0]], %[[D1]] : index, index

// CHECK-LABEL: func.func @dims() -> (index, index) {
// CHECK-DAG:     %[[D0:.*]] = arith.constant 10 : index
// CHECK-DAG:     %[[D1:.*]] = arith.constant 16 : index
// CHECK-NOT:     memref.dim
// CHECK:         %[[A:.*]] = memref.alloc() : memref<3x4x4x4xf32>
// CHECK-NOT:     memref.dim
// CHECK:         func.return %[[D0]], %[[D1]] : index, index
func.func @dims() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %A = memref.alloc() : memref<10x16xf32, #tiled>
  %d0 = memref.dim %A, %c0 : memref<10x16xf32, #tiled>
  %d1 = memref.dim %A, %c1 : memref<10x16xf32, #tiled>
  memref.dealloc %A : memref<10x16xf32, #tiled>
  func.return %d0, %d1 : index, index
}
