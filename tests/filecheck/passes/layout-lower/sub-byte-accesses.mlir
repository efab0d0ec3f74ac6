// Vector accesses to sub-byte elements go through the memref's bytes. Upstream MLIR 22 keeps
// a memref<…xi1> one element per byte (i12: two bytes) but moves a vector<64xi1> as 64 packed
// bits, so the last step of layout-lower views each such memref as the integers LLVM
// allocates for its elements (builtin.unrealized_conversion_cast, one per memref, right after
// its definition), accesses vectors of those, and truncates after a load / zero-extends
// before a store. An element of a memref of bit vectors (pack = vector<6xi1>) is one byte
// load or store, or one of i64 words above 64 bits (vector<6xi12>). Signed or wider-than-64-bit elements go lane by lane. A module without
// layouts keeps its accesses.
// RUN: layout-opt %s --split-input-file -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: %mlir_opt %t --verify-each > /dev/null
// REQUIRES: mlir-opt

// A run of 64 lanes of a blocked i1 buffer: one vector of 64 bytes.
// CHECK-LABEL: func.func @bits(%m: memref<2x2x64xi1>, %r: index) -> vector<64xi1> {
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<2x2x64xi1> to memref<2x2x64xi8>
// CHECK:         %[[V:.*]] = vector.load %[[BYTES]][%r, %{{.*}}, %{{.*}}] : memref<2x2x64xi8>, vector<64xi8>
// CHECK-NEXT:    %[[X:.*]] = arith.trunci %[[V]] : vector<64xi8> to vector<64xi1>
// CHECK-NEXT:    func.return %[[X]] : vector<64xi1>
func.func @bits(%m: memref<2x128xi1, #layout.tag<"RW->RW64w">>, %r: index) -> vector<64xi1> {
  %c64 = arith.constant 64 : index
  %v = vector.load %m[%r, %c64] : memref<2x128xi1, #layout.tag<"RW->RW64w">>, vector<64xi1>
  func.return %v : vector<64xi1>
}

// Stores zero-extend (LLVM keeps the bits above an i2 zero). In a module with layouts, the
// program's own accesses to plain memrefs go through their bytes too (the nontemporal hint
// stays).
// CHECK-LABEL: func.func @store_i2(%m: memref<4x2x8xi2>, %p: memref<16xi2>, %v: vector<8xi2>) {
// CHECK-NEXT:    %[[PLAIN:.*]] = builtin.unrealized_conversion_cast %p : memref<16xi2> to memref<16xi8>
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<4x2x8xi2> to memref<4x2x8xi8>
// CHECK:         %[[W:.*]] = arith.extui %v : vector<8xi2> to vector<8xi8>
// CHECK-NEXT:    vector.store %[[W]], %[[BYTES]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<4x2x8xi8>, vector<8xi8>
// CHECK-NEXT:    vector.store %[[W]], %[[PLAIN]][%{{.*}}] {nontemporal = true} : memref<16xi8>, vector<8xi8>
func.func @store_i2(%m: memref<4x16xi2, #layout.tag<"RW->RW8w">>, %p: memref<16xi2>, %v: vector<8xi2>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  vector.store %v, %m[%c1, %c8] : memref<4x16xi2, #layout.tag<"RW->RW8w">>, vector<8xi2>
  vector.store %v, %p[%c8] {nontemporal = true} : memref<16xi2>, vector<8xi2>
  func.return
}

// i12 takes two bytes: a view of i16; affine accesses keep their maps.
// CHECK-LABEL: func.func @i12(%m: memref<8x3xi12>, %l: memref<4xf32>, %i: index) -> vector<4xi12> {
// CHECK-NEXT:    %[[WORDS:.*]] = builtin.unrealized_conversion_cast %m : memref<8x3xi12> to memref<8x3xi16>
// CHECK-NEXT:    %[[V:.*]] = affine.vector_load %[[WORDS]][%i * 2, 0] : memref<8x3xi16>, vector<4xi16>
// CHECK-NEXT:    %[[X:.*]] = arith.trunci %[[V]] : vector<4xi16> to vector<4xi12>
func.func @i12(%m: memref<8x3xi12>, %l: memref<4xf32, #layout.tag<"W->W">>, %i: index) -> vector<4xi12> {
  %v = affine.vector_load %m[%i * 2, 0] : memref<8x3xi12>, vector<4xi12>
  func.return %v : vector<4xi12>
}

