// layout-apply across calls to private functions. When every call site passes the same new
// type, the callee's parameter is retyped (and its body follows); when call sites disagree,
// the callee keeps its type and the disagreeing call gets conversions around it (the one
// after the call only when the callee may write the buffer).
// RUN: layout-opt %s -p layout-apply | filecheck %s
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=LOWER

// Both callers of @agree pass W4w buffers: retyped.
// CHECK-LABEL: func.func private @agree(%b: memref<16xf32, #layout.tag<"W->W4w">>, %i: index) -> f32 {
// CHECK-NEXT:    %[[X:.*]] = memref.load %b[%i] : memref<16xf32, #layout.tag<"W->W4w">>
// LOWER-LABEL: func.func private @agree(%b: memref<4x4xf32>, %i: index) -> f32 {
func.func private @agree(%b: memref<16xf32>, %i: index) -> f32 {
  %x = memref.load %b[%i] : memref<16xf32>
  func.return %x : f32
}

// @writer is called with a W4w buffer and a plain one: unchanged.
// CHECK-LABEL: func.func private @writer(%b: memref<16xf32>, %v: f32) {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %v, %b[%[[C0]]] : memref<16xf32>
// LOWER-LABEL: func.func private @writer(%b: memref<16xf32>, %v: f32) {
func.func private @writer(%b: memref<16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  memref.store %v, %b[%c0] : memref<16xf32>
  func.return
}

// @reader too, but it only reads.
// CHECK-LABEL: func.func private @reader(%b: memref<16xf32>) -> f32 {
func.func private @reader(%b: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %b[%c0] : memref<16xf32>
  func.return %x : f32
}

// CHECK-LABEL: func.func @caller(%i: index, %v: f32) -> f32 {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    %[[N:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    %[[X:.*]] = func.call @agree(%[[M]], %i) : (memref<16xf32, #layout.tag<"W->W4w">>, index) -> f32
// CHECK-NEXT:    %[[Y:.*]] = func.call @agree(%[[N]], %i) : (memref<16xf32, #layout.tag<"W->W4w">>, index) -> f32
// The disagreeing call to a writer: convert in, call, convert back, free.
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    layout.convert %[[M]] to %[[T]] : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK-NEXT:    func.call @writer(%[[T]], %v) : (memref<16xf32>, f32) -> ()
// CHECK-NEXT:    layout.convert %[[T]] to %[[M]] : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<16xf32>
// The agreeing one (already plain) is untouched.
// CHECK-NEXT:    func.call @writer(%[[P]], %v) : (memref<16xf32>, f32) -> ()
// A call to a reader: no convert back.
// CHECK-NEXT:    %[[U:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    layout.convert %[[M]] to %[[U]] : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK-NEXT:    %{{.*}} = func.call @reader(%[[U]]) : (memref<16xf32>) -> f32
// CHECK-NEXT:    memref.dealloc %[[U]] : memref<16xf32>
// CHECK-NEXT:    %{{.*}} = func.call @reader(%[[P]]) : (memref<16xf32>) -> f32
// CHECK-NOT:     layout.convert
// CHECK:         func.return
// LOWER-LABEL: func.func @caller(%i: index, %v: f32) -> f32 {
// LOWER:         func.call @agree(%{{.*}}, %i) : (memref<4x4xf32>, index) -> f32
// LOWER:         func.call @writer(%{{.*}}, %v) : (memref<16xf32>, f32) -> ()
// LOWER-NOT:     layout
func.func @caller(%i: index, %v: f32) -> f32 {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  %n = memref.alloc() : memref<16xf32>
  layout.assign %n to #layout.tag<"W->W4w"> : memref<16xf32>
  %p = memref.alloc() : memref<16xf32>
  %x = func.call @agree(%m, %i) : (memref<16xf32>, index) -> f32
  %y = func.call @agree(%n, %i) : (memref<16xf32>, index) -> f32
  func.call @writer(%m, %v) : (memref<16xf32>, f32) -> ()
  func.call @writer(%p, %v) : (memref<16xf32>, f32) -> ()
  %z = func.call @reader(%m) : (memref<16xf32>) -> f32
  %w = func.call @reader(%p) : (memref<16xf32>) -> f32
  %s = arith.addf %x, %y : f32
  %t = arith.addf %z, %w : f32
  %r = arith.addf %s, %t : f32
  func.return %r : f32
}

// A retyped parameter propagates on: @outer's callers agree, so @outer is retyped, then
// its call to @inner agrees too.
// CHECK-LABEL: func.func private @inner(%b: memref<2x32xf32, #layout.tag<"NW->NW8w">>) -> f32 {
// CHECK-LABEL: func.func private @outer(%b: memref<2x32xf32, #layout.tag<"NW->NW8w">>) -> f32 {
// CHECK-NEXT:    %[[X:.*]] = func.call @inner(%b) : (memref<2x32xf32, #layout.tag<"NW->NW8w">>) -> f32
// CHECK-LABEL: func.func @chain() -> f32 {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<2x32xf32, #layout.tag<"NW->NW8w">>
// CHECK-NEXT:    %{{.*}} = func.call @outer(%[[M]]) : (memref<2x32xf32, #layout.tag<"NW->NW8w">>) -> f32
func.func private @inner(%b: memref<2x32xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %x = memref.load %b[%c1, %c9] : memref<2x32xf32>
  func.return %x : f32
}
func.func private @outer(%b: memref<2x32xf32>) -> f32 {
  %x = func.call @inner(%b) : (memref<2x32xf32>) -> f32
  func.return %x : f32
}
func.func @chain() -> f32 {
  %m = memref.alloc() : memref<2x32xf32>
  layout.assign %m to #layout.tag<"NW->NW8w"> : memref<2x32xf32>
  %x = func.call @outer(%m) : (memref<2x32xf32>) -> f32
  func.return %x : f32
}
