// Convolutions over zero-stuffed images, as torch-mlir lowers a ConvTranspose
// (tests/frontends/test_transposed_convolutions.py). `stride2` is a 3x3 ConvTranspose of
// stride 2, pads 1, output_padding 1 (2 -> 3 channels, 3x4 -> 6x8): the image is stuffed at
// offset 1 with stride 2 and the flipped weights slide over it; `stride3_by_1` stuffs rows
// only (stride 3, offset 0, a 2x2 kernel); `sequence` is a 1-D one (kernel 4, stride 2, pad 1). The rest must stay as they are: `nonzero_fill`
// stuffs into ones, `written_between` writes the input after copying it (`global_written_between`
// through a second `memref.get_global` of its global), `read_elsewhere` reads the stuffed
// image again, `dilated` slides a dilated kernel.
func.func @stride2(%x: memref<1x2x3x4xf32>, %w: memref<3x2x3x3xf32>, %y: memref<1x3x6x8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %image = memref.alloc() {alignment = 64 : i64} : memref<1x2x8x10xf32>
  linalg.fill ins(%zero : f32) outs(%image : memref<1x2x8x10xf32>)
  %view = memref.subview %image[0, 0, 1, 1] [1, 2, 3, 4] [1, 1, 2, 2] : memref<1x2x8x10xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  memref.copy %x, %view : memref<1x2x3x4xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%image, %w : memref<1x2x8x10xf32>, memref<3x2x3x3xf32>) outs(%y : memref<1x3x6x8xf32>)
  memref.dealloc %image : memref<1x2x8x10xf32>
  func.return
}

func.func @stride3_by_1(%x: memref<1x2x3x4xf32>, %w: memref<2x2x2x2xf32>, %y: memref<1x2x8x3xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %image = memref.alloc() : memref<1x2x9x4xf32>
  linalg.fill ins(%zero : f32) outs(%image : memref<1x2x9x4xf32>)
  %view = memref.subview %image[0, 0, 0, 0] [1, 2, 3, 4] [1, 1, 3, 1] : memref<1x2x9x4xf32> to memref<1x2x3x4xf32, strided<[72, 36, 12, 1]>>
  memref.copy %x, %view : memref<1x2x3x4xf32> to memref<1x2x3x4xf32, strided<[72, 36, 12, 1]>>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%image, %w : memref<1x2x9x4xf32>, memref<2x2x2x2xf32>) outs(%y : memref<1x2x8x3xf32>)
  memref.dealloc %image : memref<1x2x9x4xf32>
  func.return
}

func.func @sequence(%x: memref<1x3x5xf32>, %w: memref<2x3x4xf32>, %y: memref<1x2x10xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %image = memref.alloc() : memref<1x3x13xf32>
  linalg.fill ins(%zero : f32) outs(%image : memref<1x3x13xf32>)
  %view = memref.subview %image[0, 0, 2] [1, 3, 5] [1, 1, 2] : memref<1x3x13xf32> to memref<1x3x5xf32, strided<[39, 13, 2], offset: 2>>
  memref.copy %x, %view : memref<1x3x5xf32> to memref<1x3x5xf32, strided<[39, 13, 2], offset: 2>>
  linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%image, %w : memref<1x3x13xf32>, memref<2x3x4xf32>) outs(%y : memref<1x2x10xf32>)
  memref.dealloc %image : memref<1x3x13xf32>
  func.return
}

func.func @nonzero_fill(%x: memref<1x2x3x4xf32>, %w: memref<3x2x3x3xf32>, %y: memref<1x3x6x8xf32>) {
  %one = arith.constant 1.000000e+00 : f32
  %image = memref.alloc() : memref<1x2x8x10xf32>
  linalg.fill ins(%one : f32) outs(%image : memref<1x2x8x10xf32>)
  %view = memref.subview %image[0, 0, 1, 1] [1, 2, 3, 4] [1, 1, 2, 2] : memref<1x2x8x10xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  memref.copy %x, %view : memref<1x2x3x4xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%image, %w : memref<1x2x8x10xf32>, memref<3x2x3x3xf32>) outs(%y : memref<1x3x6x8xf32>)
  memref.dealloc %image : memref<1x2x8x10xf32>
  func.return
}

