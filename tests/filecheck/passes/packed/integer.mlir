// layout-lower on integer containers: a load is the container load, a right shift by the
// lane's bit offset and a truncation to the element (HeteroCL's get_bit); a store is a
// read-modify-write that clears the lane under a mask and ors the zero-extended value in,
// leaving the other lanes (and the unused bits) as they were (set_bit). LSB-first: lane l of
// b-bit elements sits at bit l·b.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// Three i4 per i16 (12 bits used): word w floordiv 3, shift 4·(w mod 3).
// CHECK-LABEL: func.func @load_i4_in_i16(%m: memref<2x3xi16>, %r: index, %w: index) -> i4 {
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[WORD_INDEX:.*]] = arith.divui %w, %[[C3]] : index
// CHECK-NEXT:    %[[WORD:.*]] = memref.load %m[%r, %[[WORD_INDEX]]] : memref<2x3xi16>
// CHECK-NEXT:    %[[LANE:.*]] = arith.remui %w, %[[C3]] : index
// CHECK-NEXT:    %[[BIT:.*]] = arith.muli %[[LANE]], %[[C4]] : index
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.index_cast %[[BIT]] : index to i16
// CHECK-NEXT:    %[[SHIFTED:.*]] = arith.shrui %[[WORD]], %[[SHIFT]] : i16
// CHECK-NEXT:    %[[X:.*]] = arith.trunci %[[SHIFTED]] : i16 to i4
// CHECK-NEXT:    func.return %[[X]] : i4
func.func @load_i4_in_i16(%m: memref<2x7xi4, #layout.tag<"RW->RW3w", pack = i16>>, %r: index, %w: index) -> i4 {
  %x = memref.load %m[%r, %w] : memref<2x7xi4, #layout.tag<"RW->RW3w", pack = i16>>
  func.return %x : i4
}

// word & ~(0xF << shift) | (zext(v) << shift), stored back into the same word.
// CHECK-LABEL: func.func @store_i4_in_i16(%m: memref<2x3xi16>, %r: index, %w: index, %v: i4) {
// CHECK-DAG:     %[[FIELD:.*]] = arith.constant 15 : i16
// CHECK-DAG:     %[[ONES:.*]] = arith.constant -1 : i16
// CHECK:         %[[WORD:.*]] = memref.load %m[%r, %[[WORD_INDEX:.*]]] : memref<2x3xi16>
// CHECK:         %[[SHIFT:.*]] = arith.index_cast %{{.*}} : index to i16
// CHECK-NEXT:    %[[V:.*]] = arith.extui %v : i4 to i16
// CHECK-NEXT:    %[[MASK:.*]] = arith.shli %[[FIELD]], %[[SHIFT]] : i16
// CHECK-NEXT:    %[[KEEP:.*]] = arith.xori %[[MASK]], %[[ONES]] : i16
// CHECK-NEXT:    %[[CLEARED:.*]] = arith.andi %[[WORD]], %[[KEEP]] : i16
// CHECK-NEXT:    %[[PLACED:.*]] = arith.shli %[[V]], %[[SHIFT]] : i16
// CHECK-NEXT:    %[[NEW:.*]] = arith.ori %[[CLEARED]], %[[PLACED]] : i16
// CHECK-NEXT:    memref.store %[[NEW]], %m[%r, %[[WORD_INDEX]]] : memref<2x3xi16>
// CHECK-NEXT:    func.return
func.func @store_i4_in_i16(%m: memref<2x7xi4, #layout.tag<"RW->RW3w", pack = i16>>, %r: index, %w: index, %v: i4) {
  memref.store %v, %m[%r, %w] : memref<2x7xi4, #layout.tag<"RW->RW3w", pack = i16>>
  func.return
}

