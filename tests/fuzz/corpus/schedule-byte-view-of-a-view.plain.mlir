func.func @kernel(%A: memref<6x5x4xi7>, %B: memref<4x3x3x3xi7>, %n: index) -> i7 {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c4 = arith.constant 4 : index
  %c20 = arith.constant 20 : index
  %c3 = arith.constant 3 : index
  %k1_i7 = arith.constant 1 : i7
  %c11 = arith.constant 11 : index
  %c2 = arith.constant 2 : index
  %k3_i7 = arith.constant 3 : i7
  %k0_i7 = arith.constant 0 : i7
  %alloca1 = memref.alloca() : memref<6x5x4xi7>
  scf.for %i2 = %c0 to %c6 step %c1 {
    scf.for %i3 = %c0 to %c5 step %c1 {
      scf.for %i4 = %c0 to %c4 step %c1 {
        %s5 = arith.muli %i2, %c20 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c4 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c5 : index
        %fv13 = arith.index_cast %x11 : index to i7
        memref.store %fv13, %alloca1[%i2, %i3, %i4] : memref<6x5x4xi7>
      }
    }
  }
  %acc = arith.constant 0 : i7
  %sv14 = memref.subview %alloca1[1, 0, 1] [1, 5, 3] [1, 1, 1] : memref<6x5x4xi7> to memref<1x5x3xi7, strided<[20, 4, 1], offset: 21>>
  %sv15 = memref.subview %A[1, 0, 1] [1, 5, 3] [1, 1, 1] : memref<6x5x4xi7> to memref<1x5x3xi7, strided<[20, 4, 1], offset: 21>>
  %alloc16 = memref.alloc() : memref<5x3xi7>
  linalg.fill ins(%k1_i7 : i7) outs(%alloc16 : memref<5x3xi7>)
  linalg.reduce ins(%sv15 : memref<1x5x3xi7, strided<[20, 4, 1], offset: 21>>) outs(%alloc16 : memref<5x3xi7>) dimensions = [0]
    (%rin17: i7, %racc18: i7) {
      %rs19 = arith.addi %rin17, %racc18 : i7
      linalg.yield %rs19 : i7
    }
  linalg.broadcast ins(%alloc16 : memref<5x3xi7>) outs(%sv14 : memref<1x5x3xi7, strided<[20, 4, 1], offset: 21>>) dimensions = [0]
  memref.dealloc %alloc16 : memref<5x3xi7>
  %p20 = arith.cmpi uge, %n, %c11 : index
  %r21 = scf.if %p20 -> (i7) {
    %x22 = arith.remsi %n, %c2 : index
    %x23 = arith.remsi %n, %c3 : index
    %v24 = memref.load %alloca1[%x22, %c4, %x23] : memref<6x5x4xi7>
    %s25 = arith.addi %acc, %v24 : i7
    %sv26 = memref.subview %alloca1[3, %x23, 1] [1, 2, 1] [1, 1, 1] : memref<6x5x4xi7> to memref<1x2x1xi7, strided<[20, 4, 1], offset: ?>>
    %sv27 = memref.subview %A[3, %x23, 3] [1, 2, 1] [1, 1, 1] : memref<6x5x4xi7> to memref<1x2x1xi7, strided<[20, 4, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sv27 : memref<1x2x1xi7, strided<[20, 4, 1], offset: ?>>) outs(%sv26 : memref<1x2x1xi7, strided<[20, 4, 1], offset: ?>>) {
    ^bb0(%in28: i7, %out29: i7):
      %g30 = arith.muli %in28, %k3_i7 : i7
      %li32 = linalg.index 2 : index
      %ls33 = arith.muli %li32, %c6 : index
      %la34 = arith.addi %c1, %ls33 : index
      %iv35 = arith.index_cast %la34 : index to i7
      %g31 = arith.addi %g30, %iv35 : i7
      linalg.yield %g31 : i7
    }
    scf.yield %s25 : i7
  } else {
    %v36 = affine.load %B[2, %n mod 2, %n mod 3, 1] : memref<4x3x3x3xi7>
    %s37 = arith.addi %acc, %v36 : i7
    scf.yield %s37 : i7
  }
  linalg.fill ins(%k0_i7 : i7) outs(%A : memref<6x5x4xi7>)
  "memref.copy"(%alloca1, %A) : (memref<6x5x4xi7>, memref<6x5x4xi7>) -> ()
  func.return %r21 : i7
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c4 = arith.constant 4 : index
  %c20 = arith.constant 20 : index
  %c3 = arith.constant 3 : index
  %c27 = arith.constant 27 : index
  %c9 = arith.constant 9 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<6x5x4xi7>
  scf.for %i2 = %c0 to %c6 step %c1 {
    scf.for %i3 = %c0 to %c5 step %c1 {
      scf.for %i4 = %c0 to %c4 step %c1 {
        %s5 = arith.muli %i2, %c20 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c4 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c1 : index
        %fv13 = arith.index_cast %x11 : index to i7
        memref.store %fv13, %alloc1[%i2, %i3, %i4] : memref<6x5x4xi7>
      }
    }
  }
  %alloc14 = memref.alloc() : memref<4x3x3x3xi7>
  scf.for %i15 = %c0 to %c4 step %c1 {
    scf.for %i16 = %c0 to %c3 step %c1 {
      scf.for %i17 = %c0 to %c3 step %c1 {
        scf.for %i18 = %c0 to %c3 step %c1 {
          %s19 = arith.muli %i15, %c27 : index
          %l20 = arith.addi %c0, %s19 : index
          %s21 = arith.muli %i16, %c9 : index
          %l22 = arith.addi %l20, %s21 : index
          %s23 = arith.muli %i17, %c3 : index
          %l24 = arith.addi %l22, %s23 : index
          %s25 = arith.muli %i18, %c1 : index
          %l26 = arith.addi %l24, %s25 : index
          %x28 = arith.muli %l26, %c3 : index
          %x27 = arith.addi %x28, %c2 : index
          %fv29 = arith.index_cast %x27 : index to i7
          memref.store %fv29, %alloc14[%i15, %i16, %i17, %i18] : memref<4x3x3x3xi7>
        }
      }
    }
  }
  %alloc30 = memref.alloc() : memref<4x3x3x3xi7>
  "memref.copy"(%alloc14, %alloc30) : (memref<4x3x3x3xi7>, memref<4x3x3x3xi7>) -> ()
  %r = func.call @kernel(%alloc1, %alloc30, %c5) : (memref<6x5x4xi7>, memref<4x3x3x3xi7>, index) -> i7
  "memref.copy"(%alloc30, %alloc14) : (memref<4x3x3x3xi7>, memref<4x3x3x3xi7>) -> ()
  memref.dealloc %alloc30 : memref<4x3x3x3xi7>
  "vector.print"(%r) : (i7) -> ()
  scf.for %i31 = %c0 to %c6 step %c1 {
    scf.for %i32 = %c0 to %c5 step %c1 {
      scf.for %i33 = %c0 to %c4 step %c1 {
        %s34 = arith.muli %i31, %c20 : index
        %l35 = arith.addi %c0, %s34 : index
        %s36 = arith.muli %i32, %c4 : index
        %l37 = arith.addi %l35, %s36 : index
        %s38 = arith.muli %i33, %c1 : index
        %l39 = arith.addi %l37, %s38 : index
        %p40 = memref.load %alloc1[%i31, %i32, %i33] : memref<6x5x4xi7>
        "vector.print"(%p40) : (i7) -> ()
      }
    }
  }
  scf.for %i41 = %c0 to %c4 step %c1 {
    scf.for %i42 = %c0 to %c3 step %c1 {
      scf.for %i43 = %c0 to %c3 step %c1 {
        scf.for %i44 = %c0 to %c3 step %c1 {
          %s45 = arith.muli %i41, %c27 : index
          %l46 = arith.addi %c0, %s45 : index
          %s47 = arith.muli %i42, %c9 : index
          %l48 = arith.addi %l46, %s47 : index
          %s49 = arith.muli %i43, %c3 : index
          %l50 = arith.addi %l48, %s49 : index
          %s51 = arith.muli %i44, %c1 : index
          %l52 = arith.addi %l50, %s51 : index
          %p53 = memref.load %alloc14[%i41, %i42, %i43, %i44] : memref<4x3x3x3xi7>
          "vector.print"(%p53) : (i7) -> ()
        }
      }
    }
  }
  memref.dealloc %alloc1 : memref<6x5x4xi7>
  memref.dealloc %alloc14 : memref<4x3x3x3xi7>
  func.return
}
