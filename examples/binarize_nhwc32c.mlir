// Binarisation into a bit-packed tensor, then a bitwise map of two packed tensors, both
// element by element on logical NCHW. The bits are stored NHWC32c in i32 words; C = 40
// leaves a partial second word (8 channels, 24 pad lanes that must stay 0).
//   layout-run examples/binarize_nhwc32c.mlir --check -p layout-schedule,layout-lower
// layout-schedule computes each word's 32 lanes together and stores the word once.
func.func @main(%x: memref<1x40x3x4xf32>, %mask: memref<1x40x3x4xi1>,
                %bits: memref<1x40x3x4xi1>, %kept: memref<1x40x3x4xi1>) {
  layout.assign %mask to #layout.tag<"NCHW->NHWC32c", pack = i32> : memref<1x40x3x4xi1>
  layout.assign %bits to #layout.tag<"NCHW->NHWC32c", pack = i32> : memref<1x40x3x4xi1>
  layout.assign %kept to #layout.tag<"NCHW->NHWC32c", pack = i32> : memref<1x40x3x4xi1>
  %zero = arith.constant 0.0 : f32
  %true = arith.constant true
  affine.for %c = 0 to 40 {
    affine.for %h = 0 to 3 {
      affine.for %w = 0 to 4 {
        %v = affine.load %x[0, %c, %h, %w] : memref<1x40x3x4xf32>
        %positive = arith.cmpf ogt, %v, %zero : f32
        affine.store %positive, %bits[0, %c, %h, %w] : memref<1x40x3x4xi1>
      }
    }
  }
  affine.for %c = 0 to 40 {
    affine.for %h = 0 to 3 {
      affine.for %w = 0 to 4 {
        %p = affine.load %bits[0, %c, %h, %w] : memref<1x40x3x4xi1>
        %m = affine.load %mask[0, %c, %h, %w] : memref<1x40x3x4xi1>
        %off = arith.xori %m, %true : i1
        %both = arith.andi %p, %off : i1
        affine.store %both, %kept[0, %c, %h, %w] : memref<1x40x3x4xi1>
      }
    }
  }
  func.return
}
