// layout-lower on memref.copy: between equal layouts it stays one physical copy; between
// different layouts (or a plain memref and a layout) it becomes a loop nest walking the
// destination in its memory order.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// CHECK-LABEL: func.func @copy_same(%a: memref<2x3x5x4x8xf32>, %b: memref<2x3x5x4x8xf32>) {
// CHECK-NEXT:    memref.copy %a, %b : memref<2x3x5x4x8xf32> to memref<2x3x5x4x8xf32>
// CHECK-NEXT:    func.return
func.func @copy_same(%a: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %b: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) {
  "memref.copy"(%a, %b) : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) -> ()
  func.return
}

// nChw8c -> nhwc: loops over n, h, w, c (nhwc's memory order); the source index splits c.
// CHECK-LABEL: func.func @copy_blocked_to_nhwc(%a: memref<2x3x5x4x8xf32>, %b: memref<2x5x4x17xf32>) {
// CHECK-NOT:     memref.copy
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C17:.*]] = arith.constant 17 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %[[C2]] step
// CHECK-NEXT:      scf.for %[[H:.*]] = %{{.*}} to %[[C5]] step
// CHECK-NEXT:        scf.for %[[W:.*]] = %{{.*}} to %[[C4]] step
// CHECK-NEXT:          scf.for %[[C:.*]] = %{{.*}} to %[[C17]] step
// CHECK-NEXT:            %[[CB:.*]] = arith.divui %[[C]], %[[C8]] : index
// CHECK-NEXT:            %[[CI:.*]] = arith.remui %[[C]], %[[C8]] : index
// CHECK-NEXT:            %[[X:.*]] = memref.load %a[%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]] : memref<2x3x5x4x8xf32>
// CHECK-NEXT:            memref.store %[[X]], %b[%[[N]], %[[H]], %[[W]], %[[C]]] : memref<2x5x4x17xf32>
func.func @copy_blocked_to_nhwc(%a: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %b: memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>) {
  "memref.copy"(%a, %b) : (memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>) -> ()
  func.return
}

// plain -> nhwc: a pure permutation, no index arithmetic.
// CHECK-LABEL: func.func @copy_plain_to_nhwc(%a: memref<2x17x5x4xf32>, %b: memref<2x5x4x17xf32>) {
// CHECK-NOT:     arith.divui
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[X:.*]] = memref.load %a[%[[N]], %[[C]], %[[H]], %[[W]]] : memref<2x17x5x4xf32>
// CHECK-NEXT:            memref.store %[[X]], %b[%[[N]], %[[H]], %[[W]], %[[C]]] : memref<2x5x4x17xf32>
func.func @copy_plain_to_nhwc(%a: memref<2x17x5x4xf32>, %b: memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>) {
  "memref.copy"(%a, %b) : (memref<2x17x5x4xf32>, memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>) -> ()
  func.return
}
