// fuzz case round-trip-conversion-folded (seed 530681, element i32)
// seed 530681: a chunked buffer only converted into and straight back is dropped by layout-fold-converts (layout-lower step 3); the fuzzer took it for a silent drop, and now checks sites against the module after that fold
// site: @kernel type memref<2x5x1x10xi32, #layout.chunked<"ChunkedMemoryLayout<4, 1,3, 1,0, 3,0, 2,0, 0,0, 3,3>">>
// site: @kernel assign memref<2x5x5x19xi32, #layout.tag<"URLw->LRuW16w", pack = vector<16xi32>>>
// site: @kernel assign memref<2x5x1x10xi32, #layout.strided<[-148, 30, 299, -3], offset = 179>>
// site: @kernel type memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>
// site: @main type memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>
"memref.global"() <{sym_name = "g0", sym_visibility = "private", type = memref<2x5x1x10xi32>, initial_value = dense<[[[[2, 5, 8, 11, 14, 17, 20, 23, 26, 29]], [[32, 35, 38, 41, 44, 47, 50, 53, 56, 59]], [[62, 65, 68, 71, 74, 77, 80, 83, 86, 89]], [[92, 95, 98, 101, 104, 107, 110, 113, 116, 119]], [[122, 125, 128, 131, 134, 137, 140, 143, 146, 149]]], [[[152, 155, 158, 161, 164, 167, 170, 173, 176, 179]], [[182, 185, 188, 191, 194, 197, 200, 203, 206, 209]], [[212, 215, 218, 221, 224, 227, 230, 233, 236, 239]], [[242, 245, 248, 251, 254, 257, 260, 263, 266, 269]], [[272, 275, 278, 281, 284, 287, 290, 293, 296, 299]]]]> : tensor<2x5x1x10xi32>}> : () -> ()
func.func @kernel(%A: memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>, %B: memref<2x5x1x10xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %km3_i32 = arith.constant -3 : i32
  %alloc1 = memref.alloc() : memref<2x5x1x10xi32, #layout.chunked<"ChunkedMemoryLayout<4, 1,3, 1,0, 3,0, 2,0, 0,0, 3,3>">>
  layout.convert %A to %alloc1 : memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>> to memref<2x5x1x10xi32, #layout.chunked<"ChunkedMemoryLayout<4, 1,3, 1,0, 3,0, 2,0, 0,0, 3,3>">>
  %acc = arith.constant 0 : i32
  layout.convert %alloc1 to %A : memref<2x5x1x10xi32, #layout.chunked<"ChunkedMemoryLayout<4, 1,3, 1,0, 3,0, 2,0, 0,0, 3,3>">> to memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>
  %k2 = arith.constant 7 : i32
  affine.store %k2, %A[%n mod 2, %n mod 3, 0, %n mod 2] : memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>
  %c1_3 = arith.constant 1 : index
  %r5 = scf.for %i4 = %c0 to %c1_3 step %c1_3 iter_args(%a6 = %acc) -> (i32) {
    %x7 = affine.apply affine_map<(d0) -> (d0 ceildiv 2)>(%i4)
    %x8 = arith.addi %i4, %c1_3 : index
    %x9 = arith.ceildivui %i4, %c2 : index
    %x10 = arith.addi %c2, %i4 : index
    %v11 = memref.load %A[%x7, %x8, %x9, %x10] : memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>
    %s12 = arith.addi %a6, %v11 : i32
    affine.for %i13 = 0 to 2 step 2 {
      %k14 = arith.constant 5 : i32
      %w15 = arith.muli %v11, %k14 : i32
      affine.store %w15, %B[%i13 ceildiv 2, 0 - %i13, 3 * %i13, 0 - %i13] : memref<2x5x1x10xi32>
      %x16 = arith.subi %c0, %i13 : index
    }
    %alloc17 = memref.alloc() : memref<2x5x5x19xi32>
    layout.assign %alloc17 to #layout.tag<"URLw->LRuW16w", pack = vector<16xi32>> : memref<2x5x5x19xi32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%alloc17 : memref<2x5x5x19xi32>) {
    ^bb0(%out18: i32):
      %li19 = linalg.index 0 : index
      %ls20 = arith.muli %li19, %c3 : index
      %la21 = arith.addi %c1, %ls20 : index
      %li22 = linalg.index 1 : index
      %ls23 = arith.muli %li22, %c3 : index
      %la24 = arith.addi %la21, %ls23 : index
      %li25 = linalg.index 2 : index
      %ls26 = arith.muli %li25, %c4 : index
      %la27 = arith.addi %la24, %ls26 : index
      %li28 = linalg.index 3 : index
      %ls29 = arith.muli %li28, %c1 : index
      %la30 = arith.addi %la27, %ls29 : index
      %iv31 = arith.index_cast %la30 : index to i32
      linalg.yield %iv31 : i32
    }
    %alloc32 = memref.alloc() : memref<3x1xi32>
    linalg.fill ins(%km3_i32 : i32) outs(%alloc32 : memref<3x1xi32>)
    linalg.pooling_nchw_sum {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%alloc17, %alloc32 : memref<2x5x5x19xi32>, memref<3x1xi32>) outs(%A : memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>)
    memref.dealloc %alloc17 : memref<2x5x5x19xi32>
    memref.dealloc %alloc32 : memref<3x1xi32>
    scf.yield %s12 : i32
  }
  layout.assign %B to #layout.strided<[-148, 30, 299, -3], offset = 179> : memref<2x5x1x10xi32>
  memref.dealloc %alloc1 : memref<2x5x1x10xi32, #layout.chunked<"ChunkedMemoryLayout<4, 1,3, 1,0, 3,0, 2,0, 0,0, 3,3>">>
  func.return %r5 : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : index
  %c50 = arith.constant 50 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %alloca1 = memref.alloca() : memref<2x5x1x10xi32>
  scf.for %i2 = %c0 to %c2 step %c1 {
    scf.for %i3 = %c0 to %c5 step %c1 {
      scf.for %i4 = %c0 to %c1 step %c1 {
        scf.for %i5 = %c0 to %c10 step %c1 {
          %s6 = arith.muli %i2, %c50 : index
          %l7 = arith.addi %c0, %s6 : index
          %s8 = arith.muli %i3, %c10 : index
          %l9 = arith.addi %l7, %s8 : index
          %s10 = arith.muli %i4, %c10 : index
          %l11 = arith.addi %l9, %s10 : index
          %s12 = arith.muli %i5, %c1 : index
          %l13 = arith.addi %l11, %s12 : index
          %x15 = arith.muli %l13, %c3 : index
          %x14 = arith.addi %x15, %c1 : index
          %fv16 = arith.index_cast %x14 : index to i32
          memref.store %fv16, %alloca1[%i2, %i3, %i4, %i5] : memref<2x5x1x10xi32>
        }
      }
    }
  }
  %g = memref.get_global @g0 : memref<2x5x1x10xi32>
  %alloc17 = memref.alloc() : memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>
  layout.convert %alloca1 to %alloc17 : memref<2x5x1x10xi32> to memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>
  %r = func.call @kernel(%alloc17, %g, %c9) : (memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>, memref<2x5x1x10xi32>, index) -> i32
  "memref.copy"(%alloc17, %alloca1) : (memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>, memref<2x5x1x10xi32>) -> ()
  memref.dealloc %alloc17 : memref<2x5x1x10xi32, #layout.strided<[10, -2, 1, 22], offset = 8, pad = 2547760290>>
  "vector.print"(%r) : (i32) -> ()
  scf.for %i18 = %c0 to %c2 step %c1 {
    scf.for %i19 = %c0 to %c5 step %c1 {
      scf.for %i20 = %c0 to %c1 step %c1 {
        scf.for %i21 = %c0 to %c10 step %c1 {
          %s22 = arith.muli %i18, %c50 : index
          %l23 = arith.addi %c0, %s22 : index
          %s24 = arith.muli %i19, %c10 : index
          %l25 = arith.addi %l23, %s24 : index
          %s26 = arith.muli %i20, %c10 : index
          %l27 = arith.addi %l25, %s26 : index
          %s28 = arith.muli %i21, %c1 : index
          %l29 = arith.addi %l27, %s28 : index
          %p30 = memref.load %alloca1[%i18, %i19, %i20, %i21] : memref<2x5x1x10xi32>
          "vector.print"(%p30) : (i32) -> ()
        }
      }
    }
  }
  scf.for %i31 = %c0 to %c2 step %c1 {
    scf.for %i32 = %c0 to %c5 step %c1 {
      scf.for %i33 = %c0 to %c1 step %c1 {
        scf.for %i34 = %c0 to %c10 step %c1 {
          %s35 = arith.muli %i31, %c50 : index
          %l36 = arith.addi %c0, %s35 : index
          %s37 = arith.muli %i32, %c10 : index
          %l38 = arith.addi %l36, %s37 : index
          %s39 = arith.muli %i33, %c10 : index
          %l40 = arith.addi %l38, %s39 : index
          %s41 = arith.muli %i34, %c1 : index
          %l42 = arith.addi %l40, %s41 : index
          %p43 = memref.load %g[%i31, %i32, %i33, %i34] : memref<2x5x1x10xi32>
          "vector.print"(%p43) : (i32) -> ()
        }
      }
    }
  }
  func.return
}