// The seed's NHW(C6) of a 4x6x8x8 bit tensor, memref<4x8x8x1xi6>: C = 6 is one word, so the
// lane is the channel itself (c mod 6 folds to c for c in [0, 6)) and the word index is 0.
// A loop reads channel %i at (1, ·, 2, 3) and writes it at (2, ·, 3, 4): get_bit, set_bit.
// CHECK-LABEL: func.func @affine_nhwc6(%m: memref<4x8x8x1xi6>) -> i1 {
// CHECK-DAG:     %[[Z0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i6
// CHECK-DAG:     %[[ONES:.*]] = arith.constant -1 : i6
// CHECK-DAG:     %[[SHIFT5:.*]] = arith.constant 5 : i6
// CHECK:         affine.for %[[I:.*]] = 0 to 6
// CHECK:           %[[WORD:.*]] = memref.load %m[%{{.*}}, %{{.*}}, %{{.*}}, %[[Z:.*]]] : memref<4x8x8x1xi6>
// CHECK-NEXT:      %[[SHIFT:.*]] = arith.index_cast %[[I]] : index to i6
// CHECK-NEXT:      %[[S:.*]] = arith.shrui %[[WORD]], %[[SHIFT]] : i6
// CHECK-NEXT:      %[[X:.*]] = arith.trunci %[[S]] : i6 to i1
// CHECK:           %[[OLD:.*]] = memref.load %m[%[[P1:.*]], %[[P2:.*]], %[[P3:.*]], %[[Z]]] : memref<4x8x8x1xi6>
// CHECK-NEXT:      %[[V:.*]] = arith.extui %[[X]] : i1 to i6
// CHECK-NEXT:      %[[BIT:.*]] = arith.shli %[[ONE]], %[[SHIFT]] : i6
// CHECK-NEXT:      %[[KEEP:.*]] = arith.xori %[[BIT]], %[[ONES]] : i6
// CHECK-NEXT:      %[[CLEARED:.*]] = arith.andi %[[OLD]], %[[KEEP]] : i6
// CHECK-NEXT:      %[[PLACED:.*]] = arith.shli %[[V]], %[[SHIFT]] : i6
// CHECK-NEXT:      %[[NEW:.*]] = arith.ori %[[CLEARED]], %[[PLACED]] : i6
// CHECK-NEXT:      memref.store %[[NEW]], %m[%[[P1]], %[[P2]], %[[P3]], %[[Z]]] : memref<4x8x8x1xi6>
// Channel 5 of (0, ·, 0, 0): a constant shift of 5.
// CHECK:         %[[W0:.*]] = memref.load %m[%[[Z0]], %[[Z0]], %[[Z0]], %[[Z0]]] : memref<4x8x8x1xi6>
// CHECK-NEXT:    %[[S5:.*]] = arith.shrui %[[W0]], %[[SHIFT5]] : i6
// CHECK-NEXT:    %[[Y:.*]] = arith.trunci %[[S5]] : i6 to i1
// CHECK-NEXT:    func.return %[[Y]] : i1
func.func @affine_nhwc6(%m: memref<4x6x8x8xi1, #layout.tag<"NCHW->NHWC6c", pack = i6>>) -> i1 {
  affine.for %i = 0 to 6 {
    %x = affine.load %m[1, %i, 2, 3] : memref<4x6x8x8xi1, #layout.tag<"NCHW->NHWC6c", pack = i6>>
    affine.store %x, %m[2, %i, 3, 4] : memref<4x6x8x8xi1, #layout.tag<"NCHW->NHWC6c", pack = i6>>
  }
  %y = affine.load %m[0, 5, 0, 0] : memref<4x6x8x8xi1, #layout.tag<"NCHW->NHWC6c", pack = i6>>
  func.return %y : i1
}

// Sophgo 4N: four int8 of consecutive n share an i32 word; byte n mod 4, shift 8·(n mod 4),
// mask 0xFF. Element (n, 1, 1, 1): lane 1, offset 64·(n floordiv 4) + 1·5 + 1.
// CHECK-LABEL: func.func @tpu_4n_store(%t: memref<4x128xi32>, %n: index, %v: i8) {
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[FIELD:.*]] = arith.constant 255 : i32
// CHECK-DAG:     %[[ONES:.*]] = arith.constant -1 : i32
// CHECK:         %[[WORD:.*]] = memref.load %t[%[[LANE:.*]], %[[OFFSET:.*]]] : memref<4x128xi32>
// CHECK-NEXT:    %[[BYTE:.*]] = arith.remui %n, %{{.*}} : index
// CHECK-NEXT:    %[[BIT:.*]] = arith.muli %[[BYTE]], %[[C8]] : index
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.index_cast %[[BIT]] : index to i32
// CHECK-NEXT:    %[[V:.*]] = arith.extui %v : i8 to i32
// CHECK-NEXT:    %[[MASK:.*]] = arith.shli %[[FIELD]], %[[SHIFT]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = arith.xori %[[MASK]], %[[ONES]] : i32
// CHECK-NEXT:    %[[CLEARED:.*]] = arith.andi %[[WORD]], %[[KEEP]] : i32
// CHECK-NEXT:    %[[PLACED:.*]] = arith.shli %[[V]], %[[SHIFT]] : i32
// CHECK-NEXT:    %[[NEW:.*]] = arith.ori %[[CLEARED]], %[[PLACED]] : i32
// CHECK-NEXT:    memref.store %[[NEW]], %t[%[[LANE]], %[[OFFSET]]] : memref<4x128xi32>
func.func @tpu_4n_store(%t: memref<6x5x4x5xi8, #layout.tpu<lanes = 4, mode = "4N", pack = i32>>, %n: index, %v: i8) {
  %c1 = arith.constant 1 : index
  memref.store %v, %t[%n, %c1, %c1, %c1] : memref<6x5x4x5xi8, #layout.tpu<lanes = 4, mode = "4N", pack = i32>>
  func.return
}
