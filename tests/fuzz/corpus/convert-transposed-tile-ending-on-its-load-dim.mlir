// fuzz case seed-33223 (seed 33223, element i32)
// seed 33223: wrong value [schedule/interp] printed line 76: '0', reference '8'  reproduce: python -m benchmarks.fuzz --replay 33223
// site: @kernel type memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
// site: @main assign memref<2x4x3x3xi32, #layout.tpu<lanes = 3, start = 0, stride = [31, 15, 5, 1]>>
// site: @main type memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
func.func @kernel(%A: memref<2x4x3x3xi32>, %B: memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>, %n: index) -> i32 {
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %acc = arith.constant 0 : i32
  %c4_2 = arith.constant 4 : index
  %x1 = arith.remui %n, %c4_2 : index
  %c5_3 = arith.constant 5 : index
  %p4 = arith.cmpi slt, %n, %c5_3 : index
  scf.if %p4 {
    %k6 = arith.constant 0 : i32
    %c4_8 = arith.constant 4 : index
    %x7 = arith.ceildivui %x1, %c4_8 : index
    %c3_10 = arith.constant 3 : index
    %x9 = arith.divui %x1, %c3_10 : index
    %x11 = arith.ceildivsi %x1, %c3_10 : index
    %x12 = arith.ceildivsi %x1, %c4_8 : index
    memref.store %k6, %B[%x7, %x9, %x11, %x12] : memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
  } else {
    %x13 = arith.floordivsi %x1, %c4 : index
    %x14 = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%x1)
    %x15 = arith.ceildivui %x1, %c4 : index
    %x16 = arith.remsi %n, %c3 : index
    %v17 = memref.load %A[%x13, %x14, %x15, %x16] : memref<2x4x3x3xi32>
    %x18 = arith.floordivsi %x1, %c4 : index
    %x19 = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%x1)
    %x20 = arith.ceildivui %x1, %c4 : index
    %c3_22 = arith.constant 3 : index
    %x21 = arith.remsi %n, %c3_22 : index
    %v23 = memref.load %A[%x18, %x19, %x20, %x21] : memref<2x4x3x3xi32>
    %c4_25 = arith.constant 4 : index
    %x24 = arith.ceildivui %x1, %c4_25 : index
    %c3_27 = arith.constant 3 : index
    %x26 = arith.divui %x1, %c3_27 : index
    %x28 = arith.ceildivsi %x1, %c3_27 : index
    %x29 = arith.ceildivsi %x1, %c4_25 : index
    %v30 = memref.load %B[%x24, %x26, %x28, %x29] : memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
  }
  %x31 = arith.ceildivui %x1, %c3 : index
  %x32 = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%x1)
  %x33 = affine.apply affine_map<(d0) -> (d0 mod 2)>(%n)
  %c3_35 = arith.constant 3 : index
  %x34 = arith.divui %x1, %c3_35 : index
  %k37 = arith.constant 7 : i32
  %vec36 = vector.broadcast %k37 : i32 to vector<2xi32>
  vector.store %vec36, %B[%x31, %x32, %x33, %x34] : memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>, vector<2xi32>
  %x38 = affine.apply affine_map<(d0) -> (d0 mod 2)>(%n)
  %x39 = arith.ceildivui %x31, %c3_35 : index
  %x40 = affine.apply affine_map<(d0) -> (d0 mod 2)>(%x33)
  %x41 = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%x33)
  %v42 = memref.load %B[%x38, %x39, %x40, %x41] : memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
  %s43 = arith.addi %acc, %v42 : i32
  %c0_44 = arith.constant 0 : index
  %p45 = arith.cmpi eq, %x40, %c0_44 : index
  %r46 = scf.if %p45 -> (i32) {
    %x47 = affine.apply affine_map<(d0) -> (d0 mod 2)>(%n)
    %x48 = arith.ceildivui %x31, %c3 : index
    %x49 = affine.apply affine_map<(d0) -> (d0 mod 2)>(%x33)
    %x50 = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%x33)
    %v51 = memref.load %A[%x47, %x48, %x49, %x50] : memref<2x4x3x3xi32>
    %s52 = arith.addi %s43, %v51 : i32
    %vec53 = affine.vector_load %B[%x50 + %x32, 1 - %x38, 1 - %x47, %x31 floordiv 2 + 1] : memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>, vector<2xi32>
    %e54 = vector.extract %vec53[0] : i32 from vector<2xi32>
    %s55 = arith.addi %s52, %e54 : i32
    scf.yield %s55 : i32
  } else {
    %v56 = affine.load %A[%x38 ceildiv 2, %x32 floordiv 3, %x32 + %x31, %x41 floordiv 3] : memref<2x4x3x3xi32>
    %s57 = arith.addi %s43, %v56 : i32
    %k58 = arith.constant 2 : i32
    affine.store %k58, %B[%x41, %x38 floordiv 2, %x32 mod 2, %x41 + %x38] : memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
    scf.yield %s57 : i32
  }
  func.return %r46 : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %c36 = arith.constant 36 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %c6 = arith.constant 6 : index
  %c5 = arith.constant 5 : index
  %alloc1 = memref.alloc() : memref<2x4x3x3xi32>
  scf.for %i2 = %c0 to %c2 step %c1 {
    scf.for %i3 = %c0 to %c4 step %c1 {
      scf.for %i4 = %c0 to %c3 step %c1 {
        scf.for %i5 = %c0 to %c3 step %c1 {
          %s6 = arith.muli %i2, %c36 : index
          %l7 = arith.addi %c0, %s6 : index
          %s8 = arith.muli %i3, %c9 : index
          %l9 = arith.addi %l7, %s8 : index
          %s10 = arith.muli %i4, %c3 : index
          %l11 = arith.addi %l9, %s10 : index
          %s12 = arith.muli %i5, %c1 : index
          %l13 = arith.addi %l11, %s12 : index
          %x15 = arith.muli %l13, %c3 : index
          %x14 = arith.addi %x15, %c1 : index
          %fv16 = arith.index_cast %x14 : index to i32
          memref.store %fv16, %alloc1[%i2, %i3, %i4, %i5] : memref<2x4x3x3xi32>
        }
      }
    }
  }
  layout.assign %alloc1 to #layout.tpu<lanes = 3, start = 0, stride = [31, 15, 5, 1]> : memref<2x4x3x3xi32>
  %alloc17 = memref.alloc() : memref<2x2x2x3xi32>
  scf.for %i18 = %c0 to %c2 step %c1 {
    scf.for %i19 = %c0 to %c2 step %c1 {
      scf.for %i20 = %c0 to %c2 step %c1 {
        scf.for %i21 = %c0 to %c3 step %c1 {
          %s22 = arith.muli %i18, %c12 : index
          %l23 = arith.addi %c0, %s22 : index
          %s24 = arith.muli %i19, %c6 : index
          %l25 = arith.addi %l23, %s24 : index
          %s26 = arith.muli %i20, %c3 : index
          %l27 = arith.addi %l25, %s26 : index
          %s28 = arith.muli %i21, %c1 : index
          %l29 = arith.addi %l27, %s28 : index
          %x31 = arith.muli %l29, %c3 : index
          %x30 = arith.addi %x31, %c2 : index
          %fv32 = arith.index_cast %x30 : index to i32
          memref.store %fv32, %alloc17[%i18, %i19, %i20, %i21] : memref<2x2x2x3xi32>
        }
      }
    }
  }
  %alloc33 = memref.alloc() : memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
  layout.convert %alloc17 to %alloc33 : memref<2x2x2x3xi32> to memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
  %r = func.call @kernel(%alloc1, %alloc33, %c5) : (memref<2x4x3x3xi32>, memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>, index) -> i32
  "memref.copy"(%alloc33, %alloc17) : (memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>, memref<2x2x2x3xi32>) -> ()
  memref.dealloc %alloc33 : memref<2x2x2x3xi32, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>>
  "vector.print"(%r) : (i32) -> ()
  scf.for %i34 = %c0 to %c2 step %c1 {
    scf.for %i35 = %c0 to %c4 step %c1 {
      scf.for %i36 = %c0 to %c3 step %c1 {
        scf.for %i37 = %c0 to %c3 step %c1 {
          %s38 = arith.muli %i34, %c36 : index
          %l39 = arith.addi %c0, %s38 : index
          %s40 = arith.muli %i35, %c9 : index
          %l41 = arith.addi %l39, %s40 : index
          %s42 = arith.muli %i36, %c3 : index
          %l43 = arith.addi %l41, %s42 : index
          %s44 = arith.muli %i37, %c1 : index
          %l45 = arith.addi %l43, %s44 : index
          %p46 = memref.load %alloc1[%i34, %i35, %i36, %i37] : memref<2x4x3x3xi32>
          "vector.print"(%p46) : (i32) -> ()
        }
      }
    }
  }
  scf.for %i47 = %c0 to %c2 step %c1 {
    scf.for %i48 = %c0 to %c2 step %c1 {
      scf.for %i49 = %c0 to %c2 step %c1 {
        scf.for %i50 = %c0 to %c3 step %c1 {
          %s51 = arith.muli %i47, %c12 : index
          %l52 = arith.addi %c0, %s51 : index
          %s53 = arith.muli %i48, %c6 : index
          %l54 = arith.addi %l52, %s53 : index
          %s55 = arith.muli %i49, %c3 : index
          %l56 = arith.addi %l54, %s55 : index
          %s57 = arith.muli %i50, %c1 : index
          %l58 = arith.addi %l56, %s57 : index
          %p59 = memref.load %alloc17[%i47, %i48, %i49, %i50] : memref<2x2x2x3xi32>
          "vector.print"(%p59) : (i32) -> ()
        }
      }
    }
  }
  memref.dealloc %alloc1 : memref<2x4x3x3xi32>
  memref.dealloc %alloc17 : memref<2x2x2x3xi32>
  func.return
}
