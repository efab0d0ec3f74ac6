// The loop nests that `mlir-opt --convert-linalg-to-loops` makes of linalg.fill and
// linalg.conv_2d_nchw_fchw (scf.for with constant bounds, memref.load/store, affine.apply
// indices), with layout.assigns added: both are scheduled like hand-written nests.
// RUN: layout-opt %s -p 'layout-schedule{target=avx512}' | filecheck %s

// The fill fuses into the convolution (`fusion`): its zeros seed the accumulators of a
// register tile over one channel vector (exact on AVX-512: `one_vector_tiles`) and 8 output
// columns; no loop stores zeros. The kw loop stays rolled (`rolled_loops`).
// CHECK-LABEL: func.func @conv(
// CHECK:         %[[Z:.*]] = vector.broadcast %cst : f32 to vector<16xf32>
// CHECK-NOT:     vector.transfer_write %[[Z]]
// CHECK:         affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT:        = affine.for %{{.*}} = 0 to 16 iter_args(%{{.*}} = %[[Z]], %{{.*}} = %[[Z]],
// CHECK-NEXT:          = affine.for %{{.*}} = 0 to 3 iter_args(
// CHECK-NEXT:            = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK:                   vector.transfer_read {{.*}} vector<16xf32>
// CHECK:                   arith.mulf {{.*}} : vector<16xf32>
// CHECK:                 } {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}
// CHECK:         func.return
#map = affine_map<(d0, d1) -> (d0 + d1)>
module {
  func.func @conv(%arg0: memref<1x16x10x10xf32>, %arg1: memref<32x16x3x3xf32>, %arg2: memref<1x32x8x8xf32>) {
    layout.assign %arg0 to #layout.tag<"NCHW->nChw16c"> : memref<1x16x10x10xf32>
    layout.assign %arg1 to #layout.tag<"OIHW->OIhw16i16o"> : memref<32x16x3x3xf32>
    layout.assign %arg2 to #layout.tag<"NCHW->nChw16c"> : memref<1x32x8x8xf32>
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c8 = arith.constant 8 : index
    scf.for %arg3 = %c0 to %c1 step %c1 {
      scf.for %arg4 = %c0 to %c32 step %c1 {
        scf.for %arg5 = %c0 to %c8 step %c1 {
          scf.for %arg6 = %c0 to %c8 step %c1 {
            memref.store %cst, %arg2[%arg3, %arg4, %arg5, %arg6] : memref<1x32x8x8xf32>
          }
        }
      }
    }
    scf.for %arg3 = %c0 to %c1 step %c1 {
      scf.for %arg4 = %c0 to %c32 step %c1 {
        scf.for %arg5 = %c0 to %c8 step %c1 {
          scf.for %arg6 = %c0 to %c8 step %c1 {
            scf.for %arg7 = %c0 to %c16 step %c1 {
              scf.for %arg8 = %c0 to %c3 step %c1 {
                scf.for %arg9 = %c0 to %c3 step %c1 {
                  %0 = affine.apply #map(%arg5, %arg8)
                  %1 = affine.apply #map(%arg6, %arg9)
                  %2 = memref.load %arg0[%arg3, %arg7, %0, %1] : memref<1x16x10x10xf32>
                  %3 = memref.load %arg1[%arg4, %arg7, %arg8, %arg9] : memref<32x16x3x3xf32>
                  %4 = memref.load %arg2[%arg3, %arg4, %arg5, %arg6] : memref<1x32x8x8xf32>
                  %5 = arith.mulf %2, %3 : f32
                  %6 = arith.addf %4, %5 : f32
                  memref.store %6, %arg2[%arg3, %arg4, %arg5, %arg6] : memref<1x32x8x8xf32>
                }
              }
            }
          }
        }
      }
    }
    return
  }
}