// A transfer's padding is widened with its vector; the mask and in_bounds stay.
// CHECK-LABEL: func.func @transfer(%m: memref<16xi3>, %i: index, %mask: vector<4xi1>) -> vector<4xi3> {
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<16xi3> to memref<16xi8>
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant -1 : i3
// CHECK-NEXT:    %[[WPAD:.*]] = arith.extui %[[PAD]] : i3 to i8
// CHECK-NEXT:    %[[V:.*]] = vector.transfer_read %[[BYTES]][%i], %[[WPAD]], %mask : memref<16xi8>, vector<4xi8>
// CHECK-NEXT:    %[[X:.*]] = arith.trunci %[[V]] : vector<4xi8> to vector<4xi3>
func.func @transfer(%m: memref<16xi3>, %i: index, %mask: vector<4xi1>) -> vector<4xi3> {
  %pad = arith.constant -1 : i3
  %v = vector.transfer_read %m[%i], %pad, %mask {in_bounds = [false]} : memref<16xi3>, vector<4xi3>
  func.return %v : vector<4xi3>
}

// Signed integers (which arith does not truncate) and integers over 64 bits: lane by lane.
// CHECK-LABEL: func.func @lanes(%m: memref<8xsi4>, %n: memref<4xi65>, %l: memref<4xf32>, %i: index) -> (vector<2xsi4>, vector<2xi65>) {
// CHECK-NOT:     builtin.unrealized_conversion_cast
// CHECK:         %[[A:.*]] = memref.load %m[%i] : memref<8xsi4>
// CHECK:         %[[B:.*]] = memref.load %m[%{{.*}}] : memref<8xsi4>
// CHECK-NEXT:    vector.from_elements %[[A]], %[[B]] : vector<2xsi4>
// CHECK:         memref.load %n[%i] : memref<4xi65>
// CHECK:         vector.from_elements %{{.*}}, %{{.*}} : vector<2xi65>
func.func @lanes(%m: memref<8xsi4>, %n: memref<4xi65>, %l: memref<4xf32, #layout.tag<"W->W">>, %i: index) -> (vector<2xsi4>, vector<2xi65>) {
  %v = vector.load %m[%i] : memref<8xsi4>, vector<2xsi4>
  %w = vector.load %n[%i] : memref<4xi65>, vector<2xi65>
  func.return %v, %w : vector<2xsi4>, vector<2xi65>
}

// A container of pack = vector<6xi1> whose lanes are written whole: the word of the lanes
// stored as one byte; one whose lanes are read whole: the byte loaded, its 6 bits the lanes.
// CHECK-LABEL: func.func @container(%m: memref<1x2x2x2xvector<6xi1>>, %v: vector<6xi1>) -> vector<6xi1> {
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<1x2x2x2xvector<6xi1>> to memref<1x2x2x2xi8>
// CHECK:         %[[P:.*]] = vector.bitcast %v : vector<6xi1> to vector<1xi6>
// CHECK-NEXT:    %[[W:.*]] = vector.extract %[[P]][0] : i6 from vector<1xi6>
// CHECK-NEXT:    %[[B:.*]] = arith.extui %[[W]] : i6 to i8
// CHECK-NEXT:    memref.store %[[B]], %[[BYTES]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x2x2x2xi8>
// CHECK-NEXT:    %[[L:.*]] = memref.load %[[BYTES]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x2x2x2xi8>
// CHECK-NEXT:    %[[T:.*]] = arith.trunci %[[L]] : i8 to i6
// CHECK-NEXT:    %[[O:.*]] = vector.broadcast %[[T]] : i6 to vector<1xi6>
// CHECK-NEXT:    %[[X:.*]] = vector.bitcast %[[O]] : vector<1xi6> to vector<6xi1>
// CHECK-NEXT:    func.return %[[X]] : vector<6xi1>
func.func @container(%m: memref<1x2x2x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>, %v: vector<6xi1>) -> vector<6xi1> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  vector.store %v, %m[%c0, %c1, %c0, %c6] : memref<1x2x2x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>, vector<6xi1>
  %w = vector.load %m[%c0, %c0, %c1, %c0] : memref<1x2x2x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>, vector<6xi1>
  func.return %w : vector<6xi1>
}

