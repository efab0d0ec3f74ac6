// layout-lower{validate=true}: an MSB-first integer container wider than its lanes (i57 of
// 8 x i7) keeps its unused bit at the bottom, so its lanes start one bit up (lane k at bits
// 50 - 7k to 57 - 7k). The tiled conversions into and out of such containers (a shift by
// one over the lanes' 56 bits) are proven against that placement; the validator once took
// the slots from bit 0 and refused both (fuzz seed 200139). They sit in two functions:
// in one, layout-fold-converts would fold the round trip into a memref.copy.
// RUN: layout-opt %s -p 'layout-lower{validate=true}' -o %t 2>&1 | filecheck %s
// RUN: filecheck %s --check-prefix=IR < %t

// CHECK: translation validation: 2 of 2 accesses proven (2 exhaustively, 16384 element accesses checked; 0 symbolically)
// IR-LABEL: func.func @into
// IR:         arith.shli %{{.*}}, %{{.*}} : i57
// IR-LABEL: func.func @out_of
// IR:         arith.shrui %{{.*}}, %{{.*}} : i57
func.func @into(%a: memref<64x128xi7>, %b: memref<64x128xi7, #layout.tag<"NW->NW8w", pack = i57, bit_order = "msb">>) {
  layout.convert %a to %b : memref<64x128xi7> to memref<64x128xi7, #layout.tag<"NW->NW8w", pack = i57, bit_order = "msb">>
  func.return
}
func.func @out_of(%b: memref<64x128xi7, #layout.tag<"NW->NW8w", pack = i57, bit_order = "msb">>, %c: memref<64x128xi7>) {
  layout.convert %b to %c : memref<64x128xi7, #layout.tag<"NW->NW8w", pack = i57, bit_order = "msb">> to memref<64x128xi7>
  func.return
}
