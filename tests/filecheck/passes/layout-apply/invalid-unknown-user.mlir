// A buffer that layout.assign lays out may reach only ops whose roles the op-role table
// knows: what an unknown op (unregistered, or of a dialect added later) does with it is
// unknown, and nothing is assumed harmless. Refused by name, directly or through a view,
// by layout-apply and by layout-lower (which runs it).
// RUN: layout-opt %s --split-input-file --allow-unregistered-dialect -p layout-apply --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s --allow-unregistered-dialect -p layout-lower 2>&1 | filecheck %s --check-prefix=LOWER

// CHECK: layout-apply: foo.bar takes memref<16xf32, #layout.tag<"W->W4w">>, a buffer that layout.assign lays out, and heterolayout does not know what foo.bar does with it (nothing is assumed harmless); pass it a plain copy (layout.convert) or assign the layout to another buffer
// LOWER: invalid-unknown-user.mlir:[[# @LINE + 3]]:3: error: layout-apply: foo.bar takes memref<16xf32, #layout.tag<"W->W4w">>
func.func @public_argument(%m: memref<16xf32>) {
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  "foo.bar"(%m) : (memref<16xf32>) -> ()
  func.return
}

// -----
// CHECK: layout-apply: foo.bar takes memref<4xf32, strided<[1], offset: 4>>, a buffer that layout.assign lays out, and heterolayout does not know what foo.bar does with it
func.func @view_of_allocation() {
  %a = memref.alloc() : memref<16xf32>
  layout.assign %a to #layout.tag<"W->W4w"> : memref<16xf32>
  %v = memref.subview %a[4] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 4>>
  "foo.bar"(%v) : (memref<4xf32, strided<[1], offset: 4>>) -> ()
  func.return
}

// -----
// An op the table knows but that has no role for a memref operand is refused the same way.
// CHECK: layout-apply: memref.extract_aligned_pointer_as_index takes memref<16xf32, #layout.tag<"W->W4w">>, a buffer that layout.assign lays out
func.func @no_role(%m: memref<16xf32>) -> index {
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  %p = "memref.extract_aligned_pointer_as_index"(%m) : (memref<16xf32>) -> index
  func.return %p : index
}
