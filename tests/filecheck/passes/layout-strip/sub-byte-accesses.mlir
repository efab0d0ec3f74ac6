// layout-strip's output is what the native engine runs as the reference of --check: upstream
// MLIR 22 must compute what the program means there too. A vector access to sub-byte
// elements goes through the memref's bytes (as in layout-lower), in a program without
// layouts as well: upstream would move the vector as packed bits.
// RUN: layout-opt %s -p layout-strip | filecheck %s

// CHECK-LABEL: func.func @bits(%m: memref<4x16xi1>, %i: index) -> vector<8xi1> {
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<4x16xi1> to memref<4x16xi8>
// CHECK-NEXT:    %[[V:.*]] = vector.load %[[BYTES]][%i, %i] : memref<4x16xi8>, vector<8xi8>
// CHECK-NEXT:    %[[X:.*]] = arith.trunci %[[V]] : vector<8xi8> to vector<8xi1>
// CHECK-NEXT:    func.return %[[X]] : vector<8xi1>
func.func @bits(%m: memref<4x16xi1, #layout.tag<"RW->WR">>, %i: index) -> vector<8xi1> {
  %v = vector.load %m[%i, %i] : memref<4x16xi1, #layout.tag<"RW->WR">>, vector<8xi1>
  func.return %v : vector<8xi1>
}

// CHECK-LABEL: func.func @plain(%m: memref<16xi4>, %v: vector<4xi4>) {
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<16xi4> to memref<16xi8>
// CHECK-NEXT:    %[[C:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[W:.*]] = arith.extui %v : vector<4xi4> to vector<4xi8>
// CHECK-NEXT:    vector.store %[[W]], %[[BYTES]][%[[C]]] : memref<16xi8>, vector<4xi8>
func.func @plain(%m: memref<16xi4>, %v: vector<4xi4>) {
  %c4 = arith.constant 4 : index
  vector.store %v, %m[%c4] : memref<16xi4>, vector<4xi4>
  func.return
}
