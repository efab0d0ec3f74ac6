// Vectorization of the innermost physical block: the loop that walks the leading buffer's
// innermost physical dim becomes vectors of (vector width / element size) lanes, cut to
// the block; accesses along it become vector accesses (transfer_read/write along a logical
// dim that is not the last, affine.vector_load/store along the last), scalars that do not
// depend on it are broadcast. No reduction loops here, so no register tile. The default
// target is the host's (`HETEROLAYOUT_HOST_TARGET` stands in for the CPU).
// RUN: layout-opt %s -p 'layout-schedule{target=avx512}' | filecheck %s
// RUN: layout-opt %s -p 'layout-schedule{target=avx2}' | filecheck %s --check-prefix=AVX2
// RUN: layout-opt %s -p 'layout-schedule{target=avx512 vector_width=128}' | filecheck %s --check-prefix=SSE
// RUN: env HETEROLAYOUT_HOST_TARGET=avx2 layout-opt %s -p layout-schedule | filecheck %s --check-prefix=AVX2
// RUN: env HETEROLAYOUT_HOST_TARGET=avx512 layout-opt %s -p layout-schedule | filecheck %s

// CHECK-LABEL: func.func @scale(
// CHECK:         %[[S:.*]] = vector.broadcast %s : f32 to vector<16xf32>
// CHECK:         affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[H:.*]] = 0 to 3 {
// CHECK-NEXT:        affine.for %[[W:.*]] = 0 to 5 {
// CHECK-NEXT:          %[[C:.*]] = affine.apply affine_map<(d0) -> ((d0 * 16))> (%[[CB]])
// CHECK-NEXT:          %[[X:.*]] = vector.transfer_read %x[%{{.*}}, %[[C]], %[[H]], %[[W]]], %{{.*}} {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d1)>} : memref<1x32x3x5xf32, #layout.tag<"NCHW->nChw16c">>, vector<16xf32>
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X]], %[[S]] : vector<16xf32>
// CHECK-NEXT:          vector.transfer_write %[[P]], %y[%{{.*}}, %[[C]], %[[H]], %[[W]]] {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d1)>} : vector<16xf32>, memref<1x32x3x5xf32, #layout.tag<"NCHW->nChw16c">>
// AVX2-LABEL: func.func @scale(
// AVX2:         affine.for %[[CB:.*]] = 0 to 2 {
// AVX2-NEXT:      affine.for %{{.*}} = 0 to 3 {
// AVX2-NEXT:        affine.for %{{.*}} = 0 to 5 {
// AVX2-NEXT:          affine.for %[[CV:.*]] = 0 to 2 {
// AVX2-NEXT:            %[[C:.*]] = affine.apply affine_map<(d0, d1) -> (((d0 * 16) + (d1 * 8)))> (%[[CB]], %[[CV]])
// AVX2-NEXT:            vector.transfer_read %x[%{{.*}}, %[[C]], {{.*}} vector<8xf32>
// SSE-LABEL: func.func @scale(
// SSE:           vector.transfer_read {{.*}} vector<4xf32>
func.func @scale(%x: memref<1x32x3x5xf32, #layout.tag<"NCHW->nChw16c">>,
                 %y: memref<1x32x3x5xf32, #layout.tag<"NCHW->nChw16c">>, %s: f32) {
  affine.for %c = 0 to 32 {
    affine.for %h = 0 to 3 {
      affine.for %w = 0 to 5 {
        %v = affine.load %x[0, %c, %h, %w] : memref<1x32x3x5xf32, #layout.tag<"NCHW->nChw16c">>
        %p = arith.mulf %v, %s : f32
        affine.store %p, %y[0, %c, %h, %w] : memref<1x32x3x5xf32, #layout.tag<"NCHW->nChw16c">>
      }
    }
  }
  func.return
}

