// A public function that writes its argument and returns it: the argument gets its
// contents back before the return, and no buffer is read after its dealloc. (Returning
// the argument itself, or a copy converted before the dealloc, are both right.)
// RUN: layout-opt %s -p layout-apply | filecheck %s

// CHECK-LABEL: func.func @returns_argument(%a: memref<16xf32>, %v: f32) -> memref<16xf32> {
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    layout.convert %a to %[[T]] : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
// CHECK:         layout.convert %[[T]] to %a : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK:         memref.dealloc %[[T]]
// CHECK-NOT:     %[[T]]
// CHECK:         func.return
func.func @returns_argument(%a: memref<16xf32>, %v: f32) -> memref<16xf32> {
  layout.assign %a to #layout.tag<"W->W4w"> : memref<16xf32>
  %c0 = arith.constant 0 : index
  memref.store %v, %a[%c0] : memref<16xf32>
  func.return %a : memref<16xf32>
}
