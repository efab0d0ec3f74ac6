// layout-lower on vector containers (`pack = vector<L x T>`): the physical memref holds
// vector<L x T> elements; a load is the container load and a vector.extract at the lane, a
// store loads the container, vector.inserts the value at the lane and stores it back. Lanes
// that are not constants are dynamic positions; floats are allowed. A lane of whole bytes
// at a dynamic position is selected instead (step == lane): LLVM 22's x86 backend stores
// neighbouring dynamic inserts as one aligned vector store at a misaligned address
// (passes/packed/lane_update.py).
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// The seed's NHW(C6), vector implementation: memref<4x8x8x1xvector<6xi1>>; the lane is c.
// A container of sub-byte lanes is loaded and stored as the byte that holds it (LLVM's x86
// backend moves a vector<6xi1> bit by bit; sub-byte-accesses.mlir in layout-lower).
// CHECK-LABEL: func.func @load_vector6(%m: memref<4x8x8x1xvector<6xi1>>, %n: index, %c: index, %h: index, %w: index) -> i1 {
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<4x8x8x1xvector<6xi1>> to memref<4x8x8x1xi8>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[BYTE:.*]] = memref.load %[[BYTES]][%n, %h, %w, %[[Z]]] : memref<4x8x8x1xi8>
// CHECK-NEXT:    %[[BITS:.*]] = arith.trunci %[[BYTE]] : i8 to i6
// CHECK-NEXT:    %[[ONE:.*]] = vector.broadcast %[[BITS]] : i6 to vector<1xi6>
// CHECK-NEXT:    %[[WORD:.*]] = vector.bitcast %[[ONE]] : vector<1xi6> to vector<6xi1>
// CHECK-NEXT:    %[[X:.*]] = vector.extract %[[WORD]][%c] : i1 from vector<6xi1>
// CHECK-NEXT:    func.return %[[X]] : i1
func.func @load_vector6(%m: memref<4x6x8x8xi1, #layout.tag<"NCHW->NHWC6c", pack = vector<6xi1>>>, %n: index, %c: index, %h: index, %w: index) -> i1 {
  %x = memref.load %m[%n, %c, %h, %w] : memref<4x6x8x8xi1, #layout.tag<"NCHW->NHWC6c", pack = vector<6xi1>>>
  func.return %x : i1
}

// CHECK-LABEL: func.func @store_vector6(%m: memref<4x8x8x1xvector<6xi1>>, %n: index, %c: index, %h: index, %w: index, %v: i1) {
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<4x8x8x1xvector<6xi1>> to memref<4x8x8x1xi8>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[BYTE:.*]] = memref.load %[[BYTES]][%n, %h, %w, %[[Z]]] : memref<4x8x8x1xi8>
// CHECK:         %[[WORD:.*]] = vector.bitcast %{{.*}} : vector<1xi6> to vector<6xi1>
// CHECK-NEXT:    %[[NEW:.*]] = vector.insert %v, %[[WORD]] [%c] : i1 into vector<6xi1>
// CHECK-NEXT:    %[[PACKED:.*]] = vector.bitcast %[[NEW]] : vector<6xi1> to vector<1xi6>
// CHECK-NEXT:    %[[BITS:.*]] = vector.extract %[[PACKED]][0] : i6 from vector<1xi6>
// CHECK-NEXT:    %[[WIDE:.*]] = arith.extui %[[BITS]] : i6 to i8
// CHECK-NEXT:    memref.store %[[WIDE]], %[[BYTES]][%n, %h, %w, %[[Z]]] : memref<4x8x8x1xi8>
// CHECK-NEXT:    func.return
func.func @store_vector6(%m: memref<4x6x8x8xi1, #layout.tag<"NCHW->NHWC6c", pack = vector<6xi1>>>, %n: index, %c: index, %h: index, %w: index, %v: i1) {
  memref.store %v, %m[%n, %c, %h, %w] : memref<4x6x8x8xi1, #layout.tag<"NCHW->NHWC6c", pack = vector<6xi1>>>
  func.return
}

// f32 pairs (the 2IC idea on a plain tag): container c floordiv 2, position c mod 2.
// CHECK-LABEL: func.func @load_f32_pairs(%m: memref<4x3xvector<2xf32>>, %r: index, %c: index) -> f32 {
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[B:.*]] = arith.divui %c, %[[C2]] : index
// CHECK-NEXT:    %[[WORD:.*]] = memref.load %m[%r, %[[B]]] : memref<4x3xvector<2xf32>>
// CHECK-NEXT:    %[[LANE:.*]] = arith.remui %c, %[[C2]] : index
// CHECK-NEXT:    %[[X:.*]] = vector.extract %[[WORD]][%[[LANE]]] : f32 from vector<2xf32>
// CHECK-NEXT:    func.return %[[X]] : f32
func.func @load_f32_pairs(%m: memref<4x6xf32, #layout.tag<"RC->RC2c", pack = vector<2xf32>>>, %r: index, %c: index) -> f32 {
  %x = memref.load %m[%r, %c] : memref<4x6xf32, #layout.tag<"RC->RC2c", pack = vector<2xf32>>>
  func.return %x : f32
}

