// layout-lower on memref.load / memref.store: physical index code for nChw8c on 2x17x5x4
// (physical memref<2x3x5x4x8xf32>, c -> (c floordiv 8, c mod 8)).
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s --check-prefix=AFFINE

// Indices of unknown value that index a dim directly are in [0, extent): unsigned division.
// CHECK-LABEL: func.func @load_unknown(%m: memref<2x3x5x4x8xf32>, %n: index, %c: index, %h: index, %w: index) -> f32 {
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[CB:.*]] = arith.divui %c, %[[C8]] : index
// CHECK-NEXT:    %[[CI:.*]] = arith.remui %c, %[[C8]] : index
// CHECK-NEXT:    %[[R:.*]] = memref.load %m[%n, %[[CB]], %h, %w, %[[CI]]] : memref<2x3x5x4x8xf32>
// CHECK-NEXT:    func.return %[[R]] : f32
// AFFINE-LABEL: func.func @load_unknown(%m: memref<2x3x5x4x8xf32>, %n: index, %c: index, %h: index, %w: index) -> f32 {
// AFFINE-NEXT:    %[[CB:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 8))> (%c)
// AFFINE-NEXT:    %[[CI:.*]] = affine.apply affine_map<(d0) -> ((d0 mod 8))> (%c)
// AFFINE-NEXT:    %[[R:.*]] = memref.load %m[%n, %[[CB]], %h, %w, %[[CI]]] : memref<2x3x5x4x8xf32>
// AFFINE-NEXT:    func.return %[[R]] : f32
func.func @load_unknown(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %n: index, %c: index, %h: index, %w: index) -> f32 {
  %r = memref.load %m[%n, %c, %h, %w] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return %r : f32
}

// Constant indices fold: logical (1, 11, 0, 1) is physical (1, 1, 0, 1, 3).
// CHECK-LABEL: func.func @store_constant(%m: memref<2x3x5x4x8xf32>, %v: f32) {
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-NOT:     arith.divui
// CHECK:         memref.store %v, %m[%[[C1]], %[[C1]], %[[C0]], %[[C1]], %[[C3]]] : memref<2x3x5x4x8xf32>
// CHECK-NEXT:    func.return
// AFFINE-LABEL: func.func @store_constant(
// AFFINE-NOT:     affine.apply
// AFFINE:         memref.store %v, %m[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x3x5x4x8xf32>
func.func @store_constant(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 11 : index
  memref.store %v, %m[%c1, %c11, %c0, %c1] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return
}

// A loop variable in [0, 17): unsigned division, no signed floor forms.
// CHECK-LABEL: func.func @store_loop(%m: memref<2x3x5x4x8xf32>, %v: f32) {
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[CB:.*]] = arith.divui %[[C]], %[[C8:.*]] : index
// CHECK-NEXT:      %[[CI:.*]] = arith.remui %[[C]], %[[C8]] : index
// CHECK-NEXT:      memref.store %v, %m[%{{.*}}, %[[CB]], %{{.*}}, %{{.*}}, %[[CI]]] : memref<2x3x5x4x8xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     floordivsi
// CHECK-NOT:     remsi
// CHECK:         func.return
func.func @store_loop(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c17 = arith.constant 17 : index
  scf.for %c = %c0 to %c17 step %c1 {
    memref.store %v, %m[%c0, %c, %c0, %c0] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  }
  func.return
}

// c - 1 with c unknown may be negative as far as the pass can tell: floor division and
// floor modulo (remsi corrected by a select), never divui / remui.
// CHECK-LABEL: func.func @maybe_negative(%m: memref<2x3x5x4x8xf32>, %c: index) -> f32 {
// CHECK-NOT:     arith.divui
// CHECK-NOT:     arith.remui
// CHECK:         arith.floordivsi
// CHECK:         %[[REM:.*]] = arith.remsi
// CHECK-NEXT:    %[[NEG:.*]] = arith.cmpi slt, %[[REM]], %{{.*}} : index
// CHECK-NEXT:    %[[UP:.*]] = arith.addi %[[REM]], %{{.*}} : index
// CHECK-NEXT:    %[[MOD:.*]] = arith.select %[[NEG]], %[[UP]], %[[REM]] : index
// CHECK-NEXT:    memref.load %m[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[MOD]]] : memref<2x3x5x4x8xf32>
// AFFINE-LABEL: func.func @maybe_negative(
// AFFINE:         affine.apply affine_map<(d0) -> ((((d0 + 7) floordiv 8) + -1))> (%c)
// AFFINE:         affine.apply affine_map<(d0) -> (((d0 + 7) mod 8))> (%c)
func.func @maybe_negative(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %c: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = arith.subi %c, %c1 : index
  %r = memref.load %m[%c0, %d, %c0, %c0] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return %r : f32
}

// A permutation (nhwc) needs no arithmetic at all, only reordered indices.
// CHECK-LABEL: func.func @permuted(%m: memref<2x5x4x17xf32>, %n: index, %c: index, %h: index, %w: index, %v: f32) {
// CHECK-NEXT:    memref.store %v, %m[%n, %h, %w, %c] : memref<2x5x4x17xf32>
// CHECK-NEXT:    func.return
func.func @permuted(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>, %n: index, %c: index, %h: index, %w: index, %v: f32) {
  memref.store %v, %m[%n, %c, %h, %w] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  func.return
}

// CHECK-NOT: layout.
// AFFINE-NOT: layout.