func.func @written_between(%x: memref<1x2x3x4xf32>, %w: memref<3x2x3x3xf32>, %y: memref<1x3x6x8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %image = memref.alloc() : memref<1x2x8x10xf32>
  linalg.fill ins(%zero : f32) outs(%image : memref<1x2x8x10xf32>)
  %view = memref.subview %image[0, 0, 1, 1] [1, 2, 3, 4] [1, 1, 2, 2] : memref<1x2x8x10xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  memref.copy %x, %view : memref<1x2x3x4xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  linalg.fill ins(%zero : f32) outs(%x : memref<1x2x3x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%image, %w : memref<1x2x8x10xf32>, memref<3x2x3x3xf32>) outs(%y : memref<1x3x6x8xf32>)
  memref.dealloc %image : memref<1x2x8x10xf32>
  func.return
}

func.func @read_elsewhere(%x: memref<1x2x3x4xf32>, %w: memref<3x2x3x3xf32>, %y: memref<1x3x6x8xf32>, %z: memref<1x2x8x10xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %image = memref.alloc() : memref<1x2x8x10xf32>
  linalg.fill ins(%zero : f32) outs(%image : memref<1x2x8x10xf32>)
  %view = memref.subview %image[0, 0, 1, 1] [1, 2, 3, 4] [1, 1, 2, 2] : memref<1x2x8x10xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  memref.copy %x, %view : memref<1x2x3x4xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%image, %w : memref<1x2x8x10xf32>, memref<3x2x3x3xf32>) outs(%y : memref<1x3x6x8xf32>)
  memref.copy %image, %z : memref<1x2x8x10xf32> to memref<1x2x8x10xf32>
  memref.dealloc %image : memref<1x2x8x10xf32>
  func.return
}

func.func @dilated(%x: memref<1x2x3x4xf32>, %w: memref<3x2x3x3xf32>, %y: memref<1x3x4x6xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %image = memref.alloc() : memref<1x2x8x10xf32>
  linalg.fill ins(%zero : f32) outs(%image : memref<1x2x8x10xf32>)
  %view = memref.subview %image[0, 0, 1, 1] [1, 2, 3, 4] [1, 1, 2, 2] : memref<1x2x8x10xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  memref.copy %x, %view : memref<1x2x3x4xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%image, %w : memref<1x2x8x10xf32>, memref<3x2x3x3xf32>) outs(%y : memref<1x3x4x6xf32>)
  memref.dealloc %image : memref<1x2x8x10xf32>
  func.return
}

memref.global "private" @input : memref<1x2x3x4xf32> = dense<2.000000e+00>

func.func @global_written_between(%w: memref<3x2x3x3xf32>, %y: memref<1x3x6x8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %x = memref.get_global @input : memref<1x2x3x4xf32>
  %image = memref.alloc() : memref<1x2x8x10xf32>
  linalg.fill ins(%zero : f32) outs(%image : memref<1x2x8x10xf32>)
  %view = memref.subview %image[0, 0, 1, 1] [1, 2, 3, 4] [1, 1, 2, 2] : memref<1x2x8x10xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  memref.copy %x, %view : memref<1x2x3x4xf32> to memref<1x2x3x4xf32, strided<[160, 80, 20, 2], offset: 11>>
  %again = memref.get_global @input : memref<1x2x3x4xf32>
  linalg.fill ins(%zero : f32) outs(%again : memref<1x2x3x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%image, %w : memref<1x2x8x10xf32>, memref<3x2x3x3xf32>) outs(%y : memref<1x3x6x8xf32>)
  memref.dealloc %image : memref<1x2x8x10xf32>
  func.return
}
