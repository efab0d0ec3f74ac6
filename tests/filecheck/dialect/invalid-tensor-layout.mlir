// A #layout on a tensor type is an error naming the value: layouts lay out memory, so a
// tensor program is bufferized first (mlir-opt --one-shot-bufferize), then its buffers get
// layouts. layout-lower never leaves such a type in place.
// RUN: layout-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s --check-prefix=LOWER

// LOWER: func.func: %t has the tensor type tensor<4x8xf32, #layout.tag<"HW->WH">>; a #layout applies to memrefs only: bufferize (mlir-opt --one-shot-bufferize) and assign layouts to the buffers
// LOWER-NOT: builtin.module {
// CHECK: func.func: %t has the tensor type tensor<4x8xf32, #layout.tag<"HW->WH">>; a #layout applies to memrefs only
func.func @argument(%t: tensor<4x8xf32, #layout.tag<"HW->WH">>) -> tensor<4x8xf32, #layout.tag<"HW->WH">> {
  func.return %t : tensor<4x8xf32, #layout.tag<"HW->WH">>
}

// -----
// CHECK: tensor.empty: %e has the tensor type tensor<16xf32, #layout.tag<"W->W4w">>; a #layout applies to memrefs only
func.func @result() {
  %e = tensor.empty() : tensor<16xf32, #layout.tag<"W->W4w">>
  func.return
}
