// linalg on memrefs in upstream's custom syntax (mlir/test/Dialect/Linalg/named-ops.mlir,
// roundtrip.mlir).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

func.func @named(%A: memref<4x8xf32>, %B: memref<8x16xf32>, %C: memref<4x16xf32>,
                 %BA: memref<2x4x8xf32>, %BB: memref<2x8x16xf32>, %BC: memref<2x4x16xf32>, %f: f32) {
  linalg.fill ins(%f : f32) outs(%C : memref<4x16xf32>)
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  linalg.batch_matmul ins(%BA, %BB : memref<2x4x8xf32>, memref<2x8x16xf32>) outs(%BC : memref<2x4x16xf32>)
  linalg.copy ins(%A : memref<4x8xf32>) outs(%A : memref<4x8xf32>)
  %T = memref.alloc() : memref<8x4xf32>
  linalg.transpose ins(%A : memref<4x8xf32>) outs(%T : memref<8x4xf32>) permutation = [1, 0]
  %V = memref.alloc() : memref<8xf32>
  linalg.broadcast ins(%V : memref<8xf32>) outs(%A : memref<4x8xf32>) dimensions = [0]
  linalg.reduce ins(%A : memref<4x8xf32>) outs(%V : memref<8xf32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  linalg.add ins(%A, %A : memref<4x8xf32>, memref<4x8xf32>) outs(%A : memref<4x8xf32>)
  linalg.mul ins(%A, %A : memref<4x8xf32>, memref<4x8xf32>) outs(%A : memref<4x8xf32>)
  linalg.exp ins(%A : memref<4x8xf32>) outs(%A : memref<4x8xf32>)
  linalg.max ins(%A, %A : memref<4x8xf32>, memref<4x8xf32>) outs(%A : memref<4x8xf32>)
  %W = memref.alloc() : memref<4xf32>
  linalg.matvec ins(%A, %V : memref<4x8xf32>, memref<8xf32>) outs(%W : memref<4xf32>)
  %S = memref.alloc() : memref<f32>
  linalg.dot ins(%V, %V : memref<8xf32>, memref<8xf32>) outs(%S : memref<f32>)
  return
}

func.func @convolutions(%I: memref<1x3x10x10xf32>, %F: memref<8x3x3x3xf32>, %O: memref<1x8x8x8xf32>,
                        %In: memref<1x10x10x3xf32>, %Fh: memref<3x3x3x8xf32>, %On: memref<1x8x8x8xf32>,
                        %Fd: memref<3x3x3xf32>, %Od: memref<1x8x8x3xf32>, %K: memref<2x2xf32>,
                        %P: memref<1x5x5x3xf32>, %Pc: memref<1x3x5x5xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<1x3x10x10xf32>, memref<8x3x3x3xf32>) outs(%O : memref<1x8x8x8xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%In, %Fh : memref<1x10x10x3xf32>, memref<3x3x3x8xf32>) outs(%On : memref<1x8x8x8xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%In, %Fd : memref<1x10x10x3xf32>, memref<3x3x3xf32>) outs(%Od : memref<1x8x8x3xf32>)
  linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%In, %K : memref<1x10x10x3xf32>, memref<2x2xf32>) outs(%P : memref<1x5x5x3xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%In, %K : memref<1x10x10x3xf32>, memref<2x2xf32>) outs(%P : memref<1x5x5x3xf32>)
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %K : memref<1x3x10x10xf32>, memref<2x2xf32>) outs(%Pc : memref<1x3x5x5xf32>)
  return
}

func.func @generic(%A: memref<4x8xf32>, %B: memref<8x4xf32>, %R: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id2, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<4x8xf32>) outs(%B : memref<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %t = arith.index_cast %s : index to i32
    %u = arith.sitofp %t : i32 to f32
    %v = arith.addf %a, %u : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%A : memref<4x8xf32>) outs(%R : memref<4xf32>) attrs = {my.tag = 1 : i32} {
  ^bb0(%a: f32, %r: f32):
    %s = arith.addf %a, %r : f32
    linalg.yield %s : f32
  }
  return
}
