// layout-lower on packed layouts: lanes live in one container element. Integer containers
// are read with shift + trunc and written with a read-modify-write under a mask (LSB-first
// puts lane i at bit i·b, MSB-first at K - (i+1)·b); vector containers use vector.extract.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// HeteroCL NHW(C6) with pack = i6 on 1x4x4x12 xi1: physical 1x4x4x2 xi6, lane c mod 6.
// CHECK-LABEL: func.func @load_i6(%m: memref<1x4x4x2xi6>, %h: index, %w: index, %c: index) -> i1 {
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[CB:.*]] = arith.divui %c, %[[C6]] : index
// CHECK-DAG:     %[[WORD:.*]] = memref.load %m[%{{.*}}, %h, %w, %[[CB]]] : memref<1x4x4x2xi6>
// CHECK-DAG:     %[[LANE:.*]] = arith.remui %c, %[[C6]] : index
// CHECK:         %[[SHIFT:.*]] = arith.index_cast %[[LANE]] : index to i6
// CHECK-NEXT:    %[[S:.*]] = arith.shrui %[[WORD]], %[[SHIFT]] : i6
// CHECK-NEXT:    %[[X:.*]] = arith.trunci %[[S]] : i6 to i1
// CHECK-NEXT:    func.return %[[X]] : i1
func.func @load_i6(%m: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i6>>, %h: index, %w: index, %c: index) -> i1 {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0, %h, %w, %c] : memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i6>>
  func.return %x : i1
}

// Store: word & ~(1 << lane) | (v << lane), written back to the same container.
// CHECK-LABEL: func.func @store_i6(%m: memref<1x4x4x2xi6>, %h: index, %w: index, %c: index, %v: i1) {
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i6
// CHECK-DAG:     %[[ALL:.*]] = arith.constant -1 : i6
// CHECK:         %[[WORD:.*]] = memref.load %m[%[[Z:.*]], %h, %w, %[[CB:.*]]] : memref<1x4x4x2xi6>
// CHECK:         %[[SHIFT:.*]] = arith.index_cast %{{.*}} : index to i6
// CHECK-NEXT:    %[[V:.*]] = arith.extui %v : i1 to i6
// CHECK-NEXT:    %[[BIT:.*]] = arith.shli %[[ONE]], %[[SHIFT]] : i6
// CHECK-NEXT:    %[[MASK:.*]] = arith.xori %[[BIT]], %[[ALL]] : i6
// CHECK-NEXT:    %[[KEPT:.*]] = arith.andi %[[WORD]], %[[MASK]] : i6
// CHECK-NEXT:    %[[NEW:.*]] = arith.shli %[[V]], %[[SHIFT]] : i6
// CHECK-NEXT:    %[[OUT:.*]] = arith.ori %[[KEPT]], %[[NEW]] : i6
// CHECK-NEXT:    memref.store %[[OUT]], %m[%[[Z]], %h, %w, %[[CB]]] : memref<1x4x4x2xi6>
func.func @store_i6(%m: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i6>>, %h: index, %w: index, %c: index, %v: i1) {
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0, %h, %w, %c] : memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i6>>
  func.return
}

// The vector implementation: memref of vector<6xi1>, lane extracted by position. The
// container is loaded as the byte that holds it (sub-byte-accesses.mlir).
// CHECK-LABEL: func.func @load_vector6(%m: memref<1x4x4x2xvector<6xi1>>, %h: index, %w: index, %c: index) -> i1 {
// CHECK:         %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<1x4x4x2xvector<6xi1>> to memref<1x4x4x2xi8>
// CHECK:         %[[BYTE:.*]] = memref.load %[[BYTES]][%{{.*}}, %h, %w, %{{.*}}] : memref<1x4x4x2xi8>
// CHECK-NEXT:    %[[BITS:.*]] = arith.trunci %[[BYTE]] : i8 to i6
// CHECK-NEXT:    %[[ONE:.*]] = vector.broadcast %[[BITS]] : i6 to vector<1xi6>
// CHECK-NEXT:    %[[WORD:.*]] = vector.bitcast %[[ONE]] : vector<1xi6> to vector<6xi1>
// CHECK-NEXT:    %[[LANE:.*]] = arith.remui %c, %{{.*}} : index
// CHECK-NEXT:    %[[X:.*]] = vector.extract %[[WORD]][%[[LANE]]] : i1 from vector<6xi1>
// CHECK-NEXT:    func.return %[[X]] : i1
func.func @load_vector6(%m: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>, %h: index, %w: index, %c: index) -> i1 {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0, %h, %w, %c] : memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>
  func.return %x : i1
}

// Two i4 per i8, MSB-first: lane l sits at bits [4 - 4·l, 8 - 4·l), shift 4 - 4·(w mod 2).
// CHECK-LABEL: func.func @load_msb(%m: memref<4xi8>, %w: index) -> i4 {
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[B:.*]] = arith.divui %w, %[[C2]] : index
// CHECK-DAG:     %[[WORD:.*]] = memref.load %m[%[[B]]] : memref<4xi8>
// CHECK-DAG:     %[[LANE:.*]] = arith.remui %w, %[[C2]] : index
// CHECK-DAG:     %[[M4:.*]] = arith.constant -4 : index
// CHECK-DAG:     %[[L4:.*]] = arith.muli %[[LANE]], %[[M4]] : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[S:.*]] = arith.addi %[[L4]], %[[C4]] : index
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.index_cast %[[S]] : index to i8
// CHECK-NEXT:    %[[R:.*]] = arith.shrui %[[WORD]], %[[SHIFT]] : i8
// CHECK-NEXT:    %[[X:.*]] = arith.trunci %[[R]] : i8 to i4
// CHECK-NEXT:    func.return %[[X]] : i4
func.func @load_msb(%m: memref<8xi4, #layout.tag<"W->W2w", pack = i8, bit_order = "msb">>, %w: index) -> i4 {
  %x = memref.load %m[%w] : memref<8xi4, #layout.tag<"W->W2w", pack = i8, bit_order = "msb">>
  func.return %x : i4
}
