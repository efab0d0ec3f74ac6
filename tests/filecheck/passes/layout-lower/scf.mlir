// layout-lower on memrefs carried through scf.for / affine.for iter_args, scf.if results and
// scf.while: block arguments, results and yields take the physical type; accesses inside
// use the layout ("W->W4w" on 16 elements is physical 4x4: w -> (w floordiv 4, w mod 4)).
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// i in [0, 4) is its own block offset: (i floordiv 4, i mod 4) = (0, i).
// CHECK-LABEL: func.func @for_swap(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %v: f32) -> memref<4x4xf32> {
// CHECK:         %[[R:.*]], %{{.*}} = scf.for %[[I:.*]] = %[[C0:.*]] to %{{.*}} step %{{.*}} iter_args(%[[X:.*]] = %a, %[[Y:.*]] = %b) -> (memref<4x4xf32>, memref<4x4xf32>) {
// CHECK-NEXT:      memref.store %v, %[[X]][%[[C0]], %[[I]]] : memref<4x4xf32>
// CHECK-NEXT:      scf.yield %[[Y]], %[[X]] : memref<4x4xf32>, memref<4x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : memref<4x4xf32>
func.func @for_swap(%a: memref<16xf32, #layout.tag<"W->W4w">>, %b: memref<16xf32, #layout.tag<"W->W4w">>, %v: f32) -> memref<16xf32, #layout.tag<"W->W4w">> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a, %y = %b) -> (memref<16xf32, #layout.tag<"W->W4w">>, memref<16xf32, #layout.tag<"W->W4w">>) {
    memref.store %v, %x[%i] : memref<16xf32, #layout.tag<"W->W4w">>
    scf.yield %y, %x : memref<16xf32, #layout.tag<"W->W4w">>, memref<16xf32, #layout.tag<"W->W4w">>
  }
  func.return %r#0 : memref<16xf32, #layout.tag<"W->W4w">>
}

// 4i is the start of block i: (i, 0).
// CHECK-LABEL: func.func @affine_for(%a: memref<4x4xf32>, %v: f32) {
// CHECK:         affine.for %[[I:.*]] = 0 to 4 iter_args(%[[X:.*]] = %a) -> (memref<4x4xf32>) {
// CHECK:           memref.store %v, %[[X]][%[[I]], %{{.*}}] : memref<4x4xf32>
// CHECK-NEXT:      affine.yield %[[X]] : memref<4x4xf32>
func.func @affine_for(%a: memref<16xf32, #layout.tag<"W->W4w">>, %v: f32) {
  %r = affine.for %i = 0 to 4 iter_args(%x = %a) -> memref<16xf32, #layout.tag<"W->W4w">> {
    affine.store %v, %x[%i * 4] : memref<16xf32, #layout.tag<"W->W4w">>
    affine.yield %x : memref<16xf32, #layout.tag<"W->W4w">>
  }
  func.return
}

// CHECK-LABEL: func.func @if_select(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %p: i1, %i: index) -> f32 {
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[M:.*]] = scf.if %p -> (memref<4x4xf32>) {
// CHECK-NEXT:      scf.yield %a : memref<4x4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %b : memref<4x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[IB:.*]] = arith.divui %i, %[[C4]] : index
// CHECK-NEXT:    %[[II:.*]] = arith.remui %i, %[[C4]] : index
// CHECK-NEXT:    memref.load %[[M]][%[[IB]], %[[II]]] : memref<4x4xf32>
func.func @if_select(%a: memref<16xf32, #layout.tag<"W->W4w">>, %b: memref<16xf32, #layout.tag<"W->W4w">>, %p: i1, %i: index) -> f32 {
  %m = scf.if %p -> (memref<16xf32, #layout.tag<"W->W4w">>) {
    scf.yield %a : memref<16xf32, #layout.tag<"W->W4w">>
  } else {
    scf.yield %b : memref<16xf32, #layout.tag<"W->W4w">>
  }
  %x = memref.load %m[%i] : memref<16xf32, #layout.tag<"W->W4w">>
  func.return %x : f32
}

// Logical 5 is physical (1, 1).
// CHECK-LABEL: func.func @while_carried(%a: memref<4x4xf32>, %v: f32, %p: i1) {
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %{{.*}} = scf.while (%[[X:.*]] = %a) : (memref<4x4xf32>) -> memref<4x4xf32> {
// CHECK-NEXT:      scf.condition(%p) %[[X]] : memref<4x4xf32>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^{{.*}}(%[[Y:.*]]: memref<4x4xf32>):
// CHECK-NEXT:      memref.store %v, %[[Y]][%[[C1]], %[[C1]]] : memref<4x4xf32>
// CHECK-NEXT:      scf.yield %[[Y]] : memref<4x4xf32>
func.func @while_carried(%a: memref<16xf32, #layout.tag<"W->W4w">>, %v: f32, %p: i1) {
  %r = scf.while (%x = %a) : (memref<16xf32, #layout.tag<"W->W4w">>) -> memref<16xf32, #layout.tag<"W->W4w">> {
    scf.condition(%p) %x : memref<16xf32, #layout.tag<"W->W4w">>
  } do {
  ^bb0(%y: memref<16xf32, #layout.tag<"W->W4w">>):
    %c5 = arith.constant 5 : index
    memref.store %v, %y[%c5] : memref<16xf32, #layout.tag<"W->W4w">>
    scf.yield %y : memref<16xf32, #layout.tag<"W->W4w">>
  }
  func.return
}
