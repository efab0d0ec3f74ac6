// layout-lower{validate=true|verbose|conversions}: translation validation proves every rewritten access
// (the physical index the code computes is the layout's map of the logical index, over the
// loops' domain) and every conversion. verbose prints a remark per access at its file:line:col; true prints the
// summary only; conversions (what layout-run --check runs) proves the conversions alone and
// prints nothing when they are proven. An access it cannot prove fails the pass
// (tests/test_translation_validation.py plants wrong index code to show it).
// RUN: layout-opt %s -p 'layout-lower{validate=verbose}' -o %t 2>&1 | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{validate=verbose index=affine flatten=false}' -o %t 2>&1 | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{validate=true}' -o %t 2>&1 | filecheck %s --check-prefix=SUMMARY
// RUN: layout-opt %s -p 'layout-lower{validate=conversions}' -o %t 2>&1 | filecheck %s --check-prefix=CONVERSIONS --allow-empty
// RUN: not layout-opt %s -p 'layout-lower{validate=maybe}' 2>&1 | filecheck %s --check-prefix=BAD

// A blocked tag in a loop nest: 4 x 17 iterations (c steps by 1 across blocks of 8).
// CHECK: validate.mlir:[[# @LINE + 5]]:7: remark: memref.load proven exhaustively over 68 element accesses
func.func @blocked(%m: memref<4x17xf32, #layout.tag<"NC->NC8c">>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %r = affine.for %n = 0 to 4 iter_args(%a = %zero) -> (f32) {
    %s = affine.for %c = 0 to 17 iter_args(%b = %a) -> (f32) {
      %v = memref.load %m[%n, %c] : memref<4x17xf32, #layout.tag<"NC->NC8c">>
      %t = arith.addf %b, %v : f32
      affine.yield %t : f32
    }
    affine.yield %s : f32
  }
  func.return %r : f32
}

// Bits packed 6 to an i8, MSB-first: the lane is the shift (8 - 1 - lane).
// CHECK: validate.mlir:[[# @LINE + 3]]:5: remark: affine.store proven exhaustively over 12 element accesses
func.func @bits(%m: memref<12xi1, #layout.tag<"C->C6c", pack = i8, bit_order = "msb">>, %v: i1) {
  affine.for %c = 0 to 12 {
    affine.store %v, %m[%c] : memref<12xi1, #layout.tag<"C->C6c", pack = i8, bit_order = "msb">>
  }
  func.return
}

// A vector inside one block of 8 stays a vector (proven lane by lane); one across a block
// boundary is split into scalar accesses (each proven).
// CHECK: validate.mlir:[[# @LINE + 7]]:5: remark: vector.load, kept whole, proven exhaustively over 8 element accesses
// CHECK: validate.mlir:[[# @LINE + 7]]:5: remark: vector.store, split into 4 accesses, proven exhaustively over 4 element accesses
func.func @vectors(%m: memref<2x16xf32, #layout.tag<"NC->NC8c">>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  affine.for %c = 0 to 16 step 8 {
    %v = vector.load %m[%c0, %c] : memref<2x16xf32, #layout.tag<"NC->NC8c">>, vector<4xf32>
    vector.store %v, %m[%c1, %c6] : memref<2x16xf32, #layout.tag<"NC->NC8c">>, vector<4xf32>
  }
  func.return
}

// A dynamic extent leaves the loop unbounded: proven in normal form.
// CHECK: validate.mlir:[[# @LINE + 7]]:5: remark: memref.load proven symbolically
func.func @dynamic(%m: memref<?x12xf32, #layout.tag<"NC->NC4c">>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %m, %c0 : memref<?x12xf32, #layout.tag<"NC->NC4c">>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (f32) {
    %v = memref.load %m[%i, %c1] : memref<?x12xf32, #layout.tag<"NC->NC4c">>
    %t = arith.addf %a, %v : f32
    scf.yield %t : f32
  }
  func.return %r : f32
}
// A conversion's loop nest: each logical element moved from its source slot to its
// destination slot exactly once (the pad slots of the blocked C get the pad).
// CHECK: validate.mlir:[[# @LINE + 2]]:3: remark: layout.convert proven exhaustively over 68 element accesses
func.func @convert(%a: memref<4x17xf32>, %b: memref<4x17xf32, #layout.tag<"NC->NC8c">>) {
  layout.convert %a to %b : memref<4x17xf32> to memref<4x17xf32, #layout.tag<"NC->NC8c">>
  func.return
}

// CHECK: layout-lower: translation validation: 6 of 6 accesses proven (5 exhaustively, 160 element accesses checked; 1 symbolically)

// SUMMARY-NOT: remark
// SUMMARY: layout-lower: translation validation: 6 of 6 accesses proven (5 exhaustively, 160 element accesses checked; 1 symbolically)

// CONVERSIONS-NOT: {{.}}

// BAD: layout-lower: validate=maybe: expected false, true, verbose or conversions
// BAD-NOT: Traceback