// CHECK-LABEL: func.func @store_f32_pairs(%m: memref<4x3xvector<2xf32>>, %r: index, %c: index, %v: f32) {
// CHECK:         %[[WORD:.*]] = memref.load %m[%r, %[[B:.*]]] : memref<4x3xvector<2xf32>>
// CHECK-NEXT:    %[[LANE:.*]] = arith.remui %c, %{{.*}} : index
// CHECK-NEXT:    %[[STEP:.*]] = vector.step : vector<2xindex>
// CHECK-NEXT:    %[[AT:.*]] = vector.broadcast %[[LANE]] : index to vector<2xindex>
// CHECK-NEXT:    %[[MASK:.*]] = arith.cmpi eq, %[[STEP]], %[[AT]] : vector<2xindex>
// CHECK-NEXT:    %[[V:.*]] = vector.broadcast %v : f32 to vector<2xf32>
// CHECK-NEXT:    %[[NEW:.*]] = arith.select %[[MASK]], %[[V]], %[[WORD]] : vector<2xi1>, vector<2xf32>
// CHECK-NEXT:    memref.store %[[NEW]], %m[%r, %[[B]]] : memref<4x3xvector<2xf32>>
func.func @store_f32_pairs(%m: memref<4x6xf32, #layout.tag<"RC->RC2c", pack = vector<2xf32>>>, %r: index, %c: index, %v: f32) {
  memref.store %v, %m[%r, %c] : memref<4x6xf32, #layout.tag<"RC->RC2c", pack = vector<2xf32>>>
  func.return
}

// A vector.load of lanes 4-7 of a row crosses from container 0 into container 1: two
// container loads (each the two bytes that hold its 12 bits), constant positions,
// reassembled with vector.from_elements.
// CHECK-LABEL: func.func @vector_load_crossing(%m: memref<2x2xvector<6xi2>>, %r: index) -> vector<4xi2> {
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %m : memref<2x2xvector<6xi2>> to memref<2x2xi16>
// CHECK:         memref.load %[[BYTES]][%r, %{{.*}}] : memref<2x2xi16>
// CHECK:         %[[FIRST:.*]] = vector.bitcast %{{.*}} : vector<1xi12> to vector<6xi2>
// CHECK-NEXT:    %[[A:.*]] = vector.extract %[[FIRST]][4] : i2 from vector<6xi2>
// CHECK-NEXT:    %[[B:.*]] = vector.extract %[[FIRST]][5] : i2 from vector<6xi2>
// CHECK:         memref.load %[[BYTES]][%r, %{{.*}}] : memref<2x2xi16>
// CHECK:         %[[SECOND:.*]] = vector.bitcast %{{.*}} : vector<1xi12> to vector<6xi2>
// CHECK-NEXT:    %[[C:.*]] = vector.extract %[[SECOND]][0] : i2 from vector<6xi2>
// CHECK-NEXT:    %[[D:.*]] = vector.extract %[[SECOND]][1] : i2 from vector<6xi2>
// CHECK-NEXT:    %[[X:.*]] = vector.from_elements %[[A]], %[[B]], %[[C]], %[[D]] : vector<4xi2>
// CHECK-NEXT:    func.return %[[X]] : vector<4xi2>
func.func @vector_load_crossing(%m: memref<2x12xi2, #layout.tag<"RW->RW6w", pack = vector<6xi2>>>, %r: index) -> vector<4xi2> {
  %c4 = arith.constant 4 : index
  %x = vector.load %m[%r, %c4] : memref<2x12xi2, #layout.tag<"RW->RW6w", pack = vector<6xi2>>>, vector<4xi2>
  func.return %x : vector<4xi2>
}

// A pad fill of a vector-packed allocation stores whole containers: C = 5 of 6 lanes, pad 1
// (each the byte that holds its 6 bits).
// CHECK-LABEL: func.func @alloc_pad_fill() -> memref<2x1xvector<6xi1>> {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<2x1xvector<6xi1>>
// CHECK-NEXT:    %[[BYTES:.*]] = builtin.unrealized_conversion_cast %[[M]] : memref<2x1xvector<6xi1>> to memref<2x1xi8>
// CHECK:         %[[PAD:.*]] = arith.constant 63 : i8
// CHECK-NEXT:    memref.store %[[PAD]], %[[BYTES]][%{{.*}}, %{{.*}}] : memref<2x1xi8>
func.func @alloc_pad_fill() -> memref<2x5xi1, #layout.tag<"RW->RW6w", pack = vector<6xi1>, pad = 1>> {
  %m = memref.alloc() : memref<2x5xi1, #layout.tag<"RW->RW6w", pack = vector<6xi1>, pad = 1>>
  func.return %m : memref<2x5xi1, #layout.tag<"RW->RW6w", pack = vector<6xi1>, pad = 1>>
}
