// Views of layout-typed memrefs that layout-lower cannot index are one-line errors naming
// the view op (or the op that misuses the view) and why; nothing is skipped silently.
// RUN: layout-opt %s --split-input-file -p layout-lower --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s --split-input-file -p layout-lower 2>&1 | filecheck %s --check-prefix=FIRST

// A static window that leaves the viewed box: the composition is no layout.
// FIRST: invalid-views.mlir:11:3: error: layout-lower: memref.subview of a layout-typed memref: view index (8) reaches index 64 of dim 0, outside the viewed shape 64
// FIRST-NOT: builtin.module
// CHECK: layout-lower: memref.subview of a layout-typed memref: view index (8) reaches index 64 of dim 0, outside the viewed shape 64
func.func @outside(%a: memref<64xf32, #layout.tag<"C->C16c">>) -> f32 {
  %s = memref.subview %a[56] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: 56>>
  %c0 = arith.constant 0 : index
  %v = memref.load %s[%c0] : memref<16xf32, strided<[1], offset: 56>>
  func.return %v : f32
}

// -----
// A view lowers into the indexing of its root: it cannot leave the function.
// CHECK: layout-lower: func.return returns a view (memref<16xf32, strided<[1], offset: 16>>) of a layout-typed memref; a view lowers into indexing of its root inside this function, and the caller has no window to index (return the root buffer, or a buffer the view is copied into)
func.func @escapes(%a: memref<64xf32, #layout.tag<"C->C16c">>) -> memref<16xf32, strided<[1], offset: 16>> {
  %s = memref.subview %a[16] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: 16>>
  func.return %s : memref<16xf32, strided<[1], offset: 16>>
}

// -----
// Views of two roots yielded by one scf.if: no one root to open the view of afterwards.
// CHECK: layout-lower: scf.yield carries a view (memref<16xf32, strided<[1], offset: ?>>) of a layout-typed memref through a loop or a branch; a view lowers into indexing of one window of its root, and which window a carried or yielded view is, is chosen at run time (carry the root buffer and the window's offsets, and open the view where it is used)
func.func @yielded(%a: memref<64xf32, #layout.tag<"C->C16c">>, %b: memref<64xf32, #layout.tag<"C->C16c">>, %c: i1, %n: index) -> f32 {
  %s = scf.if %c -> (memref<16xf32, strided<[1], offset: ?>>) {
    %x = memref.subview %a[%n] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: ?>>
    scf.yield %x : memref<16xf32, strided<[1], offset: ?>>
  } else {
    %x = memref.subview %b[16] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: 16>>
    %y = memref.cast %x : memref<16xf32, strided<[1], offset: 16>> to memref<16xf32, strided<[1], offset: ?>>
    scf.yield %y : memref<16xf32, strided<[1], offset: ?>>
  }
  %c0 = arith.constant 0 : index
  %v = memref.load %s[%c0] : memref<16xf32, strided<[1], offset: ?>>
  func.return %v : f32
}

// -----
// A loop that carries a view and yields a view of it (a window sliding by views of views).
// CHECK: layout-lower: scf.for carries a view (memref<16xf32, strided<[1], offset: ?>>) of a layout-typed memref through a loop or a branch
func.func @carried(%a: memref<64xf32, #layout.tag<"C->C16c">>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = memref.subview %a[0] [32] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<32xf32, strided<[1]>>
  %t = memref.subview %s[0] [16] [1] : memref<32xf32, strided<[1]>> to memref<16xf32, strided<[1]>>
  %u = memref.cast %t : memref<16xf32, strided<[1]>> to memref<16xf32, strided<[1], offset: ?>>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%w = %u) -> (memref<16xf32, strided<[1], offset: ?>>) {
    %n = memref.subview %w[1] [15] [1] : memref<16xf32, strided<[1], offset: ?>> to memref<15xf32, strided<[1], offset: ?>>
    %m = memref.subview %a[%i] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: ?>>
    scf.yield %m : memref<16xf32, strided<[1], offset: ?>>
  }
  %v = memref.load %r[%c0] : memref<16xf32, strided<[1], offset: ?>>
  func.return %v : f32
}

