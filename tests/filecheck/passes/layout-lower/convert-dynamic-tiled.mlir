// layout-lower on conversions into and out of '?' dims a layout tiles. Into one (after the
// allocation's pad fill): the loops
// walk the destination in memory order (its run-time number of tiles), and a slot whose
// logical index reaches the run-time size (the partial last tile) gets the pad value. Out of
// one: the loops run over the logical size, taken from the side that holds it.
// REQUIRES: mlir-opt
// RUN: layout-opt %s -p 'layout-lower{validate=true}' | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt > /dev/null

// CHECK-LABEL: func.func @into_tiles(%x: memref<?x3xf32>) -> memref<?x3x8xf32> {
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x3xf32>
// CHECK:         %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?x3x8xf32>
// CHECK:         %[[TILES:.*]] = memref.dim %[[T]], %{{.*}} : memref<?x3x8xf32>
// CHECK:         memref.store %{{.*}}, %[[T]]
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %[[TILES]] step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[BASE:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK-NEXT:          %[[I:.*]] = arith.addi %[[BASE]], %[[L]] : index
// CHECK-NEXT:          %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[N]] : index
// CHECK-NEXT:          scf.if %[[IN]] {
// CHECK-NEXT:            %[[V:.*]] = memref.load %x[%[[I]], %[[J]]] : memref<?x3xf32>
// CHECK-NEXT:            memref.store %[[V]], %[[T]][%[[B]], %[[J]], %[[L]]] : memref<?x3x8xf32>
// CHECK-NEXT:          } else {
// CHECK-NEXT:            memref.store %{{.*}}, %[[T]][%[[B]], %[[J]], %[[L]]] : memref<?x3x8xf32>
func.func @into_tiles(%x: memref<?x3xf32>) -> memref<?x3xf32, #layout.tag<"NC->NC8n">> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x3xf32>
  %t = memref.alloc(%n) : memref<?x3xf32, #layout.tag<"NC->NC8n">>
  layout.convert %x to %t : memref<?x3xf32> to memref<?x3xf32, #layout.tag<"NC->NC8n">>
  func.return %t : memref<?x3xf32, #layout.tag<"NC->NC8n">>
}

// Out of a tiled argument into a plain buffer: the plain side holds the size.
// CHECK-LABEL: func.func @out_of_tiles(%t: memref<?x4xf32>, %y: memref<?xf32>) {
// CHECK:         %[[N:.*]] = memref.dim %y, %{{.*}} : memref<?xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT:      %[[Q:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[R:.*]] = arith.remui %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[V:.*]] = memref.load %t[%[[Q]], %[[R]]] : memref<?x4xf32>
// CHECK-NEXT:      memref.store %[[V]], %y[%[[I]]] : memref<?xf32>
func.func @out_of_tiles(%t: memref<?xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>>, %y: memref<?xf32>) {
  memref.copy %t, %y : memref<?xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>> to memref<?xf32>
  func.return
}
