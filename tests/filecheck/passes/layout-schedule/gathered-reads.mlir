// Gathered reads: where no loop can be vectorized with every access contiguous (and, with
// reassociate=true, no reduction either), a read that walks no contiguous run along the
// vector loop is loaded lane by lane into a vector, when the register tile's copies share
// it (a loop another read depends on and it does not). Plain [out, in] weights read by an
// output whose output channels are innermost: one gather of 8 weights per reduction step
// serves the 4 copies of the pixel loop. A remark names the read and the layout that would
// load it whole. The lowered program compiles with upstream's passes.
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2}' -o %t 2>&1 | filecheck %s
// RUN: filecheck %s --input-file %t --check-prefix=IR
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2 reassociate=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REASSOCIATE
// RUN: layout-run %s --entry short_reduction --check -p 'layout-schedule{target=avx2 reassociate=true},layout-lower' | filecheck %s --check-prefix=EXEC
// RUN: layout-opt %s -p 'layout-schedule{target=avx2},layout-lower' | mlir-opt-22 --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --convert-to-llvm -o /dev/null

// CHECK: remark: layout-schedule: @plain_weights: nest %k: gathered lane by lane: affine.load of memref<16x16xf32>: dim 0, walked by %k, is not contiguous in memory; give it a layout whose innermost physical dim is dim 0
// CHECK-NEXT: remark: layout-schedule: @plain_weights: nest %k: scheduled: loops (%k/16, %p/4) around the tile, vector<8xf32> along %k, 2 unrolled digit(s); inner loops (%c) carry 1 accumulator(s) per copy
// IR-LABEL: func.func @plain_weights(
// IR:         affine.for %[[C:.*]] = 0 to 16 iter_args(
// IR-NEXT:      %[[X:.*]] = affine.load %x[0, %[[C]]] : memref<4x16xf32>
// IR-NEXT:      %[[W0:.*]] = affine.load %w[0, %[[C]]] : memref<16x16xf32>
// IR-COUNT-6:   affine.load %w[{{[1-6]}}, %[[C]]] : memref<16x16xf32>
// IR-NEXT:      %[[W7:.*]] = affine.load %w[7, %[[C]]] : memref<16x16xf32>
// IR-NEXT:      %[[LOW:.*]] = vector.from_elements %[[W0]], {{.*}}, %[[W7]] : vector<8xf32>
// IR-NEXT:      %[[XV:.*]] = vector.broadcast %[[X]] : f32 to vector<8xf32>
// IR-NEXT:      arith.mulf %[[XV]], %[[LOW]] : vector<8xf32>
// IR:           %[[HIGH:.*]] = vector.from_elements {{.*}} : vector<8xf32>
// IR:           %[[X1:.*]] = affine.load %x[1, %[[C]]] : memref<4x16xf32>
// IR-NEXT:      %[[XV1:.*]] = vector.broadcast %[[X1]] : f32 to vector<8xf32>
// IR-NEXT:      arith.mulf %[[XV1]], %[[LOW]] : vector<8xf32>
// IR-NEXT:      arith.addf
// IR-NEXT:      arith.mulf %[[XV1]], %[[HIGH]] : vector<8xf32>
// IR-NOT:       vector.from_elements
// IR:           affine.yield
// REASSOCIATE-NOT: gathered
// REASSOCIATE: remark: layout-schedule: @plain_weights: nest %k: scheduled: loops (%p/1, %k/8) around the tile, vector<8xf32> along %c (partial results of the reduction)
func.func @plain_weights(%x: memref<4x16xf32>, %w: memref<16x16xf32>, %y: memref<16x4xf32, #layout.tag<"NW->WN">>) {
  affine.for %k = 0 to 16 {
    affine.for %p = 0 to 4 {
      affine.for %c = 0 to 16 {
        %a = affine.load %x[%p, %c] : memref<4x16xf32>
        %b = affine.load %w[%k, %c] : memref<16x16xf32>
        %s = affine.load %y[%k, %p] : memref<16x4xf32, #layout.tag<"NW->WN">>
        %m = arith.mulf %a, %b : f32
        %t = arith.addf %s, %m : f32
        affine.store %t, %y[%k, %p] : memref<16x4xf32, #layout.tag<"NW->WN">>
      }
    }
  }
  func.return
}

