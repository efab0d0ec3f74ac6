// layout-lower{validate=verbose}: a conversion into a destination of 4096 slots or more is
// lowered to tiles (vector loads of the source, shuffle transposes, pad pieces, containers
// built whole, vector stores). Every element of every store is traced back through the
// lane moves to the source element it comes from: each logical element is moved from its
// source slot to its destination slot exactly once, the pad lands on pad slots only.
// RUN: layout-opt %s -p 'layout-lower{validate=verbose}' -o %t 2>&1 | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{validate=verbose index=affine flatten=true}' -o %t 2>&1 | filecheck %s

// 8 x 8 tiles transposed in registers.
// CHECK: validate-tiles.mlir:[[# @LINE + 3]]:3: remark: layout.convert proven exhaustively over 4096 element accesses
func.func @transpose(%a: memref<64x64xf32>) {
  %b = memref.alloc() : memref<64x64xf32, #layout.tag<"NC->CN">>
  layout.convert %a to %b : memref<64x64xf32> to memref<64x64xf32, #layout.tag<"NC->CN">>
  memref.dealloc %b : memref<64x64xf32, #layout.tag<"NC->CN">>
  func.return
}

// The last block of C is half pad: a 4-lane piece and a 4-lane pad piece.
// CHECK: validate-tiles.mlir:[[# @LINE + 3]]:3: remark: layout.convert proven exhaustively over 3840 element accesses
func.func @padded(%a: memref<64x60xf32>) {
  %b = memref.alloc() : memref<64x60xf32, #layout.tag<"NC->NC8c">>
  layout.convert %a to %b : memref<64x60xf32> to memref<64x60xf32, #layout.tag<"NC->NC8c">>
  memref.dealloc %b : memref<64x60xf32, #layout.tag<"NC->NC8c">>
  func.return
}

// Bits packed 6 to an i8, MSB-first: gathered, reversed, bitcast, widened and shifted.
// CHECK: validate-tiles.mlir:[[# @LINE + 3]]:3: remark: layout.convert proven exhaustively over 7680 element accesses
func.func @packed(%a: memref<64x120xi1>) {
  %b = memref.alloc() : memref<64x120xi1, #layout.tag<"NC->NC6c", pack = i8, bit_order = "msb">>
  layout.convert %a to %b : memref<64x120xi1> to memref<64x120xi1, #layout.tag<"NC->NC6c", pack = i8, bit_order = "msb">>
  memref.dealloc %b : memref<64x120xi1, #layout.tag<"NC->NC6c", pack = i8, bit_order = "msb">>
  func.return
}

// Whole groups of containers: one vector<64xi1> load along C, reversed (MSB first), bitcast to
// vector<8xi8> and stored as 8 containers at once; each stored bit traced to its source lane.
// CHECK: validate-tiles.mlir:[[# @LINE + 3]]:3: remark: layout.convert proven exhaustively over 4096 element accesses
func.func @grouped(%a: memref<1x8x8x64xi1>) {
  %b = memref.alloc() : memref<1x8x8x64xi1, #layout.tag<"NHWC->NHWC8c", pack = i8, bit_order = "msb">>
  layout.convert %a to %b : memref<1x8x8x64xi1> to memref<1x8x8x64xi1, #layout.tag<"NHWC->NHWC8c", pack = i8, bit_order = "msb">>
  memref.dealloc %b : memref<1x8x8x64xi1, #layout.tag<"NHWC->NHWC8c", pack = i8, bit_order = "msb">>
  func.return
}

// Transposed 2 x 2 tiles whose load dim W (35) ends inside the last tile while the store dim
// (H mod 2) divides: that tile goes element by element, under guards (`arith.andi` of
// comparisons) the validator evaluates. It once was all pad (fuzz seed 33223), which this
// check reports as "logical index (0, 0, 0, 34) ... is never written".
// CHECK: validate-tiles.mlir:[[# @LINE + 3]]:3: remark: layout.convert proven exhaustively over 1680 element accesses
func.func @load_dim_tail(%a: memref<2x4x6x35xi32>) {
  %b = memref.alloc() : memref<2x4x6x35xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
  layout.convert %a to %b : memref<2x4x6x35xi32> to memref<2x4x6x35xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
  memref.dealloc %b : memref<2x4x6x35xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
  func.return
}

// CHECK: layout-lower: translation validation: 5 of 5 accesses proven (5 exhaustively, 21392 element accesses checked; 0 symbolically)
