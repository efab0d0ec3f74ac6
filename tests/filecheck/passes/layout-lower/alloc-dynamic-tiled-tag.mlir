// layout-lower on a '?' dim a tag blocks (NCHW16c on a run-time C): the rest of C is
// `C ceildiv 16` (`(C + 15) divui 16`), the block stays static; the pad fill walks the run-time
// extent; accesses divide the channel as for a static C.
// REQUIRES: mlir-opt
// RUN: layout-opt %s -p 'layout-lower{validate=true}' | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt | filecheck %s --check-prefix=UPSTREAM

// UPSTREAM-LABEL: func.func @nchw16c(
// CHECK-LABEL: func.func @nchw16c(%c: index, %i: index, %v: f32) -> memref<1x?x56x56x16xf32> {
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[SUM:.*]] = arith.addi %c, %[[C15]] : index
// CHECK:         %[[BLOCKS:.*]] = arith.divui %[[SUM]], %[[C16]] : index
// CHECK-NEXT:    %a = memref.alloc(%[[BLOCKS]]) : memref<1x?x56x56x16xf32>
// CHECK:         %[[PAD:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[EXTENT:.*]] = memref.dim %a, %{{.*}} : memref<1x?x56x56x16xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[EXTENT]] step
// CHECK:         memref.store %[[PAD]], %a
// CHECK:         %[[BLOCK:.*]] = arith.divui %i, %[[C16]] : index
// CHECK-NEXT:    %[[LANE:.*]] = arith.remui %i, %[[C16]] : index
// CHECK-NEXT:    memref.store %v, %a[%{{.*}}, %[[BLOCK]], %{{.*}}, %{{.*}}, %[[LANE]]] : memref<1x?x56x56x16xf32>
func.func @nchw16c(%c: index, %i: index, %v: f32) -> memref<1x?x56x56xf32, #layout.tag<"NCHW->NCHW16c">> {
  %a = memref.alloc(%c) : memref<1x?x56x56xf32, #layout.tag<"NCHW->NCHW16c">>
  %z = arith.constant 0 : index
  memref.store %v, %a[%z, %i, %z, %z] : memref<1x?x56x56xf32, #layout.tag<"NCHW->NCHW16c">>
  return %a : memref<1x?x56x56xf32, #layout.tag<"NCHW->NCHW16c">>
}