// A grouped convolution under nChw4c with groups of 2 channels (viewed [n, g, c, h, w], as
// importers write it):
// the vectors walk a group's 2 output channels, contiguous in the activations' blocks; its
// plain weights [g, f, c, kh, kw] are gathered once for the tile of output columns. The
// input is read one scalar per column, broadcast.
// CHECK: remark: layout-schedule: @narrow_groups: nest %n: gathered lane by lane: affine.load of memref<4x2x2x3x3xf32>: dim 1, walked by %f, is not contiguous in memory; give it a layout whose innermost physical dim is dim 1
// CHECK-NEXT: remark: layout-schedule: @narrow_groups: nest %n: scheduled: {{.*}}, vector<2xf32> along %f, 1 unrolled digit(s)
// IR-LABEL: func.func @narrow_groups(
// IR:         vector.from_elements {{.*}} : vector<2xf32>
// IR-NOT:     vector.from_elements
// IR:         func.return
func.func @narrow_groups(%x: memref<1x8x8x8xf32>, %w: memref<4x2x2x3x3xf32>, %y: memref<1x8x6x6xf32>) {
  layout.assign %x to #layout.tag<"NCHW->nChw4c"> : memref<1x8x8x8xf32>
  layout.assign %y to #layout.tag<"NCHW->nChw4c"> : memref<1x8x6x6xf32>
  %xv = memref.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 4, 2, 8, 8] : memref<1x8x8x8xf32> into memref<1x4x2x8x8xf32>
  %yv = memref.expand_shape %y [[0], [1, 2], [3], [4]] output_shape [1, 4, 2, 6, 6] : memref<1x8x6x6xf32> into memref<1x4x2x6x6xf32>
  affine.for %n = 0 to 1 {
    affine.for %g = 0 to 4 {
      affine.for %f = 0 to 2 {
        affine.for %h = 0 to 6 {
          affine.for %v = 0 to 6 {
            affine.for %c = 0 to 2 {
              affine.for %kh = 0 to 3 {
                affine.for %kw = 0 to 3 {
                  %a = affine.load %xv[%n, %g, %c, %h + %kh, %v + %kw] : memref<1x4x2x8x8xf32>
                  %b = affine.load %w[%g, %f, %c, %kh, %kw] : memref<4x2x2x3x3xf32>
                  %s = affine.load %yv[%n, %g, %f, %h, %v] : memref<1x4x2x6x6xf32>
                  %m = arith.mulf %a, %b : f32
                  %t = arith.addf %s, %m : f32
                  affine.store %t, %yv[%n, %g, %f, %h, %v] : memref<1x4x2x6x6xf32>
                }
              }
            }
          }
        }
      }
    }
  }
  func.return
}

// The register tile is unrolled along a loop whose copies share the gathered read (%p: the
// weights do not depend on it), not along the innermost one that shares only the other
// read (%q, which the weights do depend on): 2 gathers per reduction step serve 8 copies.
// CHECK: remark: layout-schedule: @gather_shared_across_rows: nest %p: gathered lane by lane: affine.load of memref<16x8x4xf32>: dim 0, walked by %k, is not contiguous in memory; give it a layout whose innermost physical dim is dim 0
// CHECK-NEXT: remark: layout-schedule: @gather_shared_across_rows: nest %p: scheduled: loops (%q/1, %k/16, %p/4) around the tile, vector<8xf32> along %k, 2 unrolled digit(s)
// IR-LABEL: func.func @gather_shared_across_rows(
// IR:         affine.for %{{.*}} = 0 to 8 iter_args(
// IR-COUNT-2:   vector.from_elements
// IR-NOT:       vector.from_elements
// IR:           affine.yield
func.func @gather_shared_across_rows(%a: memref<4x8xf32>, %w: memref<16x8x4xf32>, %y: memref<4x4x16xf32, #layout.tag<"PQK->PQK">>) {
  affine.for %p = 0 to 4 {
    affine.for %q = 0 to 4 {
      affine.for %k = 0 to 16 {
        affine.for %c = 0 to 8 {
          %x = affine.load %a[%p, %c] : memref<4x8xf32>
          %v = affine.load %w[%k, %c, %q] : memref<16x8x4xf32>
          %s = affine.load %y[%p, %q, %k] : memref<4x4x16xf32, #layout.tag<"PQK->PQK">>
          %m = arith.mulf %x, %v : f32
          %t = arith.addf %s, %m : f32
          affine.store %t, %y[%p, %q, %k] : memref<4x4x16xf32, #layout.tag<"PQK->PQK">>
        }
      }
    }
  }
  func.return
}

