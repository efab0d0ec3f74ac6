// The index simplification inside layout-lower: a walk that visits a blocked layout in its
// own block order lowers with no division or remainder at all, and the family
// (x floordiv c)·c + x mod c folds back to x.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s --check-prefix=AFFINE
// RUN: layout-opt %s -p 'layout-lower{flatten=true}' | filecheck %s --check-prefix=FLAT

// for cb, for ci: A[0, cb·16 + ci, 0, 0] on nChw16c (C = 32) is physical [0, cb, 0, 0, ci].
// CHECK-LABEL: func.func @blocked_walk(%m: memref<2x2x5x4x16xf32>, %v: f32) {
// CHECK:         scf.for %[[CB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[CI:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        memref.store %v, %m[%[[Z:.*]], %[[CB]], %[[Z]], %[[Z]], %[[CI]]] : memref<2x2x5x4x16xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     divui
// CHECK-NOT:     remui
// CHECK:         func.return
// AFFINE-LABEL: func.func @blocked_walk(
// AFFINE-NOT:     affine.apply
// AFFINE:         memref.store %v, %m[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x2x5x4x16xf32>
// FLAT-LABEL: func.func @blocked_walk(%m: memref<1280xf32>, %v: f32) {
// FLAT-NOT:     divui
// FLAT-NOT:     remui
// FLAT:         func.return
func.func @blocked_walk(%m: memref<2x32x5x4xf32, #layout.tag<"NCHW->nChw16c">>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  scf.for %cb = %c0 to %c2 step %c1 {
    scf.for %ci = %c0 to %c16 step %c1 {
      %t = arith.muli %cb, %c16 : index
      %c = arith.addi %t, %ci : index
      memref.store %v, %m[%c0, %c, %c0, %c0] : memref<2x32x5x4xf32, #layout.tag<"NCHW->nChw16c">>
    }
  }
  func.return
}

// The same walk with affine ops: affine mode keeps a plain affine.store.
// CHECK-LABEL: func.func @affine_blocked_walk(%m: memref<2x2x5x4x16xf32>, %v: f32) {
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0 : index
// CHECK:         affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[CI:.*]] = 0 to 16 {
// CHECK-NEXT:        memref.store %v, %m[%[[Z]], %[[CB]], %[[Z]], %[[Z]], %[[CI]]] : memref<2x2x5x4x16xf32>
// CHECK-NOT:     divui
// AFFINE-LABEL: func.func @affine_blocked_walk(%m: memref<2x2x5x4x16xf32>, %v: f32) {
// AFFINE-NEXT:    affine.for %[[CB:.*]] = 0 to 2 {
// AFFINE-NEXT:      affine.for %[[CI:.*]] = 0 to 16 {
// AFFINE-NEXT:        affine.store %v, %m[0, %[[CB]], 0, 0, %[[CI]]] : memref<2x2x5x4x16xf32>
func.func @affine_blocked_walk(%m: memref<2x32x5x4xf32, #layout.tag<"NCHW->nChw16c">>, %v: f32) {
  affine.for %cb = 0 to 2 {
    affine.for %ci = 0 to 16 {
      affine.store %v, %m[0, %cb * 16 + %ci, 0, 0] : memref<2x32x5x4xf32, #layout.tag<"NCHW->nChw16c">>
    }
  }
  func.return
}

// Through an affine.apply feeding memref.store.
// CHECK-LABEL: func.func @apply_blocked_walk(%m: memref<2x2x5x4x16xf32>, %v: f32) {
// CHECK:         affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[CI:.*]] = 0 to 16 {
// CHECK-NOT:         affine.apply
// CHECK:             memref.store %v, %m[%[[Z:.*]], %[[CB]], %[[Z]], %[[Z]], %[[CI]]] : memref<2x2x5x4x16xf32>
func.func @apply_blocked_walk(%m: memref<2x32x5x4xf32, #layout.tag<"NCHW->nChw16c">>, %v: f32) {
  %c0 = arith.constant 0 : index
  affine.for %cb = 0 to 2 {
    affine.for %ci = 0 to 16 {
      %c = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1)>(%cb, %ci)
      memref.store %v, %m[%c0, %c, %c0, %c0] : memref<2x32x5x4xf32, #layout.tag<"NCHW->nChw16c">>
    }
  }
  func.return
}

// "W->W8w" flattened: offset (i floordiv 8)·8 + i mod 8 = i.
// FLAT-LABEL: func.func @flat_identity(%m: memref<64xf32>, %v: f32) {
// FLAT-NEXT:    affine.for %[[I:.*]] = 0 to 64 {
// FLAT-NEXT:      memref.store %v, %m[%[[I]]] : memref<64xf32>
// FLAT-NEXT:    }
// FLAT-NEXT:    func.return
// CHECK-LABEL: func.func @flat_identity(%m: memref<8x8xf32>, %v: f32) {
// CHECK:         arith.divui
// CHECK:         arith.remui
func.func @flat_identity(%m: memref<64xf32, #layout.tag<"W->W8w">>, %v: f32) {
  affine.for %i = 0 to 64 {
    affine.store %v, %m[%i] : memref<64xf32, #layout.tag<"W->W8w">>
  }
  func.return
}

// A loop stepping by 8 from 0 on "W->W8w", accessing i + 3: block i / 8, offset 3, no remui.
// CHECK-LABEL: func.func @stepped(%m: memref<8x8xf32>, %v: f32) {
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         affine.for %[[I:.*]] = 0 to 64 step 8 {
// CHECK-DAG:       %[[B:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK:           memref.store %v, %m[%[[B]], %[[C3]]] : memref<8x8xf32>
// CHECK-NOT:     remui
// CHECK:         func.return
func.func @stepped(%m: memref<64xf32, #layout.tag<"W->W8w">>, %v: f32) {
  affine.for %i = 0 to 64 step 8 {
    affine.store %v, %m[%i + 3] : memref<64xf32, #layout.tag<"W->W8w">>
  }
  func.return
}
