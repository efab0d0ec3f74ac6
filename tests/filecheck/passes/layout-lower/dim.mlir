// layout-lower on memref.dim: a static logical size becomes a constant (never the physical
// extent of some physical dim); a dynamic dim is the memref.dim of the physical dim it maps to.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// C = 17 is stored as 3 blocks of 8: the logical size is 17, not 3 nor 8.
// CHECK-LABEL: func.func @dim_blocked(%m: memref<2x3x5x4x8xf32>) -> (index, index) {
// CHECK-NEXT:    %[[C17:.*]] = arith.constant 17 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    func.return %[[C17]], %[[C4]] : index, index
func.func @dim_blocked(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %d1 = memref.dim %m, %c1 : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  %d3 = memref.dim %m, %c3 : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return %d1, %d3 : index, index
}

// nhwc: logical W (dim 3) is physical dim 2.
// CHECK-LABEL: func.func @dim_dynamic(%m: memref<?x5x?x17xf32>) -> (index, index) {
// CHECK-DAG:     %[[P0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[P2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[N:.*]] = memref.dim %m, %[[P0]] : memref<?x5x?x17xf32>
// CHECK-DAG:     %[[W:.*]] = memref.dim %m, %[[P2]] : memref<?x5x?x17xf32>
// CHECK:         func.return %[[N]], %[[W]] : index, index
func.func @dim_dynamic(%m: memref<?x17x5x?xf32, #layout.tag<"NCHW->nhwc">>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %m, %c0 : memref<?x17x5x?xf32, #layout.tag<"NCHW->nhwc">>
  %w = memref.dim %m, %c3 : memref<?x17x5x?xf32, #layout.tag<"NCHW->nhwc">>
  func.return %n, %w : index, index
}

// memref.rank of a layout-typed memref is its logical rank, not the physical one (5).
// CHECK-LABEL: func.func @rank_blocked(%m: memref<2x3x5x4x8xf32>) -> index {
// CHECK-NEXT:    %[[R:.*]] = arith.constant 4 : index
// CHECK-NEXT:    func.return %[[R]] : index
func.func @rank_blocked(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> index {
  %r = "memref.rank"(%m) : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> index
  func.return %r : index
}
