"memref.global"() <{sym_name = "g0", sym_visibility = "private", type = memref<3x3x3x3xf32>, initial_value = dense<[[[[-1.5, -0.75, 0.0], [0.75, 1.5, 2.25], [3.0, 3.75, 4.5]], [[5.25, 6.0, 6.75], [-1.75, -1.0, -0.25], [0.5, 1.25, 2.0]], [[2.75, 3.5, 4.25], [5.0, 5.75, 6.5], [-2.0, -1.25, -0.5]]], [[[0.25, 1.0, 1.75], [2.5, 3.25, 4.0], [4.75, 5.5, 6.25]], [[7.0, -1.5, -0.75], [0.0, 0.75, 1.5], [2.25, 3.0, 3.75]], [[4.5, 5.25, 6.0], [6.75, -1.75, -1.0], [-0.25, 0.5, 1.25]]], [[[2.0, 2.75, 3.5], [4.25, 5.0, 5.75], [6.5, -2.0, -1.25]], [[-0.5, 0.25, 1.0], [1.75, 2.5, 3.25], [4.0, 4.75, 5.5]], [[6.25, 7.0, -1.5], [-0.75, 0.0, 0.75], [1.5, 2.25, 3.0]]]]> : tensor<3x3x3x3xf32>}> : () -> ()
func.func @kernel(%A: memref<?x1xf32>, %B: memref<3x3x3x3xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %k2p0_f32 = arith.constant 2.0 : f32
  %d1 = memref.dim %A, %c0 : memref<?x1xf32>
  %alloca2 = memref.alloca(%d1) : memref<?x1xf32>
  "memref.copy"(%A, %alloca2) : (memref<?x1xf32>, memref<?x1xf32>) -> ()
  %acc = arith.constant 0.0 : f32
  %x3 = arith.remui %n, %c1 : index
  %v4 = memref.load %alloca2[%c5, %x3] : memref<?x1xf32>
  %s5 = arith.addf %acc, %v4 : f32
  %c6_6 = arith.constant 6 : index
  %p7 = arith.cmpi sge, %n, %c6_6 : index
  scf.if %p7 {
    %c4_10 = arith.constant 4 : index
    %x9 = arith.divsi %x3, %c4_10 : index
    %c1_12 = arith.constant 1 : index
    %x11 = arith.subi %c1_12, %x3 : index
    %x13 = affine.apply affine_map<(d0) -> (d0 mod 2)>(%n)
    %v14 = memref.load %B[%x9, %x3, %x11, %x13] : memref<3x3x3x3xf32>
    %p15 = arith.cmpi uge, %x13, %c0 : index
    scf.if %p15 {
      %v17 = affine.load %A[%x13 + 2, %x3 floordiv 3] : memref<?x1xf32>
      %vec18 = vector.load %alloca2[%c5, %x3] : memref<?x1xf32>, vector<1xf32>
      %e19 = vector.extract %vec18[0] : f32 from vector<1xf32>
    } else {
      %v20 = affine.load %B[%x13 mod 3, 1 - %x3, %x3 + %x13, %x13 floordiv 4 + 1] : memref<3x3x3x3xf32>
    }
    affine.for %i21 = 0 to 5 {
      %v22 = memref.load %alloca2[%c5, %x3] : memref<?x1xf32>
    }
  } else {
    %c2_24 = arith.constant 2 : index
    %x23 = arith.remsi %n, %c2_24 : index
    %v25 = memref.load %alloca2[%x23, %x3] : memref<?x1xf32>
  }
  %cast26 = "memref.cast"(%alloca2) : (memref<?x1xf32>) -> memref<9x1xf32>
  %cast27 = "memref.cast"(%A) : (memref<?x1xf32>) -> memref<9x1xf32>
  %alloc28 = memref.alloc() : memref<9xf32>
  linalg.fill ins(%k2p0_f32 : f32) outs(%alloc28 : memref<9xf32>)
  linalg.reduce ins(%cast26 : memref<9x1xf32>) outs(%alloc28 : memref<9xf32>) dimensions = [1]
    (%rin29: f32, %racc30: f32) {
      %rs31 = arith.addf %rin29, %racc30 : f32
      linalg.yield %rs31 : f32
    }
  linalg.broadcast ins(%alloc28 : memref<9xf32>) outs(%cast27 : memref<9x1xf32>) dimensions = [1]
  memref.dealloc %alloc28 : memref<9xf32>
  "memref.copy"(%alloca2, %A) : (memref<?x1xf32>, memref<?x1xf32>) -> ()
  func.return %s5 : f32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c37 = arith.constant 37 : index
  %k0p25_f32 = arith.constant 0.25 : f32
  %k2p0_f32 = arith.constant 2.0 : f32
  %c13 = arith.constant 13 : index
  %c27 = arith.constant 27 : index
  %alloc1 = memref.alloc() : memref<9x1xf32>
  scf.for %i2 = %c0 to %c9 step %c1 {
    scf.for %i3 = %c0 to %c1 step %c1 {
      %s4 = arith.muli %i2, %c1 : index
      %l5 = arith.addi %c0, %s4 : index
      %s6 = arith.muli %i3, %c1 : index
      %l7 = arith.addi %l5, %s6 : index
      %x9 = arith.muli %l7, %c3 : index
      %x8 = arith.addi %x9, %c1 : index
      %x11 = arith.remui %x8, %c37 : index
      %x12 = arith.index_cast %x11 : index to i32
      %x13 = arith.sitofp %x12 : i32 to f32
      %x14 = arith.mulf %x13, %k0p25_f32 : f32
      %fv10 = arith.subf %x14, %k2p0_f32 : f32
      memref.store %fv10, %alloc1[%i2, %i3] : memref<9x1xf32>
    }
  }
  %g = memref.get_global @g0 : memref<3x3x3x3xf32>
  %cast15 = "memref.cast"(%alloc1) : (memref<9x1xf32>) -> memref<?x1xf32>
  %alloc16 = memref.alloc() : memref<3x3x3x3xf32>
  "memref.copy"(%g, %alloc16) : (memref<3x3x3x3xf32>, memref<3x3x3x3xf32>) -> ()
  %r = func.call @kernel(%cast15, %alloc16, %c13) : (memref<?x1xf32>, memref<3x3x3x3xf32>, index) -> f32
  "memref.copy"(%alloc16, %g) : (memref<3x3x3x3xf32>, memref<3x3x3x3xf32>) -> ()
  memref.dealloc %alloc16 : memref<3x3x3x3xf32>
  "vector.print"(%r) : (f32) -> ()
  scf.for %i17 = %c0 to %c9 step %c1 {
    scf.for %i18 = %c0 to %c1 step %c1 {
      %s19 = arith.muli %i17, %c1 : index
      %l20 = arith.addi %c0, %s19 : index
      %s21 = arith.muli %i18, %c1 : index
      %l22 = arith.addi %l20, %s21 : index
      %p23 = memref.load %alloc1[%i17, %i18] : memref<9x1xf32>
      "vector.print"(%p23) : (f32) -> ()
    }
  }
  scf.for %i24 = %c0 to %c3 step %c1 {
    scf.for %i25 = %c0 to %c3 step %c1 {
      scf.for %i26 = %c0 to %c3 step %c1 {
        scf.for %i27 = %c0 to %c3 step %c1 {
          %s28 = arith.muli %i24, %c27 : index
          %l29 = arith.addi %c0, %s28 : index
          %s30 = arith.muli %i25, %c9 : index
          %l31 = arith.addi %l29, %s30 : index
          %s32 = arith.muli %i26, %c3 : index
          %l33 = arith.addi %l31, %s32 : index
          %s34 = arith.muli %i27, %c1 : index
          %l35 = arith.addi %l33, %s34 : index
          %p36 = memref.load %g[%i24, %i25, %i26, %i27] : memref<3x3x3x3xf32>
          "vector.print"(%p36) : (f32) -> ()
        }
      }
    }
  }
  memref.dealloc %alloc1 : memref<9x1xf32>
  func.return
}
