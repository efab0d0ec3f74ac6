// Target layouts that parse but do not fit their memref: the verification walk names the
// op, where the memref is, its type and what is wrong.
// RUN: layout-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A TPU layout needs a 4-D NCHW memref.
// CHECK: invalid layout in func.func (property 'function_type'): memref<5x4x3xf32, #layout.tpu<lanes = 4, start = 0, stride = aligned>>: #layout.tpu needs a 4-D NCHW memref, not 5x4x3 (rank 3)
func.func @rank(%a: memref<5x4x3xf32, #layout.tpu<lanes = 4>>) {
  func.return
}

// -----
// Strides that overlap within a lane: H stride 2 = 2 · W stride, but W = 3.
// CHECK: invalid layout in memref.alloc (result %m): memref<2x3x2x3xf32, #layout.tpu<lanes = 4, start = 0, stride = [8, 0, 2, 1]>>: stride = [8, 0, 2, 1] overlaps within lane 0: (0,0,0,2) and (0,0,1,0) are both at offset 2
func.func @overlap() {
  %m = memref.alloc() : memref<2x3x2x3xf32, #layout.tpu<lanes = 4, stride = [8, 0, 2, 1]>>
  func.return
}

// -----
// The 4N mode stores 8-bit integers.
// CHECK: invalid layout in memref.alloc (result %m): memref<6x5x4x5xf32, #layout.tpu<lanes = 4, start = 0, stride = aligned, mode = "4N">>: mode = "4N" stores an 8-bit integer (int8 or uint8), not f32
func.func @mode() {
  %m = memref.alloc() : memref<6x5x4x5xf32, #layout.tpu<lanes = 4, mode = "4N">>
  func.return
}

// -----
// An aligned tensor starts on a 128-byte boundary.
// CHECK: invalid layout in memref.alloca (result %m): memref<1x2x3x4xf32, #layout.tpu<lanes = 4, start = 1, stride = aligned, lmem = 1024, address = 1472>>: address 1472 is not a multiple of 128 bytes, as aligned needs
func.func @aligned_address() {
  %m = memref.alloca() : memref<1x2x3x4xf32, #layout.tpu<lanes = 4, lmem = 1024, address = 1472>>
  func.return
}

// -----
// Vivado's block partition of 13 elements by 4 gives the last bank 4 elements; no affine
// map says that, so the factor must divide the dim.
// CHECK: invalid layout in func.func (property 'function_type'): memref<13xi32, #layout.partition<block, dims = [0], factor = 4>>: block factor 4 does not divide dim 0 of extent 13
func.func @block(%a: memref<13xi32, #layout.partition<block, dims = [0], factor = 4>>) {
  func.return
}

// -----
// CHECK: invalid layout in memref.alloc (result %m): memref<8x8xf32, #layout.partition<cyclic, dims = [2], factor = 4>>: dim 2 is out of range for the 2-D shape 8x8 (dims count from 0)
func.func @dim() {
  %m = memref.alloc() : memref<8x8xf32, #layout.partition<cyclic, dims = [2], factor = 4>>
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<8x?xf32, #layout.partition<cyclic, dims = [1], factor = 2>>: dim 1 is dynamic ('?'); a partitioned dim needs a static extent
func.func @dynamic(%a: memref<8x?xf32, #layout.partition<cyclic, dims = [1], factor = 2>>) {
  func.return
}

// -----
// CHECK: invalid layout in func.func (property 'function_type'): memref<8x8xf32, #layout.partition<[complete, cyclic], dims = [0, 1], factor = [4, 2]>>: complete partition of dim 0 makes 8 banks, but its factor entry is 4
func.func @complete(%a: memref<8x8xf32, #layout.partition<[complete, cyclic], dims = [0, 1], factor = [4, 2]>>) {
  func.return
}
