// A depthwise 3x3 convolution (one filter per channel) on logical NCHW, input and output in
// nChw16c, filters C x 1 x 3 x 3 stored OIhw16o (16 channels innermost). Each channel
// reduces over its own 3x3 window only, so layout-schedule vectorizes over the channels of
// all three buffers and keeps several output pixels' accumulators in registers.
//   layout-run examples/depthwise_conv_schedule.mlir --check -p layout-schedule,layout-lower
func.func @main(%input: memref<1x32x10x12xf32>, %filters: memref<32x1x3x3xf32>,
                %output: memref<1x32x8x10xf32>) {
  layout.assign %input to #layout.tag<"NCHW->nChw16c"> : memref<1x32x10x12xf32>
  layout.assign %filters to #layout.tag<"OIHW->OIhw16o"> : memref<32x1x3x3xf32>
  layout.assign %output to #layout.tag<"NCHW->nChw16c"> : memref<1x32x8x10xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %c = 0 to 32 {
    affine.for %oh = 0 to 8 {
      affine.for %ow = 0 to 10 {
        affine.store %zero, %output[0, %c, %oh, %ow] : memref<1x32x8x10xf32>
        affine.for %kh = 0 to 3 {
          affine.for %kw = 0 to 3 {
            %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : memref<1x32x10x12xf32>
            %w = affine.load %filters[%c, 0, %kh, %kw] : memref<32x1x3x3xf32>
            %acc = affine.load %output[0, %c, %oh, %ow] : memref<1x32x8x10xf32>
            %p = arith.mulf %x, %w : f32
            %s = arith.addf %acc, %p : f32
            affine.store %s, %output[0, %c, %oh, %ow] : memref<1x32x8x10xf32>
          }
        }
      }
    }
  }
  func.return
}
