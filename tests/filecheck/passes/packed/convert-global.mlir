// layout.convert between packed and unpacked layouts, and packed globals.
// Into a packed destination the loops walk its words and lanes (memory order); each lane is
// a masked read-modify-write, and a pad lane receives the pad value in the else-branch. Out of
// a packed source the loops walk the plain destination and extract lane by lane. A packed
// global's initializer is repacked into words at compile time, pad lanes included.
// RUN: layout-opt %s --split-input-file -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// 13 bits per row, MSB-first bytes with pad 1: word w, lane l holds bit 8·w + l when < 13.
// CHECK-LABEL: func.func @to_packed(%src: memref<2x13xi1>, %dst: memref<2x2xi8>) {
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C13:.*]] = arith.constant 13 : index
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %[[C2]] step
// CHECK-NEXT:      scf.for %[[W:.*]] = %{{.*}} to %[[C2]] step
// CHECK-NEXT:        scf.for %[[L:.*]] = %{{.*}} to %[[C8]] step
// CHECK-NEXT:          %[[M:.*]] = arith.muli %[[W]], %[[C8]] : index
// CHECK-NEXT:          %[[COL:.*]] = arith.addi %[[M]], %[[L]] : index
// CHECK-NEXT:          %[[IN:.*]] = arith.cmpi ult, %[[COL]], %[[C13]] : index
// CHECK-NEXT:          scf.if %[[IN]] {
// CHECK-NEXT:            %[[X:.*]] = memref.load %src[%[[R]], %[[COL]]] : memref<2x13xi1>
// CHECK-NEXT:            %[[WORD:.*]] = memref.load %dst[%[[R]], %[[W]]] : memref<2x2xi8>
// CHECK:                 %[[SHIFT:.*]] = arith.index_cast %{{.*}} : index to i8
// CHECK-NEXT:            %[[V:.*]] = arith.extui %[[X]] : i1 to i8
// CHECK:                 arith.andi %[[WORD]], %{{.*}} : i8
// CHECK:                 %[[NEW:.*]] = arith.ori %{{.*}}, %{{.*}} : i8
// CHECK-NEXT:            memref.store %[[NEW]], %dst[%[[R]], %[[W]]] : memref<2x2xi8>
// CHECK-NEXT:          } else {
// CHECK-NEXT:            %[[PAD:.*]] = arith.constant true
// CHECK-NEXT:            %[[PWORD:.*]] = memref.load %dst[%[[R]], %[[W]]] : memref<2x2xi8>
// CHECK:                 %[[PV:.*]] = arith.extui %[[PAD]] : i1 to i8
// CHECK:                 memref.store %{{.*}}, %dst[%[[R]], %[[W]]] : memref<2x2xi8>
// CHECK-NEXT:          }
func.func @to_packed(%src: memref<2x13xi1>, %dst: memref<2x13xi1, #layout.tag<"RW->RW8w", pack = i8, bit_order = "msb", pad = 1>>) {
  layout.convert %src to %dst : memref<2x13xi1> to memref<2x13xi1, #layout.tag<"RW->RW8w", pack = i8, bit_order = "msb", pad = 1>>
  func.return
}

// CHECK-LABEL: func.func @to_plain(%src: memref<2x3xvector<6xi1>>, %dst: memref<2x13xi1>) {
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %src : memref<2x3xvector<6xi1>> to memref<2x3xi8>
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[B:.*]] = arith.divui %[[COL]], %[[C6:.*]] : index
// CHECK-NEXT:        %[[BYTE:.*]] = memref.load %[[BYTES]][%[[R]], %[[B]]] : memref<2x3xi8>
// CHECK:             %[[WORD:.*]] = vector.bitcast %{{.*}} : vector<1xi6> to vector<6xi1>
// CHECK-NEXT:        %[[LANE:.*]] = arith.remui %[[COL]], %[[C6]] : index
// CHECK-NEXT:        %[[X:.*]] = vector.extract %[[WORD]][%[[LANE]]] : i1 from vector<6xi1>
// CHECK-NEXT:        memref.store %[[X]], %dst[%[[R]], %[[COL]]] : memref<2x13xi1>
func.func @to_plain(%src: memref<2x13xi1, #layout.tag<"RW->RW6w", pack = vector<6xi1>>>, %dst: memref<2x13xi1>) {
  layout.convert %src to %dst : memref<2x13xi1, #layout.tag<"RW->RW6w", pack = vector<6xi1>>> to memref<2x13xi1>
  func.return
}

// -----
// Bits of [[1, 0, 1, 1, 0, 0, 0, 1, 1, 1], [0, 1, 1, 1, 1, 1, 1, 1, 1, 0]] in bytes, pad 0:
// LSB-first (np.packbits bitorder="little") 0x8D, 0x03 and 0xFE, 0x01 = [-115, 3], [-2, 1];
// MSB-first (np.packbits' default) 0xB1, 0xC0 and 0x7F, 0x80 = [-79, -64], [127, -128].
// CHECK:      memref.global "private" constant @lsb : memref<2x2xi8> = dense<{{\[}}[-115, 3], [-2, 1]]>
// CHECK-NEXT: memref.global "private" constant @msb : memref<2x2xi8> = dense<{{\[}}[-79, -64], [127, -128]]>
"memref.global"() <{sym_name = "lsb", sym_visibility = "private", type = memref<2x10xi1, #layout.tag<"RW->RW8w", pack = i8>>, initial_value = dense<[[true, false, true, true, false, false, false, true, true, true], [false, true, true, true, true, true, true, true, true, false]]> : tensor<2x10xi1>, constant}> : () -> ()
"memref.global"() <{sym_name = "msb", sym_visibility = "private", type = memref<2x10xi1, #layout.tag<"RW->RW8w", pack = i8, bit_order = "msb">>, initial_value = dense<[[true, false, true, true, false, false, false, true, true, true], [false, true, true, true, true, true, true, true, true, false]]> : tensor<2x10xi1>, constant}> : () -> ()

// Three i4 per i16, MSB-first (lanes at bits 12, 8, 4; bits 0-3 unused, 0), pad -3 = 0xD:
// [1, 2, 3 | -1, 5, pad] -> 0x1230, 0xF5D0 = -2608.
// CHECK-NEXT: memref.global "private" constant @nibbles : memref<1x2xi16> = dense<{{\[}}[4656, -2608]]>
"memref.global"() <{sym_name = "nibbles", sym_visibility = "private", type = memref<1x5xi4, #layout.tag<"RW->RW3w", pack = i16, bit_order = "msb", pad = -3>>, initial_value = dense<[[1, 2, 3, -1, 5]]> : tensor<1x5xi4>, constant}> : () -> ()

// An uninitialised packed global holds pad lanes only: 0xD · (0x1110) = 0xDDD0 = -8752.
// CHECK-NEXT: memref.global "private" @empty : memref<1x2xi16> = dense<-8752>
"memref.global"() <{sym_name = "empty", sym_visibility = "private", type = memref<1x5xi4, #layout.tag<"RW->RW3w", pack = i16, bit_order = "msb", pad = -3>>, initial_value = unit}> : () -> ()

