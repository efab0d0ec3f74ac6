// layout-lower on signatures, calls and returns with '?' dims a layout tiles: they take the
// physical type (upstream's, for a builtin map), the accesses inside divide by the tile, and
// a caller passes the physical buffer it allocated. A public function whose argument gets a
// layout by layout.assign keeps its plain signature: the boundary conversion takes its sizes
// from the plain argument and fills the partial last tile with pad.
// REQUIRES: mlir-opt
// RUN: layout-opt %s -p 'layout-lower{validate=true}' | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt > /dev/null

// CHECK-LABEL: func.func private @scale(%y: memref<?x?xf32>, %n: index) -> memref<?x?xf32> {
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %n step
// CHECK:           %[[T:.*]] = arith.divui %[[I]], %[[C4:.*]] : index
// CHECK-NEXT:      %[[L:.*]] = arith.remui %[[I]], %[[C4]] : index
// CHECK-NEXT:      %{{.*}} = memref.load %y[%[[T]], %[[L]]] : memref<?x?xf32>
// CHECK:         func.return %y : memref<?x?xf32>
func.func private @scale(%y: memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>, %n: index) -> memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %y[%i] : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
    %m = arith.mulf %v, %two : f32
    memref.store %m, %y[%i] : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
  }
  return %y : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
}

// CHECK-LABEL: func.func @caller(%n: index) -> memref<?x?xf32> {
// CHECK:         %[[A:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK:         %[[R:.*]] = func.call @scale(%[[A]], %n) : (memref<?x?xf32>, index) -> memref<?x?xf32>
// CHECK:         func.return %[[R]] : memref<?x?xf32>
func.func @caller(%n: index) -> memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>> {
  %a = memref.alloc(%n) : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
  %r = func.call @scale(%a, %n) : (memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>, index) -> memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
  return %r : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
}

// CHECK-LABEL: func.func @public(%x: memref<?xf32>) -> f32 {
// CHECK:         %[[N:.*]] = memref.dim %x, %[[C0:.*]] : memref<?xf32>
// CHECK:         %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?x4xf32>
// CHECK:         %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : index
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[V:.*]] = memref.load %x[%{{.*}}] : memref<?xf32>
// CHECK-NEXT:      memref.store %[[V]], %[[T]][%{{.*}}, %{{.*}}] : memref<?x4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %{{.*}}, %[[T]][%{{.*}}, %{{.*}}] : memref<?x4xf32>
// CHECK-NEXT:    }
func.func @public(%x: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  layout.assign %x to #layout.tag<"C->C4c"> : memref<?xf32>
  %v = memref.load %x[%c0] : memref<?xf32>
  return %v : f32
}
