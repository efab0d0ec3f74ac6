// The same naive 3x3 convolution on logical NCHW / OIHW, now with channels-last layouts:
// input and output NHWC, weights HWIO (output channels innermost). layout-schedule walks
// the output in NHWC order (rows, columns, then channel vectors) and vectorizes over the
// output channels, which both the output and the weights store contiguously.
//   layout-run examples/conv2d_nhwc_schedule.mlir --check -p layout-schedule,layout-lower
func.func @main(%input: memref<1x16x6x7xf32>, %weights: memref<32x16x3x3xf32>,
                %output: memref<1x32x4x5xf32>) {
  layout.assign %input to #layout.tag<"nhwc"> : memref<1x16x6x7xf32>
  layout.assign %weights to #layout.tag<"OIHW->HWIO"> : memref<32x16x3x3xf32>
  layout.assign %output to #layout.tag<"nhwc"> : memref<1x32x4x5xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 32 {
    affine.for %oh = 0 to 4 {
      affine.for %ow = 0 to 5 {
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x32x4x5xf32>
        affine.for %c = 0 to 16 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : memref<1x16x6x7xf32>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<32x16x3x3xf32>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x32x4x5xf32>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x32x4x5xf32>
            }
          }
        }
      }
    }
  }
  func.return
}
