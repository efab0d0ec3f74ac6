// Views of layout-typed memrefs passed to calls are copied at the call (a temporary of the
// callee's parameter type, filled before, copied back after when the callee may write it,
// freed); a view freed frees its root.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | mlir-opt-22 | filecheck %s --check-prefix=UPSTREAM

func.func private @scale(%x: memref<16xf32, strided<[1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<16xf32, strided<[1], offset: ?>>
  %w = arith.addf %v, %v : f32
  memref.store %w, %x[%c0] : memref<16xf32, strided<[1], offset: ?>>
  func.return
}

// A run-time window passed to a private callee that writes it: a temporary of the
// parameter's type (a 1-D buffer viewed with the type's strides), filled before the call,
// copied back after it, freed.
// UPSTREAM: func.func @runtime_window
// CHECK-LABEL: func.func @runtime_window(%a: memref<4x16xf32>, %n: index) {
// CHECK:       %[[FLAT:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NEXT:  %[[TMP:.*]] = memref.reinterpret_cast %[[FLAT]] to offset: [0], sizes: [16], strides: [1] : memref<?xf32> to memref<16xf32, strided<[1], offset: ?>>
// CHECK:       scf.for
// CHECK:         memref.load %a
// CHECK:         memref.store %{{.*}}, %[[TMP]][%{{.*}}] : memref<16xf32, strided<[1], offset: ?>>
// CHECK:       func.call @scale(%[[TMP]]) : (memref<16xf32, strided<[1], offset: ?>>) -> ()
// CHECK:       scf.for
// CHECK:         memref.load %[[TMP]]
// CHECK:         memref.store %{{.*}}, %a
// CHECK:       memref.dealloc %[[FLAT]] : memref<?xf32>
// CHECK-NEXT:  func.return
func.func @runtime_window(%a: memref<64xf32, #layout.tag<"C->C16c">>, %n: index) {
  %s = memref.subview %a[%n] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: ?>>
  func.call @scale(%s) : (memref<16xf32, strided<[1], offset: ?>>) -> ()
  func.return
}

func.func private @sum(%x: memref<4x4xf32, strided<[12, 1], offset: ?>>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0, %c0] : memref<4x4xf32, strided<[12, 1], offset: ?>>
  func.return %v : f32
}

// A callee that only reads: no copy back. The parameter's static strides [12, 1] are kept
// (the temporary holds 4 x 12 + 4 elements).
// CHECK-LABEL: func.func @read_only(%m: memref<4x12x2xf32>, %i: index) -> f32 {
// CHECK:       %[[FLAT:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NEXT:  %[[TMP:.*]] = memref.reinterpret_cast %[[FLAT]] to offset: [0], sizes: [4, 4], strides: [12, 1]
// CHECK:       %r = func.call @sum(%[[TMP]])
// CHECK-NEXT:  memref.dealloc %[[FLAT]] : memref<?xf32>
// CHECK-NEXT:  func.return %r : f32
func.func @read_only(%m: memref<8x12xf32, #layout.tag<"HW->hW2h">>, %i: index) -> f32 {
  %t = memref.subview %m[%i, 4] [4, 4] [1, 1] : memref<8x12xf32, #layout.tag<"HW->hW2h">> to memref<4x4xf32, strided<[12, 1], offset: ?>>
  %r = func.call @sum(%t) : (memref<4x4xf32, strided<[12, 1], offset: ?>>) -> f32
  func.return %r : f32
}

func.func private @first(%x: memref<4xf32, strided<[1], offset: 20>>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32, strided<[1], offset: 20>>
  func.return %v : f32
}

// A static window passed where the parameter has a static strided type, which heterolayout
// lays out as a buffer (offset 20 + 4 elements): the temporary is such a buffer.
// CHECK-LABEL: func.func private @first(%x: memref<24xf32>) -> f32 {
// CHECK-LABEL: func.func @static_window(%m: memref<4x12x2xf32>) -> f32 {
// CHECK:       %[[TMP:.*]] = memref.alloc() : memref<24xf32>
// CHECK:       memref.load %m
// CHECK:       memref.store %{{.*}}, %[[TMP]]
// CHECK:       %f = func.call @first(%[[TMP]]) : (memref<24xf32>) -> f32
// CHECK-NEXT:  memref.dealloc %[[TMP]] : memref<24xf32>
func.func @static_window(%m: memref<8x12xf32, #layout.tag<"HW->hW2h">>) -> f32 {
  %u = memref.subview %m[1, 8] [1, 4] [1, 1] : memref<8x12xf32, #layout.tag<"HW->hW2h">> to memref<4xf32, strided<[1], offset: 20>>
  %f = func.call @first(%u) : (memref<4xf32, strided<[1], offset: 20>>) -> f32
  func.return %f : f32
}

func.func private @ext(%x: memref<?xf32, strided<[?], offset: ?>>)

// An external callee (through a memref.cast of the view, with a run-time size and a stride
// of 2): it may write, so the view is copied back; `?` strides are row-major.
// CHECK-LABEL: func.func @external(%a: memref<4x16xf32>, %n: index, %k: index) {
// CHECK:       %[[FLAT:.*]] = memref.alloc(%k) : memref<?xf32>
// CHECK-NEXT:  %[[TMP:.*]] = memref.reinterpret_cast %[[FLAT]] to offset: [0], sizes: [%k], strides: [1]
// CHECK:       func.call @ext(%[[TMP]])
// CHECK:       memref.store %{{.*}}, %a
// CHECK:       memref.dealloc %[[FLAT]]
func.func @external(%a: memref<64xf32, #layout.tag<"C->C16c">>, %n: index, %k: index) {
  %s = memref.subview %a[%n] [%k] [2] : memref<64xf32, #layout.tag<"C->C16c">> to memref<?xf32, strided<[2], offset: ?>>
  %c = memref.cast %s : memref<?xf32, strided<[2], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
  func.call @ext(%c) : (memref<?xf32, strided<[?], offset: ?>>) -> ()
  func.return
}

// memref.dealloc of a view frees its root, as upstream's lowering does (a view's descriptor
// carries its source's allocated pointer).
// CHECK-LABEL: func.func @freed(%n: index, %x: f32) -> f32 {
// CHECK:       %a = memref.alloc() : memref<4x16xf32>
// CHECK:       memref.store %x, %a
// CHECK:       %v = memref.load %a
// CHECK-NEXT:  memref.dealloc %a : memref<4x16xf32>
// CHECK-NEXT:  func.return %v : f32
func.func @freed(%n: index, %x: f32) -> f32 {
  %a = memref.alloc() : memref<64xf32, #layout.tag<"C->C16c">>
  %s = memref.subview %a[%n] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: ?>>
  %c1 = arith.constant 1 : index
  memref.store %x, %s[%c1] : memref<16xf32, strided<[1], offset: ?>>
  %v = memref.load %a[%n] : memref<64xf32, #layout.tag<"C->C16c">>
  memref.dealloc %s : memref<16xf32, strided<[1], offset: ?>>
  func.return %v : f32
}
