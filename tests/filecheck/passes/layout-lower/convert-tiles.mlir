// layout-lower on layout.convert into destinations of 4096 slots or more: tiles of vector
// loads along the source's unit-stride run, a transpose in registers when the two runs are
// different logical dims (log2 V stages of vector.shuffle), and vector stores along the
// destination's; pad edges as vector pieces and splats; packed containers built whole with
// vector.bitcast; streaming (nontemporal) stores into destinations of 8 MiB and more.
// RUN: layout-opt %s --split-input-file -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: %mlir_opt %t --verify-each > /dev/null
// REQUIRES: mlir-opt

// NCHW -> nChw16c: 8 (w) x 16 (c) tiles, 16 loads along w, two 8x8 transposes (3 x 8
// shuffles each), 8 x 2 stores along c (a 64-byte line per w).
// CHECK-LABEL: func.func @to_nChw16c(%src: memref<1x32x8x16xf32>, %dst: memref<1x2x8x16x16xf32>) {
// CHECK:         scf.for %[[CB:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        scf.for %[[W:.*]] = %{{.*}} to %[[C16:.*]] step %[[C8:.*]] {
// CHECK-NEXT:          %[[C:.*]] = arith.muli %[[CB]], %[[C16]] : index
// CHECK-NEXT:          %[[R0:.*]] = vector.load %src[%{{.*}}, %[[C]], %[[H]], %[[W]]] : memref<1x32x8x16xf32>, vector<8xf32>
// CHECK-NEXT:          %[[C1:.*]] = arith.addi %[[C]], %{{.*}} : index
// CHECK-NEXT:          %[[R1:.*]] = vector.load %src[%{{.*}}, %[[C1]], %[[H]], %[[W]]] : memref<1x32x8x16xf32>, vector<8xf32>
// CHECK-COUNT-6:       vector.load %src
// CHECK-NEXT:          %{{.*}} = vector.shuffle %[[R0]], %[[R1]] [0, 8, 2, 10, 4, 12, 6, 14] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:          %{{.*}} = vector.shuffle %[[R0]], %[[R1]] [1, 9, 3, 11, 5, 13, 7, 15] : vector<8xf32>, vector<8xf32>
// CHECK:               vector.shuffle %{{.*}}, %{{.*}} [0, 1, 8, 9, 4, 5, 12, 13] : vector<8xf32>, vector<8xf32>
// CHECK:               vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 8, 9, 10, 11] : vector<8xf32>, vector<8xf32>
// CHECK:               vector.store %{{.*}}, %dst[%{{.*}}, %[[CB]], %[[H]], %[[W]], %{{.*}}] : memref<1x2x8x16x16xf32>, vector<8xf32>
// CHECK-NEXT:          vector.store %{{.*}}, %dst[%{{.*}}, %[[CB]], %[[H]], %[[W]], %[[C8]]] : memref<1x2x8x16x16xf32>, vector<8xf32>
// CHECK-NOT:     nontemporal
// CHECK-NOT:     memref.store
// CHECK:         func.return
func.func @to_nChw16c(%src: memref<1x32x8x16xf32>, %dst: memref<1x32x8x16xf32, #layout.tag<"nChw16c">>) {
  layout.convert %src to %dst : memref<1x32x8x16xf32> to memref<1x32x8x16xf32, #layout.tag<"nChw16c">>
  func.return
}

// -----