// With reassociate=true a nest whose parallel loops walk no contiguous run may take vectors
// of partial results along its reduction instead, folded once per result; the plan with
// fewer operations is taken (`estimate.py`). A grouped convolution whose groups read 8
// input channels and write 4 under nChw16c: partial results would fold 8 lanes for every
// output element, one multiply-add vector's worth of work, so its weights are gathered
// along the 4 output channels instead; the lowered nest computes what the loops do.
// REASSOCIATE: remark: layout-schedule: @short_reduction: nest %n: gathered lane by lane: affine.load of memref<4x4x8x1x1xf32>: dim 1, walked by %f, is not contiguous in memory; give it a layout whose innermost physical dim is dim 1
// REASSOCIATE-NEXT: remark: layout-schedule: @short_reduction: nest %n: scheduled: {{.*}}, vector<4xf32> along %f, 1 unrolled digit(s)
// EXEC: OK: 512 elements compared
func.func @short_reduction(%x: memref<1x32x1x8xf32>, %w: memref<4x4x8x1x1xf32>, %y: memref<1x16x1x8xf32>) {
  layout.assign %x to #layout.tag<"NCHW->nChw16c"> : memref<1x32x1x8xf32>
  layout.assign %y to #layout.tag<"NCHW->nChw16c"> : memref<1x16x1x8xf32>
  %xv = memref.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 4, 8, 1, 8] : memref<1x32x1x8xf32> into memref<1x4x8x1x8xf32>
  %yv = memref.expand_shape %y [[0], [1, 2], [3], [4]] output_shape [1, 4, 4, 1, 8] : memref<1x16x1x8xf32> into memref<1x4x4x1x8xf32>
  affine.for %n = 0 to 1 {
    affine.for %g = 0 to 4 {
      affine.for %f = 0 to 4 {
        affine.for %v = 0 to 8 {
          affine.for %c = 0 to 8 {
            %a = affine.load %xv[%n, %g, %c, 0, %v] : memref<1x4x8x1x8xf32>
            %b = affine.load %w[%g, %f, %c, 0, 0] : memref<4x4x8x1x1xf32>
            %s = affine.load %yv[%n, %g, %f, 0, %v] : memref<1x4x4x1x8xf32>
            %m = arith.mulf %a, %b : f32
            %t = arith.addf %s, %m : f32
            affine.store %t, %yv[%n, %g, %f, 0, %v] : memref<1x4x4x1x8xf32>
          }
        }
      }
    }
  }
  func.return
}

// A long reduction keeps its partial results: 256 products fold once, where gathering the
// transposed B would load 16 lanes one by one for every step of every 8 rows.
// REASSOCIATE-NOT: gathered
// REASSOCIATE: remark: layout-schedule: @long_reduction: nest %i: scheduled: loops (%i/1, %j/8) around the tile, vector<8xf32> along %k (partial results of the reduction)
func.func @long_reduction(%a: memref<8x256xf32>, %b: memref<16x256xf32>, %y: memref<8x16xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 256 {
        %p = affine.load %a[%i, %k] : memref<8x256xf32>
        %q = affine.load %b[%j, %k] : memref<16x256xf32>
        %s = affine.load %y[%i, %j] : memref<8x16xf32>
        %m = arith.mulf %p, %q : f32
        %t = arith.addf %s, %m : f32
        affine.store %t, %y[%i, %j] : memref<8x16xf32>
      }
    }
  }
  func.return
}
