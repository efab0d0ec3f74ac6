// layout-simplify-index on hand-written arith index code: each access index is read back as
// a quasi-affine expression over its leaves (loop variables with their ranges, arguments),
// simplified, and re-emitted when cheaper; the dead divisions go.
// RUN: layout-opt %s -p layout-simplify-index | filecheck %s

// c = cb·16 + ci with ci in [0, 16): c / 16 = cb and c % 16 = ci.
// CHECK-LABEL: func.func @blocked_walk(%m: memref<2x2x5x4x16xf32>, %v: f32) {
// CHECK:         scf.for %[[CB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[CI:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        memref.store %v, %m[%[[Z:.*]], %[[CB]], %[[Z]], %[[Z]], %[[CI]]] : memref<2x2x5x4x16xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     arith.divui
// CHECK-NOT:     arith.remui
// CHECK:         func.return
func.func @blocked_walk(%m: memref<2x2x5x4x16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  scf.for %cb = %c0 to %c2 step %c1 {
    scf.for %ci = %c0 to %c16 step %c1 {
      %t = arith.muli %cb, %c16 : index
      %c = arith.addi %t, %ci : index
      %b = arith.divui %c, %c16 : index
      %i = arith.remui %c, %c16 : index
      memref.store %v, %m[%c0, %b, %c0, %c0, %i] : memref<2x2x5x4x16xf32>
    }
  }
  func.return
}

// (x / 8)·8 + x % 8 = x for x in [0, 64).
// CHECK-LABEL: func.func @recompose(%m: memref<64xf32>, %v: f32) {
// CHECK:         scf.for %[[X:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      memref.store %v, %m[%[[X]]] : memref<64xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     arith.
// CHECK:         func.return
func.func @recompose(%m: memref<64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.for %x = %c0 to %c64 step %c1 {
    %q = arith.divui %x, %c8 : index
    %r = arith.remui %x, %c8 : index
    %q8 = arith.muli %q, %c8 : index
    %y = arith.addi %q8, %r : index
    memref.store %v, %m[%y] : memref<64xf32>
  }
  func.return
}

// The same identity written as an affine.apply, on an argument of unknown range (floordiv
// and mod are floor forms, so it holds for every x).
// CHECK-LABEL: func.func @recompose_apply(%m: memref<64xf32>, %x: index) -> f32 {
// CHECK-NEXT:    %[[V:.*]] = memref.load %m[%x] : memref<64xf32>
// CHECK-NEXT:    func.return %[[V]] : f32
func.func @recompose_apply(%m: memref<64xf32>, %x: index) -> f32 {
  %y = affine.apply affine_map<(d0) -> ((d0 floordiv 8) * 8 + d0 mod 8)>(%x)
  %v = memref.load %m[%y] : memref<64xf32>
  func.return %v : f32
}

// floordivsi·8 + remsi is not x for negative x (remsi truncates): nothing changes.
// CHECK-LABEL: func.func @signed_not_identity(%m: memref<64xf32>, %x: index) -> f32 {
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[Q:.*]] = arith.floordivsi %x, %[[C8]] : index
// CHECK-NEXT:    %[[Q8:.*]] = arith.muli %[[Q]], %[[C8]] : index
// CHECK-NEXT:    %[[R:.*]] = arith.remsi %x, %[[C8]] : index
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %[[Q8]], %[[R]] : index
// CHECK-NEXT:    %[[V:.*]] = memref.load %m[%[[Y]]] : memref<64xf32>
func.func @signed_not_identity(%m: memref<64xf32>, %x: index) -> f32 {
  %c8 = arith.constant 8 : index
  %q = arith.floordivsi %x, %c8 : index
  %q8 = arith.muli %q, %c8 : index
  %r = arith.remsi %x, %c8 : index
  %y = arith.addi %q8, %r : index
  %v = memref.load %m[%y] : memref<64xf32>
  func.return %v : f32
}

// x / 8 of an unknown x cannot be simplified: it stays.
// CHECK-LABEL: func.func @unknown_stays(%m: memref<64xf32>, %x: index, %v: f32) {
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[Q:.*]] = arith.divui %x, %[[C8]] : index
// CHECK-NEXT:    memref.store %v, %m[%[[Q]]] : memref<64xf32>
func.func @unknown_stays(%m: memref<64xf32>, %x: index, %v: f32) {
  %c8 = arith.constant 8 : index
  %q = arith.divui %x, %c8 : index
  memref.store %v, %m[%q] : memref<64xf32>
  func.return
}

// w steps by 8 from 0: w % 8 = 0 (the loop's step is known), w / 8 stays; vector accesses too.
// CHECK-LABEL: func.func @stepped_vector(%m: memref<2x4x8xf32>, %v: vector<8xf32>) {
// CHECK:         scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[B:.*]] = arith.divui %[[W]], %{{.*}} : index
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:      vector.store %v, %m[%{{.*}}, %[[B]], %[[Z]]] : memref<2x4x8xf32>, vector<8xf32>
// CHECK-NOT:     arith.remui
func.func @stepped_vector(%m: memref<2x4x8xf32>, %v: vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  scf.for %w = %c0 to %c32 step %c8 {
    %b = arith.divui %w, %c8 : index
    %i = arith.remui %w, %c8 : index
    vector.store %v, %m[%c1, %b, %i] : memref<2x4x8xf32>, vector<8xf32>
  }
  func.return
}

// ci in [0, 17) may reach the next block: (cb·16 + ci) / 16 is cb + ci / 16, not cb, and
// the remainder is ci % 16, not ci.
// CHECK-LABEL: func.func @inner_overflows(%m: memref<64xf32>, %v: f32) {
// CHECK:         scf.for %[[CB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[CI:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT:        %[[Q:.*]] = arith.divui %[[CI]], %[[C16]] : index
// CHECK-NEXT:        %[[B:.*]] = arith.addi %[[CB]], %[[Q]] : index
// CHECK-NEXT:        %[[R:.*]] = arith.remui %[[CI]], %[[C16]] : index
// CHECK-NEXT:        %[[S:.*]] = arith.addi %[[B]], %[[R]] : index
// CHECK-NEXT:        memref.store %v, %m[%[[S]]] : memref<64xf32>
func.func @inner_overflows(%m: memref<64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  scf.for %cb = %c0 to %c2 step %c1 {
    scf.for %ci = %c0 to %c17 step %c1 {
      %t = arith.muli %cb, %c16 : index
      %c = arith.addi %t, %ci : index
      %b = arith.divui %c, %c16 : index
      %i = arith.remui %c, %c16 : index
      %s = arith.addi %b, %i : index
      memref.store %v, %m[%s] : memref<64xf32>
    }
  }
  func.return
}