// NHWC -> HTP crouton (8h 8w 32c), H, W and C padded: both sides run along c, so a tile is
// one 32-byte load and store. At the pad edges: a tile whose c block holds 28 channels moves
// them as 16 + 8 + 4 lanes and stores 4 lanes of pad; a tile of pad rows is one splat.
// CHECK-LABEL: func.func @crouton(%src: memref<1x10x9x60xi8>, %dst: memref<1x2x2x2x8x8x32xi8>) {
// CHECK:             scf.if %[[INSIDE:.*]] {
// CHECK-NEXT:          %[[V:.*]] = vector.load %src[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x10x9x60xi8>, vector<32xi8>
// CHECK-NEXT:          vector.store %[[V]], %dst[{{.*}}] : memref<1x2x2x2x8x8x32xi8>, vector<32xi8>
// CHECK-NEXT:        } else {
// CHECK:               scf.if %{{.*}} {
// CHECK-NEXT:            vector.load %src{{.*}} vector<16xi8>
// CHECK-NEXT:            vector.store {{.*}} vector<16xi8>
// CHECK:                 vector.load %src{{.*}} vector<8xi8>
// CHECK-NEXT:            vector.store {{.*}} vector<8xi8>
// CHECK:                 vector.load %src{{.*}} vector<4xi8>
// CHECK-NEXT:            vector.store {{.*}} vector<4xi8>
// CHECK-NEXT:            %[[P:.*]] = arith.constant 31 : i8
// CHECK-NEXT:            %[[PAD4:.*]] = vector.broadcast %[[P]] : i8 to vector<4xi8>
// CHECK:                 vector.store %[[PAD4]], %dst[{{.*}}] : memref<1x2x2x2x8x8x32xi8>, vector<4xi8>
// CHECK-NEXT:          } else {
// CHECK-NEXT:            arith.constant 31 : i8
// CHECK-NEXT:            %[[PAD:.*]] = vector.broadcast %{{.*}} : i8 to vector<32xi8>
// CHECK:                 vector.store %[[PAD]], %dst[{{.*}}] : memref<1x2x2x2x8x8x32xi8>, vector<32xi8>
// CHECK-NOT:     memref.store
// CHECK:         func.return
func.func @crouton(%src: memref<1x10x9x60xi8>, %dst: memref<1x10x9x60xi8, #layout.chunked<"R4CroutonLayout", pad = 31>>) {
  layout.convert %src to %dst : memref<1x10x9x60xi8> to memref<1x10x9x60xi8, #layout.chunked<"R4CroutonLayout", pad = 31>>
  func.return
}

// -----

// i1 -> 8 lanes per i8 (LSB first): the 8 containers of a pixel from one vector of their 64
// lanes (they run along the source's innermost dim, loaded as the bytes that hold them),
// one bitcast, one store.
// CHECK-LABEL: func.func @bits(%src: memref<1x8x8x64xi1>, %dst: memref<1x8x8x8xi8>) {
// CHECK:             %[[BYTES:.*]] = builtin.unrealized_conversion_cast %src : memref<1x8x8x64xi1> to memref<1x8x8x64xi8>
// CHECK:             %[[LOADED:.*]] = vector.load %[[BYTES]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x8x8x64xi8>, vector<64xi8>
// CHECK-NEXT:        %[[LANES:.*]] = arith.trunci %[[LOADED]] : vector<64xi8> to vector<64xi1>
// CHECK-NEXT:        %[[WORDS:.*]] = vector.bitcast %[[LANES]] : vector<64xi1> to vector<8xi8>
// CHECK-NEXT:        vector.store %[[WORDS]], %dst[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x8x8x8xi8>, vector<8xi8>
// CHECK-NOT:     memref.load
// CHECK-NOT:     arith.ori
func.func @bits(%src: memref<1x8x8x64xi1>, %dst: memref<1x8x8x64xi1, #layout.tag<"NHWC->NHWC8c", pack = i8>>) {
  layout.convert %src to %dst : memref<1x8x8x64xi1> to memref<1x8x8x64xi1, #layout.tag<"NHWC->NHWC8c", pack = i8>>
  func.return
}

// -----

// An 8 MiB destination without pad slots: the stores stream past the caches.
// CHECK-LABEL: func.func @streaming(
// CHECK:         vector.store %{{.*}}, %dst[{{.*}}] {nontemporal = true} : memref<1x128x32x32x16xf32>, vector<8xf32>
func.func @streaming(%src: memref<1x2048x32x32xf32>, %dst: memref<1x2048x32x32xf32, #layout.tag<"nChw16c">>) {
  layout.convert %src to %dst : memref<1x2048x32x32xf32> to memref<1x2048x32x32xf32, #layout.tag<"nChw16c">>
  func.return
}

