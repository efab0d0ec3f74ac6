// bit_order = "msb": lane l of b-bit elements in a K-bit container sits at bits
// [K-(l+1)·b, K-l·b), so the shift is K - b - l·b, emitted as l·(-b) + (K - b). For bits in
// bytes this is numpy's default packbits order: lane 0 is bit 7.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// Bits in bytes: shift 7 - (w mod 8).
// CHECK-LABEL: func.func @load_bit_msb(%m: memref<3x5xi8>, %r: index, %w: index) -> i1 {
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[MINUS1:.*]] = arith.constant -1 : index
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT:    %[[B:.*]] = arith.divui %w, %[[C8]] : index
// CHECK-NEXT:    %[[WORD:.*]] = memref.load %m[%r, %[[B]]] : memref<3x5xi8>
// CHECK-NEXT:    %[[LANE:.*]] = arith.remui %w, %[[C8]] : index
// CHECK-NEXT:    %[[NEG:.*]] = arith.muli %[[LANE]], %[[MINUS1]] : index
// CHECK-NEXT:    %[[BIT:.*]] = arith.addi %[[NEG]], %[[C7]] : index
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.index_cast %[[BIT]] : index to i8
// CHECK-NEXT:    %[[S:.*]] = arith.shrui %[[WORD]], %[[SHIFT]] : i8
// CHECK-NEXT:    %[[X:.*]] = arith.trunci %[[S]] : i8 to i1
// CHECK-NEXT:    func.return %[[X]] : i1
func.func @load_bit_msb(%m: memref<3x40xi1, #layout.tag<"RW->RW8w", pack = i8, bit_order = "msb">>, %r: index, %w: index) -> i1 {
  %x = memref.load %m[%r, %w] : memref<3x40xi1, #layout.tag<"RW->RW8w", pack = i8, bit_order = "msb">>
  func.return %x : i1
}

// Six i2 in an i16 (bits 0-3 unused): shift 14 - 2·(w mod 6); the store's mask is 3 << shift.
// CHECK-LABEL: func.func @store_i2_msb(%m: memref<2xi16>, %w: index, %v: i2) {
// CHECK-DAG:     %[[MINUS2:.*]] = arith.constant -2 : index
// CHECK-DAG:     %[[C14:.*]] = arith.constant 14 : index
// CHECK-DAG:     %[[FIELD:.*]] = arith.constant 3 : i16
// CHECK-DAG:     %[[ONES:.*]] = arith.constant -1 : i16
// CHECK:         %[[WORD:.*]] = memref.load %m[%[[B:.*]]] : memref<2xi16>
// CHECK-NEXT:    %[[LANE:.*]] = arith.remui %w, %{{.*}} : index
// CHECK-NEXT:    %[[NEG:.*]] = arith.muli %[[LANE]], %[[MINUS2]] : index
// CHECK-NEXT:    %[[BIT:.*]] = arith.addi %[[NEG]], %[[C14]] : index
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.index_cast %[[BIT]] : index to i16
// CHECK-NEXT:    %[[V:.*]] = arith.extui %v : i2 to i16
// CHECK-NEXT:    %[[MASK:.*]] = arith.shli %[[FIELD]], %[[SHIFT]] : i16
// CHECK-NEXT:    %[[KEEP:.*]] = arith.xori %[[MASK]], %[[ONES]] : i16
// CHECK-NEXT:    %[[CLEARED:.*]] = arith.andi %[[WORD]], %[[KEEP]] : i16
// CHECK-NEXT:    %[[PLACED:.*]] = arith.shli %[[V]], %[[SHIFT]] : i16
// CHECK-NEXT:    %[[NEW:.*]] = arith.ori %[[CLEARED]], %[[PLACED]] : i16
// CHECK-NEXT:    memref.store %[[NEW]], %m[%[[B]]] : memref<2xi16>
func.func @store_i2_msb(%m: memref<12xi2, #layout.tag<"W->W6w", pack = i16, bit_order = "msb">>, %w: index, %v: i2) {
  memref.store %v, %m[%w] : memref<12xi2, #layout.tag<"W->W6w", pack = i16, bit_order = "msb">>
  func.return
}

// A constant index folds the whole address: element 10 of eight i4 per i32 is word 1,
// lane 2, shift 32 - 3·4 = 20 (an i32 constant, no index_cast).
// CHECK-LABEL: func.func @constant_lane_msb(%m: memref<2xi32>) -> i4 {
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.constant 20 : i32
// CHECK-NEXT:    %[[WORD:.*]] = memref.load %m[%[[C1]]] : memref<2xi32>
// CHECK-NEXT:    %[[S:.*]] = arith.shrui %[[WORD]], %[[SHIFT]] : i32
// CHECK-NEXT:    %[[X:.*]] = arith.trunci %[[S]] : i32 to i4
// CHECK-NEXT:    func.return %[[X]] : i4
func.func @constant_lane_msb(%m: memref<16xi4, #layout.tag<"W->W8w", pack = i32, bit_order = "msb">>) -> i4 {
  %c10 = arith.constant 10 : index
  %x = memref.load %m[%c10] : memref<16xi4, #layout.tag<"W->W8w", pack = i32, bit_order = "msb">>
  func.return %x : i4
}

// The same element LSB-first: shift 2·4 = 8.
// CHECK-LABEL: func.func @constant_lane_lsb(%m: memref<2xi32>) -> i4 {
// CHECK-DAG:     %[[SHIFT:.*]] = arith.constant 8 : i32
// CHECK:         arith.shrui %{{.*}}, %[[SHIFT]] : i32
func.func @constant_lane_lsb(%m: memref<16xi4, #layout.tag<"W->W8w", pack = i32>>) -> i4 {
  %c10 = arith.constant 10 : index
  %x = memref.load %m[%c10] : memref<16xi4, #layout.tag<"W->W8w", pack = i32>>
  func.return %x : i4
}
