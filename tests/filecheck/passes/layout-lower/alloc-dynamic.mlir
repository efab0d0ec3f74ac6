// layout-lower on allocations with dynamic sizes: '?' is allowed on dims with no block and
// no padding; the size operand goes to the physical dim the logical dim maps to.
// RUN: layout-opt %s -p layout-lower | filecheck %s

// CHECK-LABEL: func.func @alloc_dynamic(%n: index) -> memref<?x5x4x17xf32> {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc(%n) : memref<?x5x4x17xf32>
// CHECK-NEXT:    func.return %[[M]] : memref<?x5x4x17xf32>
func.func @alloc_dynamic(%n: index) -> memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">> {
  %m = memref.alloc(%n) : memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  func.return %m : memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
}

// A dynamic batch on a padded blocked layout: the pad fill's outer loop runs to the
// runtime size.
// CHECK-LABEL: func.func @alloc_dynamic_padded(%n: index) -> memref<?x3x5x4x8xf32> {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc(%n) : memref<?x3x5x4x8xf32>
// CHECK:         %[[N:.*]] = memref.dim %[[M]], %{{.*}} : memref<?x3x5x4x8xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[N]] step
func.func @alloc_dynamic_padded(%n: index) -> memref<?x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> {
  %m = memref.alloc(%n) : memref<?x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return %m : memref<?x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
}
