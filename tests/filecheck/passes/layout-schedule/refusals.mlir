// What layout-schedule leaves alone, and the remark that says why (layout-opt -v).
// A nest it cannot prove it may change is not changed at all; a step it cannot prove legal
// (a vector loop, a tile size, an interchange) is left out and the others still happen.
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2}' -o %t 2>&1 | filecheck %s
// RUN: filecheck %s --input-file %t --check-prefix=IR
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2 plain=false}' -o /dev/null 2>&1 | filecheck %s --check-prefix=PLAIN

// CHECK-DAG: remark: layout-schedule: @dynamic_bounds: nest %i: not scheduled: affine.for: the loop bounds are not constants
// IR-LABEL: func.func @dynamic_bounds(
// IR-NEXT:    affine.for %i = 0 to %n {
func.func @dynamic_bounds(%y: memref<64xf32, #layout.tag<"N->N">>, %n: index, %v: f32) {
  affine.for %i = 0 to %n {
    affine.store %v, %y[%i] : memref<64xf32, #layout.tag<"N->N">>
  }
  func.return
}

// CHECK-DAG: remark: layout-schedule: @carried: nest %i: not scheduled: scf.for: the loop carries values (iter_args)
func.func @carried(%y: memref<64xf32, #layout.tag<"N->N">>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%s = %zero) -> (f32) {
    %x = memref.load %y[%i] : memref<64xf32, #layout.tag<"N->N">>
    %t = arith.addf %s, %x : f32
    scf.yield %t : f32
  }
  func.return %sum : f32
}

// CHECK-DAG: remark: layout-schedule: @call: nest %i: not scheduled: func.call: func.call is not a load, a store, arithmetic or a check
func.func private @f(f32) -> f32
func.func @call(%y: memref<64xf32, #layout.tag<"N->N">>) {
  affine.for %i = 0 to 64 {
    %x = affine.load %y[%i] : memref<64xf32, #layout.tag<"N->N">>
    %z = func.call @f(%x) : (f32) -> f32
    affine.store %z, %y[%i] : memref<64xf32, #layout.tag<"N->N">>
  }
  func.return
}

// CHECK-DAG: remark: layout-schedule: @gather: nest %i: not scheduled: memref.store: an index of memref.store is computed from data, not affine
func.func @gather(%y: memref<64xf32, #layout.tag<"N->N">>, %at: memref<64xindex>, %v: f32) {
  affine.for %i = 0 to 64 {
    %j = affine.load %at[%i] : memref<64xindex>
    memref.store %v, %y[%j] : memref<64xf32, #layout.tag<"N->N">>
  }
  func.return
}

// CHECK-DAG: remark: layout-schedule: @modular: nest %i: not scheduled: affine.store: an index of affine.store is not affine (floordiv/mod): its dependences cannot be proven
func.func @modular(%y: memref<8xf32, #layout.tag<"N->N">>, %v: f32) {
  affine.for %i = 0 to 64 {
    affine.store %v, %y[%i mod 8] : memref<8xf32, #layout.tag<"N->N">>
  }
  func.return
}

// CHECK-DAG: remark: layout-schedule: @siblings: nest %i: not scheduled: affine.for: 2 sibling loops in one body
func.func @siblings(%y: memref<4x8xf32, #layout.tag<"MN->MN">>, %v: f32) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      affine.store %v, %y[%i, %j] : memref<4x8xf32, #layout.tag<"MN->MN">>
    }
    affine.for %j = 0 to 8 {
      affine.store %v, %y[%i, %j] : memref<4x8xf32, #layout.tag<"MN->MN">>
    }
  }
  func.return
}

// y[i][j] reads y[i-1][j+1], written in an earlier iteration of %j: the row-major order
// (i outside j) would read it before it is written.
// CHECK-DAG: remark: layout-schedule: @skewed_stencil: nest %j: loop order (%i, %j) would reverse the dependence from affine.load to affine.store (directions (<, >)); keeping the nest's order
// CHECK-DAG: remark: layout-schedule: @skewed_stencil: nest %j: not vectorized: %j carries a dependence
// CHECK-DAG: remark: layout-schedule: @skewed_stencil: nest %j: left as it is: it already walks its leading buffer in memory order
// IR-LABEL: func.func @skewed_stencil(
// IR-NEXT:    affine.for %j = 0 to 7 {
// IR-NEXT:      affine.for %i = 1 to 8 {
func.func @skewed_stencil(%y: memref<8x8xf32, #layout.tag<"MN->MN">>) {
  affine.for %j = 0 to 7 {
    affine.for %i = 1 to 8 {
      %x = affine.load %y[%i - 1, %j + 1] : memref<8x8xf32, #layout.tag<"MN->MN">>
      affine.store %x, %y[%i, %j] : memref<8x8xf32, #layout.tag<"MN->MN">>
    }
  }
  func.return
}

// A prefix sum along the vector dim: %j carries a dependence, so it is not vectorized.
// CHECK-DAG: remark: layout-schedule: @prefix_sum: nest %i: not vectorized: %j carries a dependence
func.func @prefix_sum(%y: memref<8x16xf32, #layout.tag<"MN->MN">>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 1 to 16 {
      %a = affine.load %y[%i, %j - 1] : memref<8x16xf32, #layout.tag<"MN->MN">>
      %b = affine.load %y[%i, %j] : memref<8x16xf32, #layout.tag<"MN->MN">>
      %s = arith.addf %a, %b : f32
      affine.store %s, %y[%i, %j] : memref<8x16xf32, #layout.tag<"MN->MN">>
    }
  }
  func.return
}

