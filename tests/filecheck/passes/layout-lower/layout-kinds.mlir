// layout-lower on every layout kind: tags, named formats (oneDNN, MegEngine), HTP chunked
// layouts (a crouton, and the pairs of the R4Crouton2x2Layout alias), #layout.map and
// #layout.strided. Nested physical buffers by default, 1-D buffers indexed by linear
// offsets with flatten=true.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// RUN: layout-opt %s -p 'layout-lower{flatten=true}' | filecheck %s --check-prefix=FLAT
// NONE-NOT: {{#layout|layout\.}}

// The tag "OIHW->OIhw4i4o" on 8x8x1x1: physical (o/4, i/4, h, w, i%4, o%4) = 2x2x1x1x4x4.
// CHECK-LABEL: func.func @tag(%A: memref<2x2x1x1x4x4xf32>, %o: index, %i: index) -> f32 {
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[OB:.*]] = arith.divui %o, %[[C4]] : index
// CHECK-DAG:     %[[IB:.*]] = arith.divui %i, %[[C4]] : index
// CHECK-DAG:     %[[II:.*]] = arith.remui %i, %[[C4]] : index
// CHECK-DAG:     %[[OI:.*]] = arith.remui %o, %[[C4]] : index
// CHECK:         memref.load %A[%[[OB]], %[[IB]], %{{.*}}, %{{.*}}, %[[II]], %[[OI]]] : memref<2x2x1x1x4x4xf32>
// 64 elements; offset = (o/4)·32 + (i/4)·16 + (i%4)·4 + o%4, where (i/4)·16 + (i%4)·4
// simplifies to i·4: no division of i is left.
// FLAT-LABEL: func.func @tag(%A: memref<64xf32>, %o: index, %i: index) -> f32 {
// FLAT-NOT:     arith.divui %i
// FLAT-NOT:     arith.remui %i
// FLAT-DAG:     %[[C4:.*]] = arith.constant 4 : index
// FLAT-DAG:     %[[C32:.*]] = arith.constant 32 : index
// FLAT-DAG:     %[[I4:.*]] = arith.muli %i, %[[C4]] : index
// FLAT-DAG:     %[[OB:.*]] = arith.divui %o, %[[C4]] : index
// FLAT-DAG:     %[[O32:.*]] = arith.muli %[[OB]], %[[C32]] : index
// FLAT-DAG:     %[[S:.*]] = arith.addi %[[I4]], %[[O32]] : index
// FLAT-DAG:     %[[OI:.*]] = arith.remui %o, %[[C4]] : index
// FLAT:         %[[OFF:.*]] = arith.addi %[[S]], %[[OI]] : index
// FLAT-NEXT:    memref.load %A[%[[OFF]]] : memref<64xf32>
func.func @tag(%A: memref<8x8x1x1xf32, #layout.tag<"OIHW->OIhw4i4o">>, %o: index, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %A[%o, %i, %c0, %c0] : memref<8x8x1x1xf32, #layout.tag<"OIHW->OIhw4i4o">>
  func.return %x : f32
}

// The oneDNN named format "nChw8c" means "NCHW->nChw8c": 2x17x5x4 -> 2x3x5x4x8 (960 slots,
// offset (c/8)·160 + c%8 for n = h = w = 0).
// CHECK-LABEL: func.func @named_onednn(%A: memref<2x3x5x4x8xf32>, %c: index) -> f32 {
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[CB:.*]] = arith.divui %c, %[[C8]] : index
// CHECK-DAG:     %[[CI:.*]] = arith.remui %c, %[[C8]] : index
// CHECK:         memref.load %A[%[[Z:.*]], %[[CB]], %[[Z]], %[[Z]], %[[CI]]] : memref<2x3x5x4x8xf32>
// FLAT-LABEL: func.func @named_onednn(%A: memref<960xf32>, %c: index) -> f32 {
// FLAT-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// FLAT-NEXT:    %[[C160:.*]] = arith.constant 160 : index
// FLAT-NEXT:    %[[CB:.*]] = arith.divui %c, %[[C8]] : index
// FLAT-NEXT:    %[[M:.*]] = arith.muli %[[CB]], %[[C160]] : index
// FLAT-NEXT:    %[[CI:.*]] = arith.remui %c, %[[C8]] : index
// FLAT-NEXT:    %[[OFF:.*]] = arith.addi %[[M]], %[[CI]] : index
// FLAT-NEXT:    memref.load %A[%[[OFF]]] : memref<960xf32>
func.func @named_onednn(%A: memref<2x17x5x4xf32, #layout.tag<"nChw8c">>, %c: index) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %A[%c0, %c, %c0, %c0] : memref<2x17x5x4xf32, #layout.tag<"nChw8c">>
  func.return %x : f32
}

// MegEngine NCHW4 on 1x9x3x3: (n, c/4, h, w, c%4) = 1x3x3x3x4, 108 slots, c/4 stride 36.
// CHECK-LABEL: func.func @named_megengine(%A: memref<1x3x3x3x4xf32>, %c: index) -> f32 {
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[CB:.*]] = arith.divui %c, %[[C4]] : index
// CHECK-DAG:     %[[CI:.*]] = arith.remui %c, %[[C4]] : index
// CHECK:         memref.load %A[%[[Z:.*]], %[[CB]], %[[Z]], %[[Z]], %[[CI]]] : memref<1x3x3x3x4xf32>
// FLAT-LABEL: func.func @named_megengine(%A: memref<108xf32>, %c: index) -> f32 {
// FLAT:         arith.constant 36 : index
func.func @named_megengine(%A: memref<1x9x3x3xf32, #layout.tag<"NCHW4">>, %c: index) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %A[%c0, %c, %c0, %c0] : memref<1x9x3x3xf32, #layout.tag<"NCHW4">>
  func.return %x : f32
}

