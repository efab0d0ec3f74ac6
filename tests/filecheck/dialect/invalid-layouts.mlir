// Layouts that parse but do not fit their memref: the verification walk that layout-opt runs
// after parsing names the op, where the memref is, its type and what is wrong.
// RUN: layout-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s --split-input-file --allow-unregistered-dialect 2>&1 | filecheck %s --check-prefix=FIRST
// RUN: layout-opt %s --split-input-file --allow-unregistered-dialect --disable-verify | filecheck %s --check-prefix=UNCHECKED

// FIRST: {{.*}}invalid-layouts.mlir:[[# @LINE + 4]]:1: error: invalid layout in func.func (property 'function_type'): memref<2x17xf32, #layout.tag<"NCHW->nChw8c">>: the layout has rank 4 but the memref shape 2x17 has rank 2
// FIRST-NOT: func.func @injective
// UNCHECKED: func.func @rank(%a: memref<2x17xf32, #layout.tag<"NCHW->nChw8c">>)
// CHECK: invalid layout in func.func (property 'function_type'): memref<2x17xf32, #layout.tag<"NCHW->nChw8c">>: the layout has rank 4 but the memref shape 2x17 has rank 2
func.func @rank(%a: memref<2x17xf32, #layout.tag<"NCHW->nChw8c">>) {
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<4x5xf32, #layout.map<affine_map<(d0, d1, d2) -> (d0, d1, d2)>>>: the layout has rank 3 but the memref shape 4x5 has rank 2
func.func @map_rank(%a: memref<4x5xf32, #layout.map<affine_map<(d0, d1, d2) -> (d0, d1, d2)>>>) {
  func.return
}

// -----
// CHECK: invalid layout in memref.alloc (result %m): memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d0 + d1)>>>: the map is not injective on 4x4: logical indices (0, 1) and (1, 0) both map to physical index (1,)
func.func @injective() {
  %m = memref.alloc() : memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d0 + d1)>>>
  func.return
}

// -----
// A builtin affine_map layout is a #layout.map too.
// CHECK: invalid layout in memref.alloca (result %m): memref<4x4xf32, affine_map<(d0, d1) -> ((d0 mod 2), d1)>>: the map is not injective on 4x4: logical indices (0, 0) and (2, 0) both map to physical index (0, 0)
func.func @builtin_map() {
  %m = memref.alloca() : memref<4x4xf32, affine_map<(d0, d1) -> (d0 mod 2, d1)>>
  func.return
}

// -----
// CHECK: invalid layout in memref.alloc (result %m): memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>, shape = [4, 3]>>: physical dim 1 has extent 3, but result 'd0' reaches 4
func.func @short_shape() {
  %m = memref.alloc() : memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>, shape = [4, 3]>>
  func.return
}

// -----
// CHECK: invalid layout in memref.alloc (result %m): memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d1 - 2, d0)>>>: result 'd1 {{.*}}2' is negative (-2) at logical index (0, 0)
func.func @negative() {
  %m = memref.alloc() : memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d1 - 2, d0)>>>
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i4>>: pack container i4 is too small: 6 lanes x 1 bits = 6 bits
func.func @pack_capacity(%a: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i4>>) {
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<4xi1>>>: pack = vector<4xi1> has 4 lanes, but the innermost physical dim has 6
func.func @pack_lanes(%a: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<4xi1>>>) {
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<4x8xf32, #layout.tag<"NC->NC8c", pack = i32>>: integer container i32 holds integer elements only, not f32
func.func @pack_float(%a: memref<4x8xf32, #layout.tag<"NC->NC8c", pack = i32>>) {
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 300>>: pad 300 does not fit element type i8 (allowed: -128 to 255)
func.func @pad_range(%a: memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 300>>) {
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<16xi4, #layout.tag<"C->C8c", pad = 2.5>>: pad 2.5 is not an integer, but the element type is i4
func.func @pad_fraction(%a: memref<16xi4, #layout.tag<"C->C8c", pad = 2.5>>) {
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<?xf32, #layout.map<affine_map<(d0) -> (d0 * -1 + 10)>>>: result part 'd0 * -1' falls as a '?' size grows, so the result is negative for large sizes
func.func @dynamic_negative(%a: memref<?xf32, #layout.map<affine_map<(d0) -> (d0 * -1 + 10)>>>) {
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<?xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, shape = [2, 4]>>: physical dim 0 has extent 2, but result 'd0 floordiv 4' reaches d0 ceildiv 4 (over the sizes d<i> of the logical dims); give it as '?'
func.func @dynamic_shape(%a: memref<?xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, shape = [2, 4]>>) {
  func.return
}

// -----
// A clash shows within two periods of the tiles (8 here): size 17 stands for every size.
// CHECK: invalid layout in func.func (property 'function_type'): memref<?xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 8, d0 mod 4)>>>: layout '#layout.map<affine_map<(d0) -> (d0 floordiv 8, d0 mod 4)>>' (size 17 stands for every size): the map is not injective on 17: logical indices (0,) and (4,) both map to physical index (0, 0)
func.func @dynamic_clash(%a: memref<?xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 8, d0 mod 4)>>>) {
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<?x8xf32, #layout.strided<[8, 1], offset = 0>>: strided layouts need a static shape ('?' given)
func.func @dynamic_strided(%a: memref<?x8xf32, #layout.strided<[8, 1], offset = 0>>) {
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<4x4xvector<4xf32>, #layout.tag<"NC->CN">>: element type vector<4xf32> is not supported in a layout-typed memref (supported: f16, bf16, f32, f64, iN, siN, uiN, index)
func.func @vector_element(%a: memref<4x4xvector<4xf32>, #layout.tag<"NC->CN">>) {
  func.return
}

// -----
// memref.global has no custom syntax in xDSL 0.74: its type is checked in the generic form.
// CHECK: invalid layout in memref.global (property 'type'): memref<4x4xi8, #layout.tag<"NC->NC8c", pack = i32>>: pack container i32 is too small: 8 lanes x 8 bits = 64 bits
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<4x4xi8, #layout.tag<"NC->NC8c", pack = i32>>, initial_value}> : () -> ()

// -----
// Block arguments of any region are checked (here an unregistered op's region).
// CHECK: invalid layout in test.region (block argument %acc): memref<3x5xf32, #layout.tag<"NCHW->NCHW4c">>: the layout has rank 4 but the memref shape 3x5 has rank 2
func.func @region() {
  "test.region"() ({
  ^bb0(%acc: memref<3x5xf32, #layout.tag<"NCHW->NCHW4c">>):
    "test.end"() : () -> ()
  }) : () -> ()
  func.return
}
