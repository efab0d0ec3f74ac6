// A public function returning a buffer it allocated and assigned a layout: it returns a
// converted copy (its signature stays), and the layout buffer is freed right after the copy
// when nothing else can reach it. A buffer that also escapes elsewhere is not freed.
// RUN: layout-opt %s -p layout-apply | filecheck %s
// RUN: layout-run %s --entry main --check | filecheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @make(%v: f32) -> memref<16xf32> {
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK:         memref.store %v, %[[B]][%{{.*}}] : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    %[[COPY:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    layout.convert %[[B]] to %[[COPY]] : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    func.return %[[COPY]] : memref<16xf32>
func.func @make(%v: f32) -> memref<16xf32> {
  %b = memref.alloc() : memref<16xf32>
  layout.assign %b to #layout.tag<"W->W4w"> : memref<16xf32>
  %c5 = arith.constant 5 : index
  memref.store %v, %b[%c5] : memref<16xf32>
  func.return %b : memref<16xf32>
}

// Passed to a (private, hence retyped) callee as well: the pass does not follow where the
// callee puts it, so it is not freed.
// CHECK-LABEL: func.func @make_and_share(%v: f32) -> memref<16xf32> {
// CHECK:         func.call @keep(%[[B:.*]]) : (memref<16xf32, #layout.tag<"W->W4w">>) -> ()
// CHECK-NEXT:    %[[COPY:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    layout.convert %[[B]] to %[[COPY]] : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK-NEXT:    func.return %[[COPY]] : memref<16xf32>
func.func private @keep(%m: memref<16xf32>) {
  func.return
}
func.func @make_and_share(%v: f32) -> memref<16xf32> {
  %b = memref.alloc() : memref<16xf32>
  layout.assign %b to #layout.tag<"W->W4w"> : memref<16xf32>
  %c5 = arith.constant 5 : index
  memref.store %v, %b[%c5] : memref<16xf32>
  func.call @keep(%b) : (memref<16xf32>) -> ()
  func.return %b : memref<16xf32>
}

// A stack buffer is never deallocated.
// CHECK-LABEL: func.func @make_on_stack(%v: f32) -> memref<16xf32> {
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return
func.func @make_on_stack(%v: f32) -> memref<16xf32> {
  %b = memref.alloca() : memref<16xf32>
  layout.assign %b to #layout.tag<"W->W4w"> : memref<16xf32>
  %c5 = arith.constant 5 : index
  memref.store %v, %b[%c5] : memref<16xf32>
  func.return %b : memref<16xf32>
}

// The caller reads the returned copy after the layout buffer was freed: the same value.
// EXEC: OK: 1 elements compared
func.func @main() -> f32 {
  %v = arith.constant 2.5 : f32
  %m = func.call @make(%v) : (f32) -> memref<16xf32>
  %c5 = arith.constant 5 : index
  %x = memref.load %m[%c5] : memref<16xf32>
  memref.dealloc %m : memref<16xf32>
  func.return %x : f32
}