// Below 8 MiB, source rows 4 KiB apart (32x32 planes) share a cache set: the tiles read 8
// planes a whole line each (two 8x8 blocks along W), 8 channels of the destination's 16 at
// a time, and store plainly.
// CHECK-LABEL: func.func @one_set(
// CHECK-DAG:     %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[SIXTEEN:.*]] = arith.constant 16 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[EIGHT]] {
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[SIXTEEN]] {
// CHECK-COUNT-16:    vector.load %src
// CHECK-NOT:         nontemporal
// CHECK:         return
func.func @one_set(%src: memref<1x64x32x32xf32>, %dst: memref<1x64x32x32xf32, #layout.tag<"nChw16c">>) {
  layout.convert %src to %dst : memref<1x64x32x32xf32> to memref<1x64x32x32xf32, #layout.tag<"nChw16c">>
  func.return
}

// -----

// Fewer than 4096 destination slots, or layouts with no unit-stride run the vectors fit
// (here a skewed map): the scalar loop nest.
// CHECK-LABEL: func.func @small(
// CHECK-NOT:     vector.
// CHECK:         memref.store
func.func @small(%src: memref<1x16x4x4xf32>, %dst: memref<1x16x4x4xf32, #layout.tag<"nChw16c">>) {
  layout.convert %src to %dst : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, #layout.tag<"nChw16c">>
  func.return
}

// CHECK-LABEL: func.func @skewed(
// CHECK-NOT:     vector.
// CHECK:         memref.store
func.func @skewed(%src: memref<64x64xf32, #layout.map<affine_map<(d0, d1) -> (d0 + d1, d1)>>>, %dst: memref<64x64xf32, #layout.tag<"NC->CN">>) {
  layout.convert %src to %dst : memref<64x64xf32, #layout.map<affine_map<(d0, d1) -> (d0 + d1, d1)>>> to memref<64x64xf32, #layout.tag<"NC->CN">>
  func.return
}

// -----

// nChw8c -> NCHW into 8 MiB: the tiles' rows (8 channel planes) lie apart, so streaming
// stores pay off only when every row starts on a cache line: the destination's base address
// decides at run time between the streaming and the plain tiles.
// CHECK-LABEL: func.func @streaming_if_aligned(
// CHECK:         %[[ADDRESS:.*]] = "memref.extract_aligned_pointer_as_index"(%dst) : (memref<1x2048x32x32xf32>) -> index
// CHECK-NEXT:    %[[OFFSET:.*]] = arith.remui %[[ADDRESS]], %{{.*}} : index
// CHECK-NEXT:    %[[ALIGNED:.*]] = arith.cmpi eq, %[[OFFSET]], %{{.*}} : index
// CHECK-NEXT:    scf.if %[[ALIGNED]] {
// CHECK:           vector.store %{{.*}}, %dst[{{.*}}] {nontemporal = true} : memref<1x2048x32x32xf32>, vector<8xf32>
// CHECK:         } else {
// CHECK-NOT:       nontemporal
// CHECK:           vector.store %{{.*}}, %dst[{{.*}}] : memref<1x2048x32x32xf32>, vector<8xf32>
func.func @streaming_if_aligned(%src: memref<1x2048x32x32xf32, #layout.tag<"nChw8c">>, %dst: memref<1x2048x32x32xf32>) {
  layout.convert %src to %dst : memref<1x2048x32x32xf32, #layout.tag<"nChw8c">> to memref<1x2048x32x32xf32>
  func.return
}

// -----

// nChw16c -> NCHW: tiles take whole 16-channel runs in the source's order (c by 16, h, w by
// 8), each 8x8 block loaded, transposed and stored at once; plain stores (half lines).
// CHECK-LABEL: func.func @whole_runs(%src: memref<1x4x16x16x16xf32>, %dst: memref<1x64x16x16xf32>) {
// CHECK-NOT:     extract_aligned_pointer
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %[[SIXTEEN:.*]] {
// CHECK-NEXT:      scf.for %[[H:.*]] = %{{.*}} to %[[SIXTEEN]] step %{{.*}} {
// CHECK-NEXT:        scf.for %[[W:.*]] = %{{.*}} to %[[SIXTEEN]] step %{{.*}} {
// CHECK-COUNT-8:       vector.load %src[%{{.*}}, %{{.*}}, %[[H]], %{{.*}}, %{{.*}}] : memref<1x4x16x16x16xf32>, vector<8xf32>
// CHECK-COUNT-24:      vector.shuffle
// CHECK-COUNT-8:       vector.store %{{.*}}, %dst[%{{.*}}, %{{.*}}, %[[H]], %[[W]]] : memref<1x64x16x16xf32>, vector<8xf32>
// CHECK-COUNT-8:       vector.load %src
// CHECK-COUNT-24:      vector.shuffle
// CHECK-COUNT-8:       vector.store %{{.*}}, %dst[%{{.*}}, %{{.*}}, %[[H]], %[[W]]] : memref<1x64x16x16xf32>, vector<8xf32>
// CHECK-NEXT:        }
// CHECK-NOT:     nontemporal
func.func @whole_runs(%src: memref<1x64x16x16xf32, #layout.tag<"nChw16c">>, %dst: memref<1x64x16x16xf32>) {
  layout.convert %src to %dst : memref<1x64x16x16xf32, #layout.tag<"nChw16c">> to memref<1x64x16x16xf32>
  func.return
}
