// Dense float literals with hexadecimal elements, as upstream MLIR prints NaN and infinities:
// each such element is the float's bits (0x7FC00000 is NaN, 0xFF800000 -inf), in lists,
// nested lists and splats, for f16, f32 and f64; an integer literal's hexadecimal element is
// its value.
memref.global "private" constant @nan_inf : memref<4xf32> = dense<[1.000000e+00, 0x7FC00000, 0xFF800000, 0x7F800000]>
memref.global "private" constant @splat : memref<2x3xf32> = dense<0xFF800000>
memref.global "private" constant @nested : memref<2x2xf32> = dense<[[0x7FC00000, 1.000000e+00], [2.000000e+00, 0xFF800000]]>
memref.global "private" constant @wide : memref<2xf64> = dense<[0x7FF0000000000000, 2.500000e+00]>
memref.global "private" constant @half : memref<2xf16> = dense<[0x7C00, 1.000000e+00]>
memref.global "private" constant @integers : memref<2xi32> = dense<[0x7FC00000, 3]>

func.func @scalars() -> (f32, tensor<2xf32>) {
  %0 = arith.constant 0xFF800000 : f32
  %1 = arith.constant dense<[0x7FC00000, -2.000000e+00]> : tensor<2xf32>
  return %0, %1 : f32, tensor<2xf32>
}
