// layout-fold-converts: a convert A -> B followed by B -> A' with nothing in between that
// touches A or B. The second becomes a copy A -> A' (nothing when A' is A); the first goes
// too when B is a local allocation with no other use, taking the allocation with it.
// RUN: layout-opt %s -p layout-fold-converts | filecheck %s
// RUN: layout-opt -v %s -p layout-fold-converts -o /dev/null 2>&1 | filecheck %s --check-prefix=REMARK

// Through a local buffer and back into the source: everything goes, said under -v.
// REMARK: remark: layout-fold-converts: dropped a memref<16xf32, #layout.tag<"W->W4w">> buffer: it is converted into and straight back
// CHECK-LABEL: func.func @back_to_the_source(
// CHECK-NEXT:    func.return
func.func @back_to_the_source(%a: memref<16xf32>) {
  %b = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
  layout.convert %a to %b : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
  layout.convert %b to %a : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
  memref.dealloc %b : memref<16xf32, #layout.tag<"W->W4w">>
  func.return
}

// Back into another buffer of the source's type: a copy.
// CHECK-LABEL: func.func @into_another(%a: memref<16xf32>, %c: memref<16xf32>) {
// CHECK-NEXT:    memref.copy %a, %c : memref<16xf32> to memref<16xf32>
// CHECK-NEXT:    func.return
func.func @into_another(%a: memref<16xf32>, %c: memref<16xf32>) {
  %b = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
  layout.convert %a to %b : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
  layout.convert %b to %c : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
  func.return
}

// A store to the middle buffer in between: nothing folds.
// CHECK-LABEL: func.func @touched_in_between(
// CHECK:         layout.convert %a to %b
// CHECK:         memref.store
// CHECK:         layout.convert %b to %a
func.func @touched_in_between(%a: memref<16xf32>, %x: f32) {
  %b = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
  %i = arith.constant 3 : index
  layout.convert %a to %b : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
  memref.store %x, %b[%i] : memref<16xf32, #layout.tag<"W->W4w">>
  layout.convert %b to %a : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
  func.return
}

// The middle buffer is an argument (the caller sees it): the first convert stays.
// CHECK-LABEL: func.func @through_an_argument(
// CHECK-NEXT:    layout.convert %a to %b
// CHECK-NEXT:    func.return
func.func @through_an_argument(%a: memref<16xf32>, %b: memref<16xf32, #layout.tag<"W->W4w">>) {
  layout.convert %a to %b : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
  layout.convert %b to %a : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
  func.return
}
