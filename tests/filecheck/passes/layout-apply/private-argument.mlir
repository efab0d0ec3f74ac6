// layout.assign on a parameter of a private function: the parameter is retyped and stays
// retyped, and every call site passes a buffer of that layout (a converted temporary when the
// caller's buffer has another layout: converted back after the call when the callee may
// write it, then freed). A private function that may return the parameter converts at its
// entry instead, as a public one does: the caller's buffer is what it returns.
// RUN: layout-opt %s -p layout-apply | filecheck %s
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=LOWER

// CHECK-LABEL: func.func private @scale(%x: memref<3x10xf32, #layout.tag<"RC->CR4c">>) {
// CHECK-NOT:     layout.convert
// CHECK:         memref.store %{{.*}}, %x[%i, %j] : memref<3x10xf32, #layout.tag<"RC->CR4c">>
// The lowered callee indexes the physical buffer (3 blocks of 4 columns, rows, lanes).
// LOWER-LABEL: func.func private @scale(%x: memref<3x3x4xf32>) {
// LOWER-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// LOWER:         %[[B:.*]] = arith.divui %j, %[[C4]] : index
// LOWER-NEXT:    %[[L:.*]] = arith.remui %j, %[[C4]] : index
// LOWER-NEXT:    %[[V:.*]] = memref.load %x[%[[B]], %i, %[[L]]] : memref<3x3x4xf32>
// LOWER:         memref.store %{{.*}}, %x[%[[B]], %i, %[[L]]] : memref<3x3x4xf32>
func.func private @scale(%x: memref<3x10xf32>) {
  layout.assign %x to #layout.tag<"RC->CR4c"> : memref<3x10xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c10 step %c1 {
      %v = memref.load %x[%i, %j] : memref<3x10xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %x[%i, %j] : memref<3x10xf32>
    }
  }
  func.return
}

// A plain caller: convert in, call, convert back (@scale writes), free.
// CHECK-LABEL: func.func @main(%a: memref<3x10xf32>) {
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<3x10xf32, #layout.tag<"RC->CR4c">>
// CHECK-NEXT:    layout.convert %a to %[[T]] : memref<3x10xf32> to memref<3x10xf32, #layout.tag<"RC->CR4c">>
// CHECK-NEXT:    func.call @scale(%[[T]]) : (memref<3x10xf32, #layout.tag<"RC->CR4c">>) -> ()
// CHECK-NEXT:    layout.convert %[[T]] to %a : memref<3x10xf32, #layout.tag<"RC->CR4c">> to memref<3x10xf32>
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<3x10xf32, #layout.tag<"RC->CR4c">>
// A caller whose buffer already has the layout passes it as it is.
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<3x10xf32, #layout.tag<"RC->CR4c">>
// CHECK-NEXT:    func.call @scale(%[[M]]) : (memref<3x10xf32, #layout.tag<"RC->CR4c">>) -> ()
// CHECK-NEXT:    memref.dealloc %[[M]] : memref<3x10xf32, #layout.tag<"RC->CR4c">>
// CHECK-NEXT:    func.return
// LOWER-LABEL: func.func @main(%a: memref<3x10xf32>) {
// LOWER:         %[[T:.*]] = memref.alloc() : memref<3x3x4xf32>
// LOWER:         func.call @scale(%[[T]]) : (memref<3x3x4xf32>) -> ()
// LOWER:         memref.dealloc %[[T]] : memref<3x3x4xf32>
// LOWER:         func.call @scale(%{{.*}}) : (memref<3x3x4xf32>) -> ()
// LOWER-NOT:     layout
func.func @main(%a: memref<3x10xf32>) {
  func.call @scale(%a) : (memref<3x10xf32>) -> ()
  %m = memref.alloc() : memref<3x10xf32>
  layout.assign %m to #layout.tag<"RC->CR4c"> : memref<3x10xf32>
  func.call @scale(%m) : (memref<3x10xf32>) -> ()
  memref.dealloc %m : memref<3x10xf32>
  func.return
}

// A reader: converted in and freed, never converted back.
// CHECK-LABEL: func.func private @first(%x: memref<8xi32, #layout.tag<"W->W4w">>) -> i32 {
func.func private @first(%x: memref<8xi32>) -> i32 {
  layout.assign %x to #layout.tag<"W->W4w"> : memref<8xi32>
  %c5 = arith.constant 5 : index
  %v = memref.load %x[%c5] : memref<8xi32>
  func.return %v : i32
}
// CHECK-LABEL: func.func @read(%a: memref<8xi32>) -> i32 {
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<8xi32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    layout.convert %a to %[[T]] : memref<8xi32> to memref<8xi32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    %[[V:.*]] = func.call @first(%[[T]]) : (memref<8xi32, #layout.tag<"W->W4w">>) -> i32
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<8xi32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    func.return %[[V]] : i32
func.func @read(%a: memref<8xi32>) -> i32 {
  %v = func.call @first(%a) : (memref<8xi32>) -> i32
  func.return %v : i32
}

// Returning the parameter: the signature stays, the body works on a converted copy.
// CHECK-LABEL: func.func private @touch(%x: memref<8xi32>) -> memref<8xi32> {
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() : memref<8xi32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    layout.convert %x to %[[C]] : memref<8xi32> to memref<8xi32, #layout.tag<"W->W4w">>
// CHECK:         memref.store %{{.*}}, %[[C]][%{{.*}}] : memref<8xi32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    layout.convert %[[C]] to %x : memref<8xi32, #layout.tag<"W->W4w">> to memref<8xi32>
// CHECK-NEXT:    memref.dealloc %[[C]] : memref<8xi32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    func.return %x : memref<8xi32>
func.func private @touch(%x: memref<8xi32>) -> memref<8xi32> {
  layout.assign %x to #layout.tag<"W->W4w"> : memref<8xi32>
  %c1 = arith.constant 1 : index
  %v = arith.constant 7 : i32
  memref.store %v, %x[%c1] : memref<8xi32>
  func.return %x : memref<8xi32>
}
// CHECK-LABEL: func.func @through(%a: memref<8xi32>) -> i32 {
// CHECK-NEXT:    %[[R:.*]] = func.call @touch(%a) : (memref<8xi32>) -> memref<8xi32>
func.func @through(%a: memref<8xi32>) -> i32 {
  %r = func.call @touch(%a) : (memref<8xi32>) -> memref<8xi32>
  %c1 = arith.constant 1 : index
  %v = memref.load %r[%c1] : memref<8xi32>
  func.return %v : i32
}
