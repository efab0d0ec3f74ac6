// Layout attributes print canonically: default parameters dropped (pad = 0, bit_order = "lsb",
// a pad's type suffix), `offset:` spelled `offset =`, integer pads stay integers and float pads
// keep their point, parameters in the order pad, pack, bit_order. Tags print as written;
// chunked layouts given as HTP text (an alias, ChunkedMemoryLayout<…>, FlatMemoryLayout<…>)
// print as their pairs.
// RUN: layout-opt %s | filecheck %s
// RUN: xdsl-opt %s | filecheck %s

// CHECK-LABEL: func.func @canonical(
// CHECK-SAME: %a: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-SAME: %b: memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
// CHECK-SAME: %c: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i6>>
// CHECK-SAME: %d: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">>
// CHECK-SAME: %e: memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>
// CHECK-SAME: %f: memref<4x30xf32, #layout.strided<[30, 1], offset = 0>>
// CHECK-SAME: %g: memref<4x4xf64, #layout.map<affine_map<(d0, d1) -> (d1, d0)>, pad = 1.0e-20>>
// CHECK-SAME: %h: memref<1x3x4x4xf32, #layout.tag<"nhwc">>
// CHECK-SAME: %i: memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
// CHECK-SAME: %j: memref<2x3xf32, #layout.chunked<[0, 0, 1, 0]>>
// CHECK-SAME: %k: memref<2x3xf32, #layout.chunked<[1, 0, 0, 0]>>
func.func @canonical(
    %a: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c", pad = 0>>,
    %b: memref<1x9x10x40xi8, #layout.chunked<[0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32], pad = 31 : i64>>,
    %c: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", bit_order = "lsb", pack = i6>>,
    %d: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", bit_order = "msb", pack = i6, pad = 1>>,
    %e: memref<4x30xf32, #layout.strided<[40, 1], offset: 3>>,
    %f: memref<4x30xf32, #layout.strided<[30, 1]>>,
    %g: memref<4x4xf64, #layout.map<affine_map<(d0, d1) -> (d1, d0)>, pad = 1.0e-20>>,
    %h: memref<1x3x4x4xf32, #layout.tag<"nhwc">>,
    %i: memref<1x9x10x40xi8, #layout.chunked<"R4CroutonLayout", pad = 31>>,
    %j: memref<2x3xf32, #layout.chunked<"FlatMemoryLayout<2>">>,
    %k: memref<2x3xf32, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0>">>) {
  func.return
}
