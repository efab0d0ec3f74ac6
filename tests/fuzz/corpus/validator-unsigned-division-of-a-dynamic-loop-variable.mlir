// fuzz case seed-1598 (seed 1598, element i16)
// seed 1598: unproven access [affine-flat] layout-lower: translation validation: memref.load at <input>:59:9 is not proven: not proven symbolically (the layout gives ((((((d0 ceildiv 3) * 36) + (((d1 floordiv 3) mod 3) * 12)) + (d0 * 4)) + (d2 floordiv 3)) + ((d1 floordiv 3) floordiv 3)), the code (((((d0 * 4) + (((d0 + 2) floordiv 3) * 36))  reproduce: python -m benchmarks.fuzz --replay 1598
// site: @kernel assign memref<6x4x4x1xi16, #layout.chunked<"ChunkedMemoryLayout<4, 1,0, 3,3, 0,0, 2,0, 3,0, 2,3>", pack = vector<3xi16>>>
// site: @kernel type memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>
// site: @main type memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>
"memref.global"() <{sym_name = "g0", sym_visibility = "private", constant, type = memref<2x3x2xi16>, initial_value = dense<[[[2, 5], [8, 11], [14, 17]], [[20, 23], [26, 29], [32, 35]]]> : tensor<2x3x2xi16>}> : () -> ()
func.func @kernel(%A: memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>, %B: memref<?x?x?xi16>, %n: index) -> i16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %d1 = memref.dim %B, %c0 : memref<?x?x?xi16>
  %d2 = memref.dim %B, %c1 : memref<?x?x?xi16>
  %d3 = memref.dim %B, %c2 : memref<?x?x?xi16>
  %alloca4 = memref.alloca() : memref<6x4x4x1xi16>
  layout.assign %alloca4 to #layout.chunked<"ChunkedMemoryLayout<4, 1,0, 3,3, 0,0, 2,0, 3,0, 2,3>", pack = vector<3xi16>> : memref<6x4x4x1xi16>
  scf.for %i5 = %c0 to %c6 step %c1 {
    scf.for %i6 = %c0 to %c4 step %c1 {
      scf.for %i7 = %c0 to %c4 step %c1 {
        scf.for %i8 = %c0 to %c1 step %c1 {
          %s9 = arith.muli %i5, %c16 : index
          %l10 = arith.addi %c0, %s9 : index
          %s11 = arith.muli %i6, %c4 : index
          %l12 = arith.addi %l10, %s11 : index
          %s13 = arith.muli %i7, %c1 : index
          %l14 = arith.addi %l12, %s13 : index
          %s15 = arith.muli %i8, %c1 : index
          %l16 = arith.addi %l14, %s15 : index
          %x18 = arith.muli %l16, %c3 : index
          %x17 = arith.addi %x18, %c5 : index
          %fv19 = arith.index_cast %x17 : index to i16
          memref.store %fv19, %alloca4[%i5, %i6, %i7, %i8] : memref<6x4x4x1xi16>
        }
      }
    }
  }
  %acc = arith.constant 0 : i16
  %c1_20 = arith.constant 1 : index
  %r22 = scf.for %i21 = %c1_20 to %d1 step %c3 iter_args(%a23 = %acc) -> (i16) {
    %v24 = affine.load %A[2, %n mod 3, 1, 0] : memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>
    %s25 = arith.addi %a23, %v24 : i16
    %c2_27 = arith.constant 2 : index
    %x26 = arith.muli %i21, %c2_27 : index
    %x28 = arith.divui %i21, %c2_27 : index
    %vec29 = vector.load %B[%i21, %x26, %x28] : memref<?x?x?xi16>, vector<2xi16>
    %e30 = vector.extract %vec29[1] : i16 from vector<2xi16>
    %s31 = arith.addi %s25, %e30 : i16
    %r33 = affine.for %i32 = 0 to 6 step 1 iter_args(%a34 = %s31) -> (i16) {
      %v35 = affine.load %B[%n mod 2, %i32 floordiv 4 + 1, %n mod 2] : memref<?x?x?xi16>
      %s36 = arith.addi %a34, %v35 : i16
      %c15_37 = arith.constant 15 : index
      %p38 = arith.cmpi sle, %n, %c15_37 : index
      %r39 = scf.if %p38 -> (i16) {
        %x40 = arith.muli %i21, %c2 : index
        %x41 = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%i21)
        %c4_43 = arith.constant 4 : index
        %x42 = arith.divsi %x28, %c4_43 : index
        %c3_45 = arith.constant 3 : index
        %x44 = arith.floordivsi %x28, %c3_45 : index
        %v46 = memref.load %alloca4[%x40, %x41, %x42, %x44] : memref<6x4x4x1xi16>
        %s47 = arith.addi %s36, %v46 : i16
        scf.yield %s47 : i16
      } else {
        %v48 = affine.load %A[%i32 floordiv 2 + 1, %i32 mod 2, 1, 0] : memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>
        %s49 = arith.addi %s36, %v48 : i16
        %x50 = arith.muli %i21, %c2_27 : index
        %x51 = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%i21)
        %x52 = arith.divsi %x28, %c4 : index
        %c3_54 = arith.constant 3 : index
        %x53 = arith.floordivsi %x28, %c3_54 : index
        %vec55 = vector.load %alloca4[%x50, %x51, %x52, %x53] : memref<6x4x4x1xi16>, vector<1xi16>
        %e56 = vector.extract %vec55[0] : i16 from vector<1xi16>
        %s57 = arith.addi %s49, %e56 : i16
        memref.store %v35, %alloca4[%x50, %x51, %x52, %x53] : memref<6x4x4x1xi16>
        scf.yield %s57 : i16
      }
      affine.yield %r39 : i16
    }
    scf.yield %r33 : i16
  }
  %c4_59 = arith.constant 4 : index
  %x58 = arith.remsi %n, %c4_59 : index
  %v60 = affine.load %A[1, 3 - %x58, %x58 floordiv 2 + 1, 0] : memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>
  %s61 = arith.addi %r22, %v60 : i16
  layout.convert %alloca4 to %A : memref<6x4x4x1xi16> to memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>
  func.return %s61 : i16
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>
  scf.for %i2 = %c0 to %c6 step %c1 {
    scf.for %i3 = %c0 to %c4 step %c1 {
      scf.for %i4 = %c0 to %c4 step %c1 {
        scf.for %i5 = %c0 to %c1 step %c1 {
          %s6 = arith.muli %i2, %c16 : index
          %l7 = arith.addi %c0, %s6 : index
          %s8 = arith.muli %i3, %c4 : index
          %l9 = arith.addi %l7, %s8 : index
          %s10 = arith.muli %i4, %c1 : index
          %l11 = arith.addi %l9, %s10 : index
          %s12 = arith.muli %i5, %c1 : index
          %l13 = arith.addi %l11, %s12 : index
          %x15 = arith.muli %l13, %c3 : index
          %x14 = arith.addi %x15, %c1 : index
          %fv16 = arith.index_cast %x14 : index to i16
          memref.store %fv16, %alloc1[%i2, %i3, %i4, %i5] : memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>
        }
      }
    }
  }
  %g = memref.get_global @g0 : memref<2x3x2xi16>
  %cast17 = "memref.cast"(%g) : (memref<2x3x2xi16>) -> memref<?x?x?xi16>
  %r = func.call @kernel(%alloc1, %cast17, %c1) : (memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>, memref<?x?x?xi16>, index) -> i16
  "vector.print"(%r) : (i16) -> ()
  scf.for %i18 = %c0 to %c6 step %c1 {
    scf.for %i19 = %c0 to %c4 step %c1 {
      scf.for %i20 = %c0 to %c4 step %c1 {
        scf.for %i21 = %c0 to %c1 step %c1 {
          %s22 = arith.muli %i18, %c16 : index
          %l23 = arith.addi %c0, %s22 : index
          %s24 = arith.muli %i19, %c4 : index
          %l25 = arith.addi %l23, %s24 : index
          %s26 = arith.muli %i20, %c1 : index
          %l27 = arith.addi %l25, %s26 : index
          %s28 = arith.muli %i21, %c1 : index
          %l29 = arith.addi %l27, %s28 : index
          %p30 = memref.load %alloc1[%i18, %i19, %i20, %i21] : memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>
          "vector.print"(%p30) : (i16) -> ()
        }
      }
    }
  }
  scf.for %i31 = %c0 to %c2 step %c1 {
    scf.for %i32 = %c0 to %c3 step %c1 {
      scf.for %i33 = %c0 to %c2 step %c1 {
        %s34 = arith.muli %i31, %c6 : index
        %l35 = arith.addi %c0, %s34 : index
        %s36 = arith.muli %i32, %c2 : index
        %l37 = arith.addi %l35, %s36 : index
        %s38 = arith.muli %i33, %c1 : index
        %l39 = arith.addi %l37, %s38 : index
        %p40 = memref.load %g[%i31, %i32, %i33] : memref<2x3x2xi16>
        "vector.print"(%p40) : (i16) -> ()
      }
    }
  }
  memref.dealloc %alloc1 : memref<6x4x4x1xi16, #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d2 floordiv 3, d1, d3 floordiv 3, d2 mod 3, d3 mod 3)>>>
  func.return
}
