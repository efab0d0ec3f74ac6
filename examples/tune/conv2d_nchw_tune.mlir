// A direct 3x3 convolution (1x64x56x56 input, 64 -> 64 channels, no padding) written on
// plain logical NCHW / OIHW buffers, without any layout: the input of a layout search.
//   layout-tune examples/tune/conv2d_nchw_tune.mlir --report report/ -o best.mlir
//   layout-run best.mlir --check --engine native -p layout-schedule,layout-lower
func.func @main(%input: memref<1x64x56x56xf32>, %weights: memref<64x64x3x3xf32>,
                %output: memref<1x64x54x54xf32>) attributes {layout.flops = 214990848 : i64} {
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 64 {
    affine.for %oh = 0 to 54 {
      affine.for %ow = 0 to 54 {
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x64x54x54xf32>
        affine.for %c = 0 to 64 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : memref<1x64x56x56xf32>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<64x64x3x3xf32>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x64x54x54xf32>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x64x54x54xf32>
            }
          }
        }
      }
    }
  }
  func.return
}
