// Views carried by scf.for and yielded by scf.if: when every arriving value is a subview of
// one layout-typed root (defined outside), the windows' differing offsets, sizes and strides
// are carried as index values instead, and a subview of the root with them stands for the
// view where it arrives; it then folds into its accesses like any run-time view.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | mlir-opt-22 | filecheck %s --check-prefix=UPSTREAM
// RUN: layout-opt %s -p 'layout-lower{validate=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=VALID

// VALID: layout-lower: translation validation: 3 of 3 accesses proven

// UPSTREAM: func.func @sliding
// The loop carries the window's offset (0 at first, then %k or 40), not the view.
// CHECK-LABEL: func.func @sliding(%a: memref<4x16xf32>, %o: memref<4xf32>) {
// CHECK:       %[[END:.*]] = scf.for %i = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OFF:.*]] = %{{.*}}) -> (index) {
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %[[OFF]], %c3 : index
// CHECK-NEXT:    arith.divui %[[AT]]
// CHECK-NEXT:    arith.remui %[[AT]]
// CHECK:         %[[NEXT:.*]] = scf.if %{{.*}} -> (index) {
// CHECK-NEXT:      scf.yield %k : index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[FORTY:.*]] = arith.constant 40 : index
// CHECK-NEXT:      scf.yield %[[FORTY]] : index
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.yield %[[NEXT]] : index
// CHECK-NEXT:  }
// CHECK-NEXT:  arith.addi %[[END]], %c1 : index
// CHECK-NOT:   memref.subview
func.func @sliding(%a: memref<64xf32, #layout.tag<"C->C16c">>, %o: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %o, %c0 : memref<4xf32>
  %v0 = memref.subview %a[0] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1]>>
  %w0 = memref.cast %v0 : memref<16xf32, strided<[1]>> to memref<16xf32, strided<[1], offset: ?>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%w = %w0) -> (memref<16xf32, strided<[1], offset: ?>>) {
    %x = memref.load %w[%c3] : memref<16xf32, strided<[1], offset: ?>>
    memref.store %x, %o[%i] : memref<4xf32>
    %k = arith.muli %i, %c8 : index
    %odd = arith.remui %i, %c4 : index
    %c = arith.cmpi eq, %odd, %c1 : index
    %next = scf.if %c -> (memref<16xf32, strided<[1], offset: ?>>) {
      %s = memref.subview %a[%k] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: ?>>
      scf.yield %s : memref<16xf32, strided<[1], offset: ?>>
    } else {
      %s = memref.subview %a[40] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: 40>>
      %t = memref.cast %s : memref<16xf32, strided<[1], offset: 40>> to memref<16xf32, strided<[1], offset: ?>>
      scf.yield %t : memref<16xf32, strided<[1], offset: ?>>
    }
    scf.yield %next : memref<16xf32, strided<[1], offset: ?>>
  }
  %y = memref.load %r[%c1] : memref<16xf32, strided<[1], offset: ?>>
  memref.store %y, %o[%c0] : memref<4xf32>
  func.return
}

// A window carried unchanged (the loop yields its own argument): nothing differs, so
// nothing is carried and the accesses index the root directly (the empty loop is left to
// upstream's canonicalizer).
// CHECK-LABEL: func.func @unchanged(%a: memref<4x16xf32>) -> f32 {
// CHECK-NOT:   iter_args
// CHECK:       memref.load %a[%c1, %c2] : memref<4x16xf32>
func.func @unchanged(%a: memref<64xf32, #layout.tag<"C->C16c">>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %s = memref.subview %a[16] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: 16>>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%w = %s) -> (memref<16xf32, strided<[1], offset: 16>>) {
    scf.yield %w : memref<16xf32, strided<[1], offset: 16>>
  }
  %v = memref.load %r[%c2] : memref<16xf32, strided<[1], offset: 16>>
  func.return %v : f32
}
