// layout-lower{validate=verbose}: a vector access that covers the first lanes of one packed
// container becomes one container load or store and lane moves (vector.broadcast, bitcast,
// shuffle, extract). Each lane is traced through those ops to its slot of the container
// and proven against the layout's map (container index, bit offset or position); a short
// store's other lanes get the pad value and are shown to hold no element.
// RUN: layout-opt %s -p 'layout-lower{validate=verbose}' -o %t 2>&1 | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{validate=verbose index=affine flatten=true}' -o %t 2>&1 | filecheck %s

// Bits 8 to an i8, MSB-first: lane k is bit 7 - k (a reversing shuffle after the bitcast).
// The 4-lane store at k = 16 ends the dim: lanes 4 to 7 of its container are pad.
// CHECK: validate-containers.mlir:[[# @LINE + 6]]:5: remark: affine.vector_load, 8 lanes of one container, proven exhaustively over 24 element accesses
// CHECK: validate-containers.mlir:[[# @LINE + 6]]:5: remark: affine.vector_store, 8 lanes of one container, proven exhaustively over 24 element accesses
// CHECK: validate-containers.mlir:[[# @LINE + 6]]:5: remark: affine.vector_load, 4 lanes of one container, proven exhaustively over 12 element accesses
// CHECK: validate-containers.mlir:[[# @LINE + 6]]:5: remark: affine.vector_store, 4 lanes of one container, proven exhaustively over 12 element accesses
func.func @bits(%a: memref<3x20xi1, #layout.tag<"MK->MK8k", pack = i8, bit_order = "msb">>, %b: memref<3x20xi1, #layout.tag<"MK->MK8k", pack = i8, bit_order = "msb">>) {
  affine.for %m = 0 to 3 {
    %v = affine.vector_load %a[%m, 8] : memref<3x20xi1, #layout.tag<"MK->MK8k", pack = i8, bit_order = "msb">>, vector<8xi1>
    affine.vector_store %v, %b[%m, 8] : memref<3x20xi1, #layout.tag<"MK->MK8k", pack = i8, bit_order = "msb">>, vector<8xi1>
    %w = affine.vector_load %a[%m, 16] : memref<3x20xi1, #layout.tag<"MK->MK8k", pack = i8, bit_order = "msb">>, vector<4xi1>
    affine.vector_store %w, %b[%m, 16] : memref<3x20xi1, #layout.tag<"MK->MK8k", pack = i8, bit_order = "msb">>, vector<4xi1>
  }
  func.return
}

// Vector containers: lane k is position k; the 2-lane store pads positions 2 and 3.
// CHECK: validate-containers.mlir:[[# @LINE + 7]]:5: remark: vector.load, 4 lanes of one container, proven exhaustively over 8 element accesses
// CHECK: validate-containers.mlir:[[# @LINE + 7]]:5: remark: vector.load, 2 lanes of one container, proven exhaustively over 4 element accesses
// CHECK: validate-containers.mlir:[[# @LINE + 7]]:5: remark: vector.store, 2 lanes of one container, proven exhaustively over 4 element accesses
func.func @lanes(%a: memref<2x6xf32, #layout.tag<"MK->MK4k", pack = vector<4xf32>>>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  affine.for %m = 0 to 2 {
    %v = vector.load %a[%m, %c0] : memref<2x6xf32, #layout.tag<"MK->MK4k", pack = vector<4xf32>>>, vector<4xf32>
    %w = vector.load %a[%m, %c4] : memref<2x6xf32, #layout.tag<"MK->MK4k", pack = vector<4xf32>>>, vector<2xf32>
    vector.store %w, %a[%m, %c4] : memref<2x6xf32, #layout.tag<"MK->MK4k", pack = vector<4xf32>>>, vector<2xf32>
  }
  func.return
}

// A float pad: the stored container's pad lanes get 0.25 (not 0.0, the pad's integer part).
// CHECK: validate-containers.mlir:[[# @LINE + 3]]:3: remark: affine.vector_store, 2 lanes of one container, proven exhaustively over 2 element accesses
func.func @float_pad(%b: memref<2xf32, #layout.tag<"i->i5i", pad = 0.25, pack = vector<5xf32>>>) {
  %v = arith.constant dense<7.0> : vector<2xf32>
  affine.vector_store %v, %b[0] : memref<2xf32, #layout.tag<"i->i5i", pad = 0.25, pack = vector<5xf32>>>, vector<2xf32>
  func.return
}

// CHECK: layout-lower: translation validation: 8 of 8 accesses proven (8 exhaustively, 90 element accesses checked; 0 symbolically)