// -----
// A view is copied at a call: a callee that may return it would hand the caller the copy.
// CHECK: layout-lower: func.call @keep passes a view (memref<16xf32, strided<[1], offset: ?>>) to a function that may return it; the view is copied at the call, and the caller would receive the copy (pass the root buffer, or return nothing)
func.func private @keep(%x: memref<16xf32, strided<[1], offset: ?>>) -> memref<16xf32, strided<[1], offset: ?>> {
  func.return %x : memref<16xf32, strided<[1], offset: ?>>
}
func.func @returned_by_callee(%a: memref<64xf32, #layout.tag<"C->C16c">>, %n: index) -> f32 {
  %s = memref.subview %a[%n] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: ?>>
  %r = func.call @keep(%s) : (memref<16xf32, strided<[1], offset: ?>>) -> memref<16xf32, strided<[1], offset: ?>>
  %c0 = arith.constant 0 : index
  %v = memref.load %r[%c0] : memref<16xf32, strided<[1], offset: ?>>
  func.return %v : f32
}

// -----
// CHECK: layout-lower: func.call @both passes a view (memref<4xf32, strided<[1], offset: ?>>) and, as argument 1, more of the same buffer; the view is copied at the call, so the callee would see two copies of one buffer
func.func private @both(%x: memref<4xf32, strided<[1], offset: ?>>, %y: memref<8xf32, strided<[1], offset: ?>>) {
  func.return
}
func.func @aliasing(%a: memref<64xf32, #layout.tag<"C->C16c">>, %n: index) {
  %s = memref.subview %a[%n] [4] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<4xf32, strided<[1], offset: ?>>
  %t = memref.subview %a[%n] [8] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<8xf32, strided<[1], offset: ?>>
  func.call @both(%s, %t) : (memref<4xf32, strided<[1], offset: ?>>, memref<8xf32, strided<[1], offset: ?>>) -> ()
  func.return
}

// -----
// A run-time window folds into accesses, prefetches, copies and memref.dim only
// (views-copy.mlir, prefetch.mlir).
// CHECK: layout-lower: memref.atomic_rmw takes a view (memref<16xf32, strided<[1], offset: ?>>) of a layout-typed memref with run-time offsets, strides or sizes (or of a root with '?' dims); only loads, stores, vector accesses, transfers, prefetches, copies, conversions and memref.dim/rank go through such a view
func.func @atomic_runtime(%a: memref<64xf32, #layout.tag<"C->C16c">>, %n: index, %v: f32) -> f32 {
  %s = memref.subview %a[%n] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: ?>>
  %c0 = arith.constant 0 : index
  %old = memref.atomic_rmw addf %v, %s[%c0] : (f32, memref<16xf32, strided<[1], offset: ?>>) -> f32
  func.return %old : f32
}

// -----
// reinterpret_cast counts from the root's first logical element: its inner dims must be static.
// CHECK: layout-lower: memref.reinterpret_cast of a layout-typed memref: reinterpret: the source shape 8x? has a dynamic inner extent
func.func @reinterpret_dynamic(%a: memref<8x?xf32, #layout.tag<"NC->NC4n">>) -> f32 {
  %r = memref.reinterpret_cast %a to offset: [0], sizes: [8], strides: [1] : memref<8x?xf32, #layout.tag<"NC->NC4n">> to memref<8xf32, strided<[1]>>
  %c0 = arith.constant 0 : index
  %v = memref.load %r[%c0] : memref<8xf32, strided<[1]>>
  func.return %v : f32
}

// -----
// vector.type_cast (a view, as upstream says) makes the buffer's row-major memory one vector:
// not a layout's memory.
// CHECK: layout-lower: vector.type_cast of a layout-typed memref: it makes the buffer's contiguous row-major memory one vector, and a layout-typed buffer's memory is in its physical order (load with vector.load or vector.transfer_read, or convert into a plain buffer first)
func.func @type_cast(%a: memref<4x8xf32, #layout.tag<"HW->WH">>) -> vector<4x8xf32> {
  %v = vector.type_cast %a : memref<4x8xf32, #layout.tag<"HW->WH">> to memref<vector<4x8xf32>>
  %x = memref.load %v[] : memref<vector<4x8xf32>>
  func.return %x : vector<4x8xf32>
}

// -----
// memref.view reads the bytes of an i8 buffer as other elements (upstream requires a source
// with the identity layout; here the layout comes from an assign, so layout-apply, the step
// of layout-lower that retypes the buffer, refuses it).
// CHECK: layout-apply: memref.view of a layout-typed memref: it reinterprets its source's bytes as elements of another type, and a layout-typed buffer's bytes lie in its physical order: the elements it names are no window of the logical index space (assign the layout to a buffer of the viewed type instead)
func.func @bytes() -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<64xi8>
  layout.assign %a to #layout.tag<"C->C16c"> : memref<64xi8>
  %v = memref.view %a[%c0][] : memref<64xi8> to memref<16xf32>
  %x = memref.load %v[%c0] : memref<16xf32>
  func.return %x : f32
}
