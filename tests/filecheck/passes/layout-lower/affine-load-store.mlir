// layout-lower on affine.load / affine.store. In arith mode the access map is composed with
// the layout's map and emitted as arith code feeding memref.load/store (affine ops may only
// take affine dims and symbols); in affine mode the access stays affine with the composed map.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s --check-prefix=AFFINE
// NONE-NOT: {{#layout|layout\.|affine\.load|affine\.store}}

// CHECK-LABEL: func.func @walk(%m: memref<2x3x5x4x8xf32>, %v: f32) {
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         affine.for %[[C:.*]] = 0 to 17 {
// CHECK-NEXT:      affine.for %[[H:.*]] = 0 to 5 {
// CHECK-DAG:         %[[CB:.*]] = arith.divui %[[C]], %[[C8]] : index
// CHECK-DAG:         %[[CI:.*]] = arith.remui %[[C]], %[[C8]] : index
// CHECK:             memref.store %v, %m[%[[C1]], %[[CB]], %[[H]], %[[C3]], %[[CI]]] : memref<2x3x5x4x8xf32>
// AFFINE-LABEL: func.func @walk(%m: memref<2x3x5x4x8xf32>, %v: f32) {
// AFFINE-NEXT:    affine.for %[[C:.*]] = 0 to 17 {
// AFFINE-NEXT:      affine.for %[[H:.*]] = 0 to 5 {
// AFFINE-NEXT:        affine.store %v, %m[1, %[[C]] floordiv 8, %[[H]], 3, %[[C]] mod 8] : memref<2x3x5x4x8xf32>
// AFFINE-NEXT:      }
// AFFINE-NEXT:    }
// AFFINE-NEXT:    func.return
func.func @walk(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %v: f32) {
  affine.for %c = 0 to 17 {
    affine.for %h = 0 to 5 {
      affine.store %v, %m[1, %c, %h, 3] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
    }
  }
  func.return
}

// The access map (%i + 2) is composed with c -> (c floordiv 8, c mod 8).
// CHECK-LABEL: func.func @composed(%m: memref<2x3x5x4x8xf32>, %i: index) -> f32 {
// CHECK:         %[[I2:.*]] = arith.addi %i, %{{.*}} : index
// CHECK:         %[[CB:.*]] = arith.floordivsi %[[I2]], %[[C8:.*]] : index
// CHECK:         memref.load %m[%{{.*}}, %[[CB]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x3x5x4x8xf32>
// AFFINE-LABEL: func.func @composed(%m: memref<2x3x5x4x8xf32>, %i: index) -> f32 {
// AFFINE-NEXT:    %[[R:.*]] = affine.load %m[0, (%i + 2) floordiv 8, 1, 1, (%i + 2) mod 8] : memref<2x3x5x4x8xf32>
// AFFINE-NEXT:    func.return %[[R]] : f32
func.func @composed(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %i: index) -> f32 {
  %r = affine.load %m[0, %i + 2, 1, 1] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return %r : f32
}

// A #layout.map tiling (4x4 tiles, transposed tile order) read in a reduction.
// CHECK-LABEL: func.func @tiled_sum(%m: memref<3x4x4x4xf32>) -> f32 {
// CHECK:         affine.for %[[I:.*]] = 0 to 13 iter_args
// CHECK:           affine.for %[[J:.*]] = 0 to 10 iter_args
// CHECK-DAG:         %[[JB:.*]] = arith.divui %[[J]], %[[C4:.*]] : index
// CHECK-DAG:         %[[IB:.*]] = arith.divui %[[I]], %[[C4]] : index
// CHECK-DAG:         %[[JI:.*]] = arith.remui %[[J]], %[[C4]] : index
// CHECK-DAG:         %[[II:.*]] = arith.remui %[[I]], %[[C4]] : index
// CHECK:             memref.load %m[%[[JB]], %[[IB]], %[[JI]], %[[II]]] : memref<3x4x4x4xf32>
// AFFINE-LABEL: func.func @tiled_sum(%m: memref<3x4x4x4xf32>) -> f32 {
// AFFINE:         affine.load %m[%[[J:.*]] floordiv 4, %[[I:.*]] floordiv 4, %[[J]] mod 4, %[[I]] mod 4] : memref<3x4x4x4xf32>
// AFFINE-NOT:     layout
func.func @tiled_sum(%m: memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>) -> f32 {
  %s = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 13 iter_args(%a = %s) -> f32 {
    %t = affine.for %j = 0 to 10 iter_args(%b = %a) -> f32 {
      %x = affine.load %m[%i, %j] : memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>
      %y = arith.addf %b, %x : f32
      affine.yield %y : f32
    }
    affine.yield %t : f32
  }
  func.return %r : f32
}
