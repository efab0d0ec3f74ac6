// bit_order orders the lanes inside an integer; a vector container has no bit order, so
// `bit_order = "msb"` on a vector pack is a parse error at the attribute.
// RUN: layout-opt %s --split-input-file -p layout-lower --parsing-diagnostics | filecheck %s
// RUN: not layout-opt %s --split-input-file -p layout-lower 2>&1 | filecheck %s --check-prefix=FIRST

// FIRST: layout-opt: error: {{.*}}invalid-bit-order.mlir:[[# @LINE + 3]]:51: #layout.tag: pack = vector<6xi1>: bit_order applies to integer containers only, a vector container has no bit order
// FIRST-NOT: {{.}}
// CHECK: invalid-bit-order.mlir:[[# @LINE + 1]]:51
func.func @msb(%m: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>, bit_order = "msb">>) {
  func.return
}
// CHECK: #layout.tag: pack = vector<6xi1>: bit_order applies to integer containers only, a vector container has no bit order


// -----
// The same for a target layout: Sophgo's 2IC mode with f32 pairs in vector<2xf32>.
// CHECK: invalid-bit-order.mlir:[[# @LINE + 1]]:51
func.func @tpu(%m: memref<3x5x2x2xf32, #layout.tpu<lanes = 4, mode = "2IC", pack = vector<2xf32>, bit_order = "msb">>) {
  func.return
}
// CHECK: #layout.tpu: pack = vector<2xf32>: bit_order applies to integer containers only, a vector container has no bit order
