// fuzz case seed-3483 (seed 3483, element i16)
// seed 3483: unproven access [schedule] layout-lower: translation validation: affine.load at <input>:66:9 is not proven: not proven symbolically (the layout gives ((d1 floordiv 3) mod 2), the code d2); no counterexample among 4096 sampled points  reproduce: python -m benchmarks.fuzz --replay 3483
// site: @kernel assign memref<4x3x7xi16, #layout.partition<cyclic, dims = [2], factor = 2, pad = 8011>>
// site: @main assign memref<4x3x7xi16, #layout.partition<[block, complete], dims = [0, 1], factor = [2, 3], pad = 26449>>
func.func private @kernel(%A: memref<4x3x7xi16>, %B: memref<?x?x?x?xi16>, %n: index) -> i16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c21 = arith.constant 21 : index
  %c5 = arith.constant 5 : index
  %c12 = arith.constant 12 : index
  %c6 = arith.constant 6 : index
  %d1 = memref.dim %B, %c0 : memref<?x?x?x?xi16>
  %d2 = memref.dim %B, %c1 : memref<?x?x?x?xi16>
  %d3 = memref.dim %B, %c2 : memref<?x?x?x?xi16>
  %d4 = memref.dim %B, %c3 : memref<?x?x?x?xi16>
  %alloc5 = memref.alloc() : memref<4x3x7xi16>
  layout.assign %alloc5 to #layout.partition<cyclic, dims = [2], factor = 2, pad = 8011> : memref<4x3x7xi16>
  scf.for %i6 = %c0 to %c4 step %c1 {
    scf.for %i7 = %c0 to %c3 step %c1 {
      scf.for %i8 = %c0 to %c7 step %c1 {
        %s9 = arith.muli %i6, %c21 : index
        %l10 = arith.addi %c0, %s9 : index
        %s11 = arith.muli %i7, %c7 : index
        %l12 = arith.addi %l10, %s11 : index
        %s13 = arith.muli %i8, %c1 : index
        %l14 = arith.addi %l12, %s13 : index
        %x16 = arith.muli %l14, %c3 : index
        %x15 = arith.addi %x16, %c5 : index
        %fv17 = arith.index_cast %x15 : index to i16
        memref.store %fv17, %alloc5[%i6, %i7, %i8] : memref<4x3x7xi16>
      }
    }
  }
  %acc = arith.constant 0 : i16
  %c3_18 = arith.constant 3 : index
  %x19 = arith.remsi %n, %c3 : index
  %c0_20 = arith.constant 0 : index
  %vec21 = vector.load %alloc5[%c3_18, %x19, %c0_20] : memref<4x3x7xi16>, vector<5xi16>
  %e22 = vector.extract %vec21[2] : i16 from vector<5xi16>
  %s23 = arith.addi %acc, %e22 : i16
  %r25 = affine.for %i24 = 2 to 6 step 2 iter_args(%a26 = %s23) -> (i16) {
    %k27 = arith.constant -3 : i16
    affine.store %k27, %A[%x19 mod 2, %i24 mod 3, %i24 floordiv 2 + 1] : memref<4x3x7xi16>
    "memref.copy"(%alloc5, %A) : (memref<4x3x7xi16>, memref<4x3x7xi16>) -> ()
    affine.yield %a26 : i16
  }
  %p28 = arith.cmpi sgt, %n, %c12 : index
  %r29 = scf.if %p28 -> (i16) {
    %k30 = arith.constant -1 : i16
    %w31 = arith.addi %e22, %k30 : i16
    affine.store %w31, %B[%x19 floordiv 3, %x19, %x19 mod 3, 2] : memref<?x?x?x?xi16>
    %vec32 = affine.vector_load %A[2 - %x19, %n mod 2, %x19] : memref<4x3x7xi16>, vector<1xi16>
    %e33 = vector.extract %vec32[0] : i16 from vector<1xi16>
    %s34 = arith.addi %r25, %e33 : i16
    %c2_35 = arith.constant 2 : index
    %p36 = arith.cmpi sge, %x19, %c2_35 : index
    %r37 = scf.if %p36 -> (i16) {
      %k38 = arith.constant 2 : i16
      %w39 = arith.addi %e22, %k38 : i16
      %x40 = arith.remsi %n, %c3_18 : index
      %x41 = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%x19)
      %x42 = affine.apply affine_map<(d0) -> (d0 mod 7)>(%n)
      memref.store %w39, %alloc5[%x40, %x41, %x42] : memref<4x3x7xi16>
      %p43 = arith.cmpi eq, %n, %c6 : index
      %r44 = scf.if %p43 -> (i16) {
        %v45 = affine.load %alloc5[%x41 + 1, %x41 + %x19, %x41] : memref<4x3x7xi16>
        %s46 = arith.addi %s34, %v45 : i16
        scf.yield %s46 : i16
      } else {
        affine.store %w39, %B[%x41, %x19 floordiv 2, 2 - %x19, %x19 + 1] : memref<?x?x?x?xi16>
        scf.yield %s34 : i16
      }
      scf.yield %r44 : i16
    } else {
      %v47 = affine.load %B[%x19 floordiv 3, %x19, %x19 mod 3, 2] : memref<?x?x?x?xi16>
      %s48 = arith.addi %s34, %v47 : i16
      scf.yield %s48 : i16
    }
    scf.yield %r37 : i16
  } else {
    %v49 = affine.load %B[0, %x19 + %x19, %n mod 2, 2 - %x19] : memref<?x?x?x?xi16>
    %s50 = arith.addi %r25, %v49 : i16
    scf.yield %s50 : i16
  }
  "memref.copy"(%alloc5, %A) : (memref<4x3x7xi16>, memref<4x3x7xi16>) -> ()
  memref.dealloc %alloc5 : memref<4x3x7xi16>
  func.return %r29 : i16
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c21 = arith.constant 21 : index
  %c9 = arith.constant 9 : index
  %c108 = arith.constant 108 : index
  %c12 = arith.constant 12 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %alloc1 = memref.alloc() : memref<4x3x7xi16>
  scf.for %i2 = %c0 to %c4 step %c1 {
    scf.for %i3 = %c0 to %c3 step %c1 {
      scf.for %i4 = %c0 to %c7 step %c1 {
        %s5 = arith.muli %i2, %c21 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c7 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c1 : index
        %fv13 = arith.index_cast %x11 : index to i16
        memref.store %fv13, %alloc1[%i2, %i3, %i4] : memref<4x3x7xi16>
      }
    }
  }
  layout.assign %alloc1 to #layout.partition<[block, complete], dims = [0, 1], factor = [2, 3], pad = 26449> : memref<4x3x7xi16>
  %alloca14 = memref.alloca() : memref<1x9x3x4xi16>
  scf.for %i15 = %c0 to %c1 step %c1 {
    scf.for %i16 = %c0 to %c9 step %c1 {
      scf.for %i17 = %c0 to %c3 step %c1 {
        scf.for %i18 = %c0 to %c4 step %c1 {
          %s19 = arith.muli %i15, %c108 : index
          %l20 = arith.addi %c0, %s19 : index
          %s21 = arith.muli %i16, %c12 : index
          %l22 = arith.addi %l20, %s21 : index
          %s23 = arith.muli %i17, %c4 : index
          %l24 = arith.addi %l22, %s23 : index
          %s25 = arith.muli %i18, %c1 : index
          %l26 = arith.addi %l24, %s25 : index
          %x28 = arith.muli %l26, %c3 : index
          %x27 = arith.addi %x28, %c2 : index
          %fv29 = arith.index_cast %x27 : index to i16
          memref.store %fv29, %alloca14[%i15, %i16, %i17, %i18] : memref<1x9x3x4xi16>
        }
      }
    }
  }
  %cast30 = "memref.cast"(%alloca14) : (memref<1x9x3x4xi16>) -> memref<?x?x?x?xi16>
  %r = func.call @kernel(%alloc1, %cast30, %c6) : (memref<4x3x7xi16>, memref<?x?x?x?xi16>, index) -> i16
  "vector.print"(%r) : (i16) -> ()
  scf.for %i31 = %c0 to %c4 step %c1 {
    scf.for %i32 = %c0 to %c3 step %c1 {
      scf.for %i33 = %c0 to %c7 step %c1 {
        %s34 = arith.muli %i31, %c21 : index
        %l35 = arith.addi %c0, %s34 : index
        %s36 = arith.muli %i32, %c7 : index
        %l37 = arith.addi %l35, %s36 : index
        %s38 = arith.muli %i33, %c1 : index
        %l39 = arith.addi %l37, %s38 : index
        %p40 = memref.load %alloc1[%i31, %i32, %i33] : memref<4x3x7xi16>
        "vector.print"(%p40) : (i16) -> ()
      }
    }
  }
  scf.for %i41 = %c0 to %c1 step %c1 {
    scf.for %i42 = %c0 to %c9 step %c1 {
      scf.for %i43 = %c0 to %c3 step %c1 {
        scf.for %i44 = %c0 to %c4 step %c1 {
          %s45 = arith.muli %i41, %c108 : index
          %l46 = arith.addi %c0, %s45 : index
          %s47 = arith.muli %i42, %c12 : index
          %l48 = arith.addi %l46, %s47 : index
          %s49 = arith.muli %i43, %c4 : index
          %l50 = arith.addi %l48, %s49 : index
          %s51 = arith.muli %i44, %c1 : index
          %l52 = arith.addi %l50, %s51 : index
          %p53 = memref.load %alloca14[%i41, %i42, %i43, %i44] : memref<1x9x3x4xi16>
          "vector.print"(%p53) : (i16) -> ()
        }
      }
    }
  }
  memref.dealloc %alloc1 : memref<4x3x7xi16>
  func.return
}
