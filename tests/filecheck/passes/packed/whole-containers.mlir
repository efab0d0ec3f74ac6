// Vector accesses along packed lanes that cover the first lanes of one container are one
// container load or store (plus a vector.bitcast for integer containers): a full container
// copied is a word load and a word store; a partial last container is read through a
// vector.shuffle (its valid lanes) and written whole, its pad lanes set to the pad value.
// Other vector accesses of packed buffers still go lane by lane.
// RUN: layout-opt %s -p layout-lower | filecheck %s

!w8 = memref<3x20xi1, #layout.tag<"MK->MK8k", pack = i8>>
// CHECK-LABEL: func.func @copy_words(%a: memref<3x3xi8>, %b: memref<3x3xi8>)
// CHECK:         %[[W:.*]] = memref.load %a[%{{.*}}, %{{.*}}] : memref<3x3xi8>
// CHECK:         %[[P:.*]] = memref.load %a[%{{.*}}, %[[TWO:.*]]] : memref<3x3xi8>
// CHECK-NEXT:    %[[PV:.*]] = vector.broadcast %[[P]] : i8 to vector<1xi8>
// CHECK-NEXT:    %[[PL:.*]] = vector.bitcast %[[PV]] : vector<1xi8> to vector<8xi1>
// CHECK-NEXT:    %[[V4:.*]] = vector.shuffle %[[PL]], %[[PL]] [0, 1, 2, 3] : vector<8xi1>, vector<8xi1>
// CHECK-NEXT:    memref.store %[[W]], %b[%{{.*}}, %{{.*}}] : memref<3x3xi8>
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant dense<false> : vector<8xi1>
// CHECK-NEXT:    %[[FULL:.*]] = vector.shuffle %[[V4]], %[[PAD]] [0, 1, 2, 3, 8, 9, 10, 11] : vector<4xi1>, vector<8xi1>
// CHECK-NEXT:    %[[FW:.*]] = vector.bitcast %[[FULL]] : vector<8xi1> to vector<1xi8>
// CHECK-NEXT:    %[[F:.*]] = vector.extract %[[FW]][0] : i8 from vector<1xi8>
// CHECK-NEXT:    memref.store %[[F]], %b[%{{.*}}, %[[TWO]]] : memref<3x3xi8>
// CHECK-NOT:     arith.shli
func.func @copy_words(%a: !w8, %b: !w8) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %v = vector.load %a[%c1, %c8] : !w8, vector<8xi1>
  %w = vector.load %a[%c1, %c16] : !w8, vector<4xi1>
  vector.store %v, %b[%c0, %c0] : !w8, vector<8xi1>
  vector.store %w, %b[%c0, %c16] : !w8, vector<4xi1>
  func.return
}

// MSB-first lanes sit in reverse order: the store shuffles them (pad 1 in the pad lanes).
!m = memref<2x13xi1, #layout.tag<"NC->NC8c", pack = i8, bit_order = "msb", pad = 1>>
// CHECK-LABEL: func.func @msb_partial(%y: memref<2x2xi8>, %v: vector<5xi1>)
// CHECK:         %[[PAD:.*]] = arith.constant dense<true> : vector<8xi1>
// CHECK-NEXT:    %[[R:.*]] = vector.shuffle %v, %[[PAD]] [5, 6, 7, 4, 3, 2, 1, 0] : vector<5xi1>, vector<8xi1>
// CHECK-NEXT:    vector.bitcast %[[R]] : vector<8xi1> to vector<1xi8>
func.func @msb_partial(%y: !m, %v: vector<5xi1>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  vector.transfer_write %v, %y[%c1, %c8] {in_bounds = [true]} : vector<5xi1>, !m
  func.return
}

// Not the first lanes of a container: lane by lane.
// CHECK-LABEL: func.func @unaligned(%a: memref<3x3xi8>)
// CHECK-COUNT-4: arith.shrui
func.func @unaligned(%a: !w8) -> vector<4xi1> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %v = vector.load %a[%c0, %c2] : !w8, vector<4xi1>
  func.return %v : vector<4xi1>
}