// -----

// A container of more than 64 bits (pack = vector<6xi12>: 72 bits, allocated 16 bytes), which
// LLVM 22 loads and stores wrong as a vector: the memref viewed as two i64 words, each lane
// shifted into them (lane 5 straddles both) or out of them.
// CHECK-LABEL: func.func @wide(%m: memref<2x2xvector<6xi12>>, %v: vector<6xi12>) -> vector<6xi12> {
// CHECK-NEXT:    %[[WORDS:.*]] = builtin.unrealized_conversion_cast %m : memref<2x2xvector<6xi12>> to memref<2x2xvector<2xi64>>
// CHECK:         %[[L5:.*]] = vector.extract %v[5] : i12 from vector<6xi12>
// CHECK-NEXT:    %[[Z5:.*]] = arith.extui %[[L5]] : i12 to i64
// CHECK-NEXT:    %[[C60:.*]] = arith.constant 60 : i64
// CHECK-NEXT:    %[[LOW:.*]] = arith.shli %[[Z5]], %[[C60]] : i64
// CHECK-NEXT:    %[[W0:.*]] = arith.ori %{{.*}}, %[[LOW]] : i64
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    %[[W1:.*]] = arith.shrui %[[Z5]], %[[C4]] : i64
// CHECK-NEXT:    %[[S:.*]] = vector.from_elements %[[W0]], %[[W1]] : vector<2xi64>
// CHECK-NEXT:    memref.store %[[S]], %[[WORDS]][%c1, %c1] : memref<2x2xvector<2xi64>>
// CHECK-NEXT:    %[[L:.*]] = memref.load %[[WORDS]][%c0, %c0] : memref<2x2xvector<2xi64>>
// CHECK-NEXT:    %[[A:.*]] = vector.extract %[[L]][0] : i64 from vector<2xi64>
// CHECK-NEXT:    %[[B:.*]] = vector.extract %[[L]][1] : i64 from vector<2xi64>
// CHECK:         %[[H:.*]] = arith.shrui %[[A]], %[[C60]] : i64
// CHECK-NEXT:    %[[HI:.*]] = arith.shli %[[B]], %[[C4]] : i64
// CHECK-NEXT:    %[[J:.*]] = arith.ori %[[H]], %[[HI]] : i64
// CHECK-NEXT:    %[[T:.*]] = arith.trunci %[[J]] : i64 to i12
// CHECK-NEXT:    %w = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[T]] : vector<6xi12>
// CHECK-NEXT:    func.return %w : vector<6xi12>
func.func @wide(%m: memref<2x12xi12, #layout.tag<"RW->RW6w", pack = vector<6xi12>>>, %v: vector<6xi12>) -> vector<6xi12> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  vector.store %v, %m[%c1, %c6] : memref<2x12xi12, #layout.tag<"RW->RW6w", pack = vector<6xi12>>>, vector<6xi12>
  %w = vector.load %m[%c0, %c0] : memref<2x12xi12, #layout.tag<"RW->RW6w", pack = vector<6xi12>>>, vector<6xi12>
  func.return %w : vector<6xi12>
}

// -----

// A module without layouts is left as it is, its own sub-byte vector accesses included.
// CHECK-LABEL: func.func @plain(%m: memref<16xi1>, %i: index) -> vector<8xi1> {
// CHECK-NEXT:    %v = vector.load %m[%i] : memref<16xi1>, vector<8xi1>
// CHECK-NEXT:    func.return %v : vector<8xi1>
func.func @plain(%m: memref<16xi1>, %i: index) -> vector<8xi1> {
  %v = vector.load %m[%i] : memref<16xi1>, vector<8xi1>
  func.return %v : vector<8xi1>
}
