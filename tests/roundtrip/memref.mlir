// memref ops in the custom syntax of upstream MLIR's own tests (mlir/test/Dialect/MemRef/ops.mlir).
#map = affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>

memref.global @memref0 : memref<2xf32>
memref.global constant @memref1 : memref<2xf32> = dense<[0.0, 1.0]>
memref.global @memref2 : memref<2xf32> = uninitialized
memref.global "private" @memref3 : memref<2xf32> = uninitialized
memref.global "private" constant @memref4 : memref<2xf32> = uninitialized
memref.global "private" constant @splat : memref<4x4xi32> = dense<7> {alignment = 64 : i64}
memref.global "private" @scalar : memref<f64> = dense<1.5>

func.func @alloc(%n: index, %s: index) {
  %0 = memref.alloc() : memref<1024x64xf32, affine_map<(d0, d1) -> (d0, d1)>, 1>
  %1 = memref.alloc(%n, %s) : memref<?x?xf32, 1>
  %2 = memref.alloc()[%n] : memref<2x4xf32, #map, 1>
  %3 = memref.alloc(%s)[%n] : memref<2x?xf32, #map, 1>
  %4 = memref.alloc() : memref<2 x i32>
  %5 = memref.alloc() {alignment = 64} : memref<2 x 3 x f32>
  %6 = memref.alloca() {alignment = 64} : memref<2 x i32>
  %7 = memref.alloca(%n) : memref<?x4xi8>
  memref.dealloc %0 : memref<1024x64xf32, affine_map<(d0, d1) -> (d0, d1)>, 1>
  memref.dealloc %4 : memref<2xi32>
  return
}

func.func @load_store(%m: memref<4x4xi32>, %i: index, %z: memref<i32>) {
  %0 = memref.load %m[%i, %i] : memref<4x4xi32>
  memref.store %0, %m[%i, %i] : memref<4x4xi32>
  %1 = memref.load %m[%i, %i] {nontemporal = true} : memref<4x4xi32>
  %2 = memref.load %z[] : memref<i32>
  memref.store %2, %z[] : memref<i32>
  memref.prefetch %m[%i, %i], write, locality<1>, data : memref<4x4xi32>
  memref.prefetch %m[%i, %i], read, locality<3>, instr : memref<4x4xi32>
  return
}

func.func @globals() -> f32 {
  %c1 = arith.constant 1 : index
  %0 = memref.get_global @memref1 : memref<2xf32>
  %1 = memref.load %0[%c1] : memref<2xf32>
  return %1 : f32
}

func.func @copy_cast_rank(%arg0: memref<4xf32>, %arg1: memref<?xf32>, %arg2: memref<64x16x4xf32, strided<[64, 4, 1], offset: 0>>) -> index {
  %0 = memref.cast %arg0 : memref<4xf32> to memref<?xf32>
  %1 = memref.cast %arg1 : memref<?xf32> to memref<4xf32>
  %2 = memref.cast %arg2 : memref<64x16x4xf32, strided<[64, 4, 1], offset: 0>> to memref<64x16x4xf32, strided<[?, ?, ?], offset: ?>>
  %3 = memref.cast %2 : memref<64x16x4xf32, strided<[?, ?, ?], offset: ?>> to memref<64x16x4xf32, strided<[64, 4, 1], offset: 0>>
  %4 = memref.cast %1 : memref<4xf32> to memref<*xf32>
  %5 = memref.cast %4 : memref<*xf32> to memref<4xf32>
  memref.copy %arg0, %5 : memref<4xf32> to memref<4xf32>
  memref.copy %4, %4 : memref<*xf32> to memref<*xf32>
  %r = memref.rank %arg2 : memref<64x16x4xf32, strided<[64, 4, 1], offset: 0>>
  %u = memref.rank %4 : memref<*xf32>
  %c0 = arith.constant 0 : index
  %d = memref.dim %arg1, %c0 : memref<?xf32>
  %s = arith.addi %r, %u : index
  %t = arith.addi %s, %d : index
  return %t : index
}

func.func @views(%arg0: memref<8x16x4xf32>, %i: index, %j: index, %k: index) {
  %0 = memref.subview %arg0[0, 0, 0] [4, 4, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<4x4x4xf32, strided<[64, 4, 1]>>
  %1 = memref.subview %arg0[%i, %j, %k] [4, 4, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<4x4x4xf32, strided<[64, 4, 1], offset: ?>>
  %2 = memref.subview %arg0[%i, 2, 0] [%j, 4, 4] [2, %k, 1] : memref<8x16x4xf32> to memref<?x4x4xf32, strided<[128, ?, 1], offset: ?>>
  %3 = memref.subview %arg0[1, %i, 0] [1, 4, 4] [1, 1, 1] : memref<8x16x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
  %4 = memref.subview %0[1, 1, 1] [2, 2, 2] [1, 1, 1] : memref<4x4x4xf32, strided<[64, 4, 1]>> to memref<2x2x2xf32, strided<[64, 4, 1], offset: 69>>
  %5 = memref.collapse_shape %arg0 [[0, 1], [2]] : memref<8x16x4xf32> into memref<128x4xf32>
  %6 = memref.expand_shape %5 [[0, 1], [2]] output_shape [8, 16, 4] : memref<128x4xf32> into memref<8x16x4xf32>
  %7 = memref.collapse_shape %arg0 [[0, 1, 2]] : memref<8x16x4xf32> into memref<512xf32>
  %d = memref.cast %7 : memref<512xf32> to memref<?xf32>
  %8 = memref.expand_shape %d [[0, 1]] output_shape [%i, 4] : memref<?xf32> into memref<?x4xf32>
  %9 = memref.reinterpret_cast %arg0 to offset: [0], sizes: [32, 16], strides: [16, 1] : memref<8x16x4xf32> to memref<32x16xf32>
  %10 = memref.reinterpret_cast %7 to offset: [%i], sizes: [10, %j], strides: [%j, 1] : memref<512xf32> to memref<10x?xf32, strided<[?, 1], offset: ?>>
  %11 = memref.collapse_shape %3 [[0, 1]] : memref<4x4xf32, strided<[4, 1], offset: ?>> into memref<16xf32, strided<[1], offset: ?>>
  %12 = memref.alloc() : memref<2048xi8>
  %13 = memref.view %12[%i][%j, %k] : memref<2048xi8> to memref<?x?xf32>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %3 : memref<4x4xf32, strided<[4, 1], offset: ?>> -> memref<f32>, index, index, index, index, index
  %14 = memref.transpose %arg0 (i, j, k) -> (k, i, j) : memref<8x16x4xf32> to memref<4x8x16xf32, strided<[1, 64, 4]>>
  memref.assume_alignment %arg0, 16 : memref<8x16x4xf32>
  return
}

func.func @scopes_and_atomics(%m: memref<10xf32>, %v: f32, %i: index) -> f32 {
  memref.alloca_scope {
    %a = memref.alloca() : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
  }
  %r = memref.alloca_scope -> (f32) {
    memref.alloca_scope.return %v : f32
  }
  %x = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<10xf32>) -> f32
  %s = memref.memory_space_cast %m : memref<10xf32> to memref<10xf32, 1>
  %p = memref.extract_aligned_pointer_as_index %m : memref<10xf32> -> index
  return %r : f32
}
