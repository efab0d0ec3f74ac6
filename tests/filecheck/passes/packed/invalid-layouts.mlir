// Packed layouts that do not fit their memref are refused before layout-lower runs: the
// verification walk names the op, where the memref is, its type and what is wrong.
// RUN: layout-opt %s --split-input-file -p layout-lower --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s --split-input-file -p layout-lower 2>&1 | filecheck %s --check-prefix=FIRST

// Container too small: six i2 lanes need 12 bits.
// FIRST: invalid layout in func.func (property 'function_type'): memref<2x12xi2, #layout.tag<"RW->RW6w", pack = i8>>: pack container i8 is too small: 6 lanes x 2 bits = 12 bits
// FIRST-NOT: float_in_integer
// CHECK: invalid layout in func.func (property 'function_type'): memref<2x12xi2, #layout.tag<"RW->RW6w", pack = i8>>: pack container i8 is too small: 6 lanes x 2 bits = 12 bits
func.func @too_small(%m: memref<2x12xi2, #layout.tag<"RW->RW6w", pack = i8>>) {
  func.return
}

// -----
// An integer container for float elements (a vector container would do: vector<2xf32>).
// CHECK: invalid layout in memref.alloc (result %m): memref<4x6xf32, #layout.tag<"RC->RC2c", pack = i64>>: integer container i64 holds integer elements only, not f32
func.func @float_in_integer() {
  %m = memref.alloc() : memref<4x6xf32, #layout.tag<"RC->RC2c", pack = i64>>
  func.return
}

// -----
// The vector length must be the lane count, the innermost physical extent (here the 6 of C6).
// CHECK: invalid layout in func.func (property 'function_type'): memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<8xi1>>>: pack = vector<8xi1> has 8 lanes, but the innermost physical dim has 6
func.func @vector_length(%m: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<8xi1>>>) {
  func.return
}

// -----
// ... and its element type the memref's.
// CHECK: invalid layout in func.func (property 'function_type'): memref<2x12xi1, #layout.tag<"RW->RW6w", pack = vector<6xi2>>>: pack = vector<6xi2> holds i2, but the element type is i1
func.func @vector_element(%m: memref<2x12xi1, #layout.tag<"RW->RW6w", pack = vector<6xi2>>>) {
  func.return
}