// Along the last logical dim the vector accesses are affine. The plain operand %b is
// contiguous along its last dim too; the loop over 20 columns makes one vector of 16 and
// one of 4.
// CHECK-LABEL: func.func @add_rows(
// CHECK:         affine.for %[[I:.*]] = 0 to 6 {
// CHECK-NEXT:      %[[A:.*]] = affine.vector_load %a[%[[I]], 0] : memref<6x20xi32, #layout.tag<"MN->MN">>, vector<16xi32>
// CHECK-NEXT:      %[[B:.*]] = affine.vector_load %b[%[[I]], 0] : memref<6x20xi32>, vector<16xi32>
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[A]], %[[B]] : vector<16xi32>
// CHECK-NEXT:      affine.vector_store %[[S]], %a[%[[I]], 0] : memref<6x20xi32, #layout.tag<"MN->MN">>, vector<16xi32>
// CHECK-NEXT:      %[[A4:.*]] = affine.vector_load %a[%[[I]], 16] : memref<6x20xi32, #layout.tag<"MN->MN">>, vector<4xi32>
// CHECK-NEXT:      %[[B4:.*]] = affine.vector_load %b[%[[I]], 16] : memref<6x20xi32>, vector<4xi32>
// CHECK-NEXT:      %[[S4:.*]] = arith.addi %[[A4]], %[[B4]] : vector<4xi32>
// CHECK-NEXT:      affine.vector_store %[[S4]], %a[%[[I]], 16] : memref<6x20xi32, #layout.tag<"MN->MN">>, vector<4xi32>
func.func @add_rows(%a: memref<6x20xi32, #layout.tag<"MN->MN">>, %b: memref<6x20xi32>) {
  affine.for %j = 0 to 20 {
    affine.for %i = 0 to 6 {
      %x = affine.load %a[%i, %j] : memref<6x20xi32, #layout.tag<"MN->MN">>
      %y = affine.load %b[%i, %j] : memref<6x20xi32>
      %s = arith.addi %x, %y : i32
      affine.store %s, %a[%i, %j] : memref<6x20xi32, #layout.tag<"MN->MN">>
    }
  }
  func.return
}

// int8 in HTP croutons: 512 bits would be 64 lanes, but only 32 channels are contiguous
// (the c32 block), so vectors have 32 lanes; the 8 channels past the last full block make a
// vector of 8.
// CHECK-LABEL: func.func @crouton_add(
// CHECK:         vector<32xi8>
// CHECK:         arith.addi {{.*}} : vector<32xi8>
// CHECK:         vector<8xi8>
// CHECK:         arith.addi {{.*}} : vector<8xi8>
func.func @crouton_add(%x: memref<1x8x8x40xi8, #layout.chunked<"R4CroutonLayout">>, %k: i8) {
  affine.for %h = 0 to 8 {
    affine.for %w = 0 to 8 {
      affine.for %c = 0 to 40 {
        %v = affine.load %x[0, %h, %w, %c] : memref<1x8x8x40xi8, #layout.chunked<"R4CroutonLayout">>
        %s = arith.addi %v, %k : i8
        affine.store %s, %x[0, %h, %w, %c] : memref<1x8x8x40xi8, #layout.chunked<"R4CroutonLayout">>
      }
    }
  }
  func.return
}

// A nearest upsample reads rows and columns `h floordiv 2`, `w floordiv 2`: the vector loop
// (the channels) walks only the channel dim, at unit stride, so the other dims' indices may
// be any affine function of the other loops.
// CHECK-LABEL: func.func @upsample(
// CHECK:         affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[H:.*]] = 0 to 6 {
// CHECK-NEXT:        affine.for %[[W:.*]] = 0 to 10 {
// CHECK-NEXT:          %[[C:.*]] = affine.apply affine_map<(d0) -> ((d0 * 16))> (%[[CB]])
// CHECK-NEXT:          %[[R:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 2))> (%[[H]])
// CHECK-NEXT:          %[[S:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 2))> (%[[W]])
// CHECK-NEXT:          %[[X:.*]] = vector.transfer_read %x[%{{.*}}, %[[C]], %[[R]], %[[S]]], {{.*}} : memref<1x32x3x5xf32, #layout.tag<"NCHW->nChw16c">>, vector<16xf32>
// CHECK-NEXT:          vector.transfer_write %[[X]], %y[%{{.*}}, %[[C]], %[[H]], %[[W]]]
func.func @upsample(%x: memref<1x32x3x5xf32, #layout.tag<"NCHW->nChw16c">>,
                    %y: memref<1x32x6x10xf32, #layout.tag<"NCHW->nChw16c">>) {
  affine.for %c = 0 to 32 {
    affine.for %h = 0 to 6 {
      affine.for %w = 0 to 10 {
        %v = affine.load %x[0, %c, %h floordiv 2, %w floordiv 2] : memref<1x32x3x5xf32, #layout.tag<"NCHW->nChw16c">>
        affine.store %v, %y[0, %c, %h, %w] : memref<1x32x6x10xf32, #layout.tag<"NCHW->nChw16c">>
      }
    }
  }
  func.return
}
