// Exact multiply-adds on AVX-512, where a broadcast read (the input pixel) moves with the
// tile's steps: the tile is one vector (16 of the 32 output channels) by the 8 output
// columns, so each broadcast has one multiply and folds into its memory operand ({1to16}).
// The columns' reads overlap along kw (column ow + kw), so kw stays a loop LLVM must not
// unroll: an scf.for with upstream's loop annotation, its reads memref.load at
// affine.apply indices (an scf.for counter is no affine dim). With fma=true the tile keeps
// two vectors (32 channels x 8 columns), each broadcast feeding two FMAs, and kw stays
// rolled too (unrolled, the broadcasts it merges stay live across it and spill: the ResNet
// stem). AVX2 has no embedded broadcasts: its exact tile (two vectors of 8 by 4 columns)
// keeps kw rolled too (16 registers: the steps' merged broadcasts do not fit beside its
// accumulators), its fused tile unrolls it. Upstream's lowering makes the hint LLVM's
// llvm.loop.unroll.disable.
// RUN: layout-opt %s -p 'layout-schedule{target=avx512}' | filecheck %s
// RUN: layout-opt %s -p 'layout-schedule{target=avx512 fma=true}' | filecheck %s --check-prefix=FMA
// RUN: layout-opt %s -p 'layout-schedule{target=avx2}' | filecheck %s --check-prefix=AVX2
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 fma=true}' | filecheck %s --check-prefix=YMMFUSED
// RUN: layout-opt %s -p 'layout-schedule{target=avx512 tile=1,16,1,4}' | filecheck %s --check-prefix=TILE
// RUN: layout-opt %s -p 'layout-schedule{target=avx512},layout-lower' | filecheck %s --check-prefix=LOWERED

// CHECK-LABEL: func.func @conv(
// CHECK:         affine.for %k = 0 to 2 {
// CHECK-NEXT:      affine.for %oh = 0 to 4 {
// CHECK-NEXT:      {{.*}} = affine.for %c = 0 to 16 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-NEXT:        {{.*}} = affine.for %kh = 0 to 3
// CHECK-NEXT:          {{.*}} = scf.for %kw = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK-NEXT:            %[[ROW:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%oh, %kh)
// CHECK-NEXT:            %[[X0:.*]] = memref.load %input[%{{.*}}, %c, %[[ROW]], %kw]
// CHECK-NEXT:            %[[K:.*]] = affine.apply affine_map<(d0) -> ((d0 * 16))> (%k)
// CHECK-NEXT:            %[[W:.*]] = vector.transfer_read %weights[%[[K]], %c, %kh, %kw]
// CHECK-NEXT:            %[[S0:.*]] = vector.broadcast %[[X0]] : f32 to vector<16xf32>
// CHECK-NEXT:            %[[P0:.*]] = arith.mulf %[[S0]], %[[W]] : vector<16xf32>
// CHECK-NEXT:            arith.addf %{{.*}}, %[[P0]] : vector<16xf32>
// CHECK-NEXT:            %[[C1:.*]] = affine.apply affine_map<(d0) -> ((d0 + 1))> (%kw)
// CHECK-NEXT:            memref.load %input[%{{.*}}, %c, %[[ROW]], %[[C1]]]
// CHECK-COUNT-6:         arith.mulf %{{.*}}, %[[W]] : vector<16xf32>
// CHECK:                 scf.yield
// CHECK-NEXT:          } {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}
// CHECK-NEXT:          affine.yield
// CHECK-NOT:     affine.for %kw

// FMA-LABEL: func.func @conv(
// FMA:           affine.for %oh = 0 to 4 {
// FMA-NEXT:        = affine.for %c = 0 to 16
// FMA-NEXT:          = affine.for %kh = 0 to 3
// FMA-NEXT:            = scf.for %kw =
// FMA:                   %[[X:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
// FMA-NEXT:              vector.fma %[[X]], %[[W0:.*]], %{{.*}} : vector<16xf32>
// FMA:                   vector.fma %[[X]], %{{.*}}, %{{.*}} : vector<16xf32>
// FMA:                 } {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}

// AVX2-LABEL: func.func @conv(
// AVX2:          affine.for %ow = 0 to 4 {
// AVX2:            = scf.for %kw =
// AVX2-COUNT-8:      arith.mulf %{{.*}} : vector<8xf32>
// AVX2-NOT:          arith.mulf
// AVX2:            } {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}
// AVX2-NOT:      affine.for %kw

// YMMFUSED-LABEL: func.func @conv(
// YMMFUSED:          affine.for %kw = 0 to 3
// YMMFUSED-NOT:      loop_annotation

// A tile the user gives that is one vector gets the rolled loop too: 8 columns as 2 x 4.
// TILE-LABEL: func.func @conv(
// TILE:          affine.for %ow = 0 to 2 {
// TILE:            scf.for %kw
// TILE-COUNT-4:      arith.mulf
// TILE:            } {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}

// LOWERED-LABEL: func.func @conv(%input: memref<1x1x6x10x16xf32>
// LOWERED:         scf.for %kw
// LOWERED:           memref.load %input
// LOWERED:         } {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}
func.func @conv(%input: memref<1x16x6x10xf32, #layout.tag<"NCHW->nChw16c">>, %weights: memref<32x16x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>, %output: memref<1x32x4x8xf32, #layout.tag<"NCHW->nChw16c">>) {
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 32 {
    affine.for %oh = 0 to 4 {
      affine.for %ow = 0 to 8 {
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x32x4x8xf32, #layout.tag<"NCHW->nChw16c">>
        affine.for %c = 0 to 16 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : memref<1x16x6x10xf32, #layout.tag<"NCHW->nChw16c">>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<32x16x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x32x4x8xf32, #layout.tag<"NCHW->nChw16c">>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x32x4x8xf32, #layout.tag<"NCHW->nChw16c">>
            }
          }
        }
      }
    }
  }
  func.return
}