// A transpose reads its source across the vector loop, and nothing shares what it reads: no
// gathered vectors (gathered-reads.mlir), so no vectors.
// CHECK-DAG: remark: layout-schedule: @transposed_copy: nest %k: not vectorized: affine.load of memref<16x16xf32>: dim 0, walked by %k, is not contiguous in memory; give it a layout whose innermost physical dim is dim 0
func.func @transposed_copy(%w: memref<16x16xf32>, %y: memref<16x16xf32, #layout.tag<"NW->WN">>) {
  affine.for %k = 0 to 16 {
    affine.for %p = 0 to 16 {
      %b = affine.load %w[%k, %p] : memref<16x16xf32>
      affine.store %b, %y[%k, %p] : memref<16x16xf32, #layout.tag<"NW->WN">>
    }
  }
  func.return
}

// Integer casts take vectors (upstream's; heterolayout's in xDSL 0.74's place).
// CHECK-DAG: remark: layout-schedule: @widen: nest %i: scheduled: loops (%i/8) around the tile, vector<8xi32> along %i
func.func @widen(%x: memref<64xi8, #layout.tag<"N->N">>, %y: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %v = affine.load %x[%i] : memref<64xi8, #layout.tag<"N->N">>
    %w = arith.extsi %v : i8 to i32
    affine.store %w, %y[%i] : memref<64xi32>
  }
  func.return
}

// Packed lanes get word-level code (packed-words.mlir has the shapes and the refusals).
// CHECK-DAG: remark: layout-schedule: @packed: nest %i: scheduled: word-level map over containers of 8 lanes
func.func @packed(%y: memref<4x16xi1, #layout.tag<"NC->NC8c", pack = i8>>, %v: i1) {
  affine.for %i = 0 to 4 {
    affine.for %c = 0 to 16 {
      affine.store %v, %y[%i, %c] : memref<4x16xi1, #layout.tag<"NC->NC8c", pack = i8>>
    }
  }
  func.return
}

// A tile that is not a whole number of vectors along the vector loop is not used.
// CHECK-DAG: remark: layout-schedule: @odd_tile: nest %i: tile size 12 not used: %j needs a multiple of the vector length 8
func.func @odd_tile(%a: memref<4x8xf32>, %b: memref<8x32xf32, #layout.tag<"KN->Nk16n">>, %c: memref<4x32xf32>) {
  layout.schedule %c {tile = array<i64: 2, 12>} : memref<4x32xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 8 {
        %x = affine.load %a[%i, %k] : memref<4x8xf32>
        %y = affine.load %b[%k, %j] : memref<8x32xf32, #layout.tag<"KN->Nk16n">>
        %z = affine.load %c[%i, %j] : memref<4x32xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<4x32xf32>
      }
    }
  }
  func.return
}

// A nest that touches no layout-typed buffer is scheduled as on row-major buffers; with
// plain=false it is left alone, with a remark.
// CHECK-DAG: remark: layout-schedule: @plain: nest %j: scheduled: loops (%i/1, %j/8) around the tile, vector<8xf32> along %j
// IR-LABEL: func.func @plain(
// IR:         affine.for %i = 0 to 4 {
// IR-NEXT:      affine.vector_store
// PLAIN: remark: layout-schedule: @plain: nest %j: left alone: it touches no layout-typed buffer (plain=false)
func.func @plain(%y: memref<4x8xf32>, %v: f32) {
  affine.for %j = 0 to 8 {
    affine.for %i = 0 to 4 {
      affine.store %v, %y[%i, %j] : memref<4x8xf32>
    }
  }
  func.return
}

// A linalg op on plain buffers is scheduled as the loops upstream makes of it, named after
// it; with plain=false it is left alone, with a remark.
// CHECK-DAG: remark: layout-schedule: @plain_linalg: nest %fill: scheduled: loops (%fill/1, %d1/8) around the tile, vector<8xf32> along %d1
// PLAIN: remark: layout-schedule: @plain_linalg: linalg.fill: left alone: no operand has a layout (plain=false)
func.func @plain_linalg(%y: memref<4x8xf32>, %v: f32) {
  linalg.fill ins(%v : f32) outs(%y : memref<4x8xf32>)
  func.return
}

// One buffer reached through a view and directly: indices in two spaces, not related.
// CHECK-DAG: remark: layout-schedule: @two_views: nest %i: not scheduled: affine.store: affine.store reaches a buffer the nest also reaches through another view: their indices cannot be related
func.func @two_views(%y: memref<8x16xf32>, %x: memref<8x16xf32, #layout.tag<"MN->MN">>) {
  %v = memref.subview %y[0, 8] [8, 8] [1, 1] : memref<8x16xf32> to memref<8x8xf32, strided<[16, 1], offset: 8>>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %v[%i, %j] : memref<8x8xf32, strided<[16, 1], offset: 8>>
      %b = affine.load %x[%i, %j] : memref<8x16xf32, #layout.tag<"MN->MN">>
      %s = arith.addf %a, %b : f32
      affine.store %s, %y[%i, %j] : memref<8x16xf32>
    }
  }
  func.return
}