// HTP crouton (8x8x32 chunks) on 1x9x10x40: physical 1x2x2x2x8x8x32 = 16384 int8 slots.
// CHECK-LABEL: func.func @chunked_crouton(%A: memref<1x2x2x2x8x8x32xi8>, %h: index, %w: index, %c: index) -> i8 {
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[HB:.*]] = arith.divui %h, %[[C8]] : index
// CHECK-DAG:     %[[WB:.*]] = arith.divui %w, %[[C8]] : index
// CHECK-DAG:     %[[CB:.*]] = arith.divui %c, %[[C32]] : index
// CHECK-DAG:     %[[HI:.*]] = arith.remui %h, %[[C8]] : index
// CHECK-DAG:     %[[WI:.*]] = arith.remui %w, %[[C8]] : index
// CHECK-DAG:     %[[CI:.*]] = arith.remui %c, %[[C32]] : index
// CHECK:         memref.load %A[%{{.*}}, %[[HB]], %[[WB]], %[[CB]], %[[HI]], %[[WI]], %[[CI]]] : memref<1x2x2x2x8x8x32xi8>
// FLAT-LABEL: func.func @chunked_crouton(%A: memref<16384xi8>, %h: index, %w: index, %c: index) -> i8 {
// FLAT-DAG:     arith.constant 8192 : index
// FLAT-DAG:     arith.constant 4096 : index
// FLAT-DAG:     arith.constant 2048 : index
// FLAT-DAG:     arith.constant 256 : index
// FLAT:         memref.load %A[%{{.*}}] : memref<16384xi8>
func.func @chunked_crouton(%A: memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>, %h: index, %w: index, %c: index) -> i8 {
  %c0 = arith.constant 0 : index
  %x = memref.load %A[%c0, %h, %w, %c] : memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
  func.return %x : i8
}

// R4Crouton2x2Layout's pairs (N, H, W, C, H4, W4, C32, H2, W2): h splits three ways,
// h/8, (h/2)%4, h%2; physical 1x2x2x2x4x4x32x2x2.
// CHECK-LABEL: func.func @chunked_crouton2x2(%A: memref<1x2x2x2x4x4x32x2x2xi8>, %h: index) -> i8 {
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[HB:.*]] = arith.divui %h, %[[C8]] : index
// CHECK-DAG:     %[[H2:.*]] = arith.divui %h, %[[C2]] : index
// CHECK-DAG:     %[[H4:.*]] = arith.remui %[[H2]], %[[C4]] : index
// CHECK-DAG:     %[[HI:.*]] = arith.remui %h, %[[C2]] : index
// CHECK:         memref.load %A[%[[Z:.*]], %[[HB]], %[[Z]], %[[Z]], %[[H4]], %[[Z]], %[[Z]], %[[HI]], %[[Z]]] : memref<1x2x2x2x4x4x32x2x2xi8>
// FLAT-LABEL: func.func @chunked_crouton2x2(%A: memref<16384xi8>, %h: index) -> i8 {
func.func @chunked_crouton2x2(%A: memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>, %h: index) -> i8 {
  %c0 = arith.constant 0 : index
  %x = memref.load %A[%c0, %h, %c0, %c0] : memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
  func.return %x : i8
}

// #layout.map with an explicit physical shape: 4x4 tiles of 13x10, tiles in transposed order.
// CHECK-LABEL: func.func @map(%A: memref<3x4x4x4xf32>, %i: index, %j: index) -> f32 {
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[JB:.*]] = arith.divui %j, %[[C4]] : index
// CHECK-DAG:     %[[IB:.*]] = arith.divui %i, %[[C4]] : index
// CHECK-DAG:     %[[JI:.*]] = arith.remui %j, %[[C4]] : index
// CHECK-DAG:     %[[II:.*]] = arith.remui %i, %[[C4]] : index
// CHECK:         memref.load %A[%[[JB]], %[[IB]], %[[JI]], %[[II]]] : memref<3x4x4x4xf32>
// FLAT-LABEL: func.func @map(%A: memref<192xf32>, %i: index, %j: index) -> f32 {
func.func @map(%A: memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>, shape = [3, 4, 4, 4]>>, %i: index, %j: index) -> f32 {
  %x = memref.load %A[%i, %j] : memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>, shape = [3, 4, 4, 4]>>
  func.return %x : f32
}

// #layout.strided<[40, 1], offset = 3> on 4x30: a 1-D buffer of 3 + 3·40 + 29 + 1 = 153
// elements, offset 40·i + j + 3 (already flat, so flatten=true changes nothing).
// CHECK-LABEL: func.func @strided(%A: memref<153xf32>, %i: index, %j: index) -> f32 {
// CHECK-NEXT:    %[[C40:.*]] = arith.constant 40 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %i, %[[C40]] : index
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[M]], %j : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.addi %[[S]], %[[C3]] : index
// CHECK-NEXT:    %[[X:.*]] = memref.load %A[%[[OFF]]] : memref<153xf32>
// CHECK-NEXT:    func.return %[[X]] : f32
// FLAT-LABEL: func.func @strided(%A: memref<153xf32>, %i: index, %j: index) -> f32 {
// FLAT:         memref.load %A[%{{.*}}] : memref<153xf32>
func.func @strided(%A: memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>, %i: index, %j: index) -> f32 {
  %x = memref.load %A[%i, %j] : memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>
  func.return %x : f32
}
