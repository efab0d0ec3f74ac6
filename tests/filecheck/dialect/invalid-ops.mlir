// layout.assign and layout.convert that do not verify, one error per chunk.
// RUN: layout-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=FIRST

// FIRST: {{.*}}invalid-ops.mlir:[[# @LINE + 4]]:3: error: layout.assign: the memref already has layout #layout.tag<"NCHW->nhwc">; it cannot be assigned #layout.tag<"NCHW->nChw16c"> (layout.convert it into a new buffer instead)
// FIRST-NOT: @assign_rank
// CHECK: layout.assign: the memref already has layout #layout.tag<"NCHW->nhwc">; it cannot be assigned #layout.tag<"NCHW->nChw16c"> (layout.convert it into a new buffer instead)
func.func @assign_other(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>) {
  layout.assign %m to #layout.tag<"NCHW->nChw16c"> : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  func.return
}

// -----
// CHECK: layout.assign: #layout.tag<"NCHW->nChw16c"> does not fit memref<2x17xf32>: the layout has rank 4 but the memref shape 2x17 has rank 2
func.func @assign_rank(%m: memref<2x17xf32>) {
  layout.assign %m to #layout.tag<"NCHW->nChw16c"> : memref<2x17xf32>
  func.return
}

// -----
// CHECK: layout.assign: #layout.tag<"NHWC->NHWC6c", pack = i4> does not fit memref<1x4x4x12xi1>: pack container i4 is too small: 6 lanes x 1 bits = 6 bits
func.func @assign_pack(%m: memref<1x4x4x12xi1>) {
  layout.assign %m to #layout.tag<"NHWC->NHWC6c", pack = i4> : memref<1x4x4x12xi1>
  func.return
}

// -----
// CHECK: two different layouts assigned to one buffer in layout.assign: #layout.tag<"NCHW->nChw16c"> here, #layout.tag<"NCHW->nChw8c"> by an earlier layout.assign
func.func @two_assigns(%m: memref<2x17x5x4xf32>) {
  layout.assign %m to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>
  layout.assign %m to #layout.tag<"NCHW->nChw16c"> : memref<2x17x5x4xf32>
  func.return
}

// -----
// One buffer seen through memref.cast is still one buffer.
// CHECK: two different layouts assigned to one buffer in layout.assign: #layout.tag<"NCHW->nhwc"> here, #layout.tag<"NCHW->nChw8c"> by an earlier layout.assign
func.func @two_assigns_through_cast(%m: memref<2x17x5x4xf32>) {
  %c = "memref.cast"(%m) : (memref<2x17x5x4xf32>) -> memref<?x17x5x4xf32>
  layout.assign %m to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>
  layout.assign %c to #layout.tag<"NCHW->nhwc"> : memref<?x17x5x4xf32>
  func.return
}

// -----
// CHECK: layout.convert: source and destination must have the same logical shape, got 2x17 and 2x18
func.func @convert_shape(%a: memref<2x17xf32>, %b: memref<2x18xf32, #layout.tag<"NC->CN">>) {
  layout.convert %a to %b : memref<2x17xf32> to memref<2x18xf32, #layout.tag<"NC->CN">>
  func.return
}

// -----
// CHECK: layout.convert: source and destination must have the same logical shape, got ?x17 and 2x17
func.func @convert_dynamic(%a: memref<?x17xf32>, %b: memref<2x17xf32, #layout.tag<"NC->CN">>) {
  layout.convert %a to %b : memref<?x17xf32> to memref<2x17xf32, #layout.tag<"NC->CN">>
  func.return
}

// -----
// CHECK: layout.convert: source and destination must have the same element type, got f32 and f16
func.func @convert_type(%a: memref<2x17xf32>, %b: memref<2x17xf16, #layout.tag<"NC->CN">>) {
  layout.convert %a to %b : memref<2x17xf32> to memref<2x17xf16, #layout.tag<"NC->CN">>
  func.return
}

// -----
// CHECK: operand 'destination' at position 1 does not verify:
// CHECK-NEXT: tensor<4xf32> should be of base attribute memref
func.func @convert_not_memref(%a: memref<4xf32>, %b: tensor<4xf32>) {
  "layout.convert"(%a, %b) : (memref<4xf32>, tensor<4xf32>) -> ()
  func.return
}
