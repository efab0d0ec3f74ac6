// fuzz case padded-copy-written-into-its-window (seed 700209, element i8)
// a temporary copied into the interior of a filled, larger one of the same tag layout: layout-schedule writes the window directly (window_writes.py); the silent-drop oracle takes its remark for the dropped buffer
// native
// site: @helper assign memref<9x5x11x19xi8, #layout.partition<cyclic, dims = [1], factor = 3>>
// site: @helper assign memref<4x1x1xi8, #layout.tag<"eQg->Geq3Q1q", pad = -73, pack = vector<1xi8>>>
// site: @kernel type memref<8x?x9x18xi8, #layout.map<affine_map<(d0, d1, d2, d3) -> (d2 mod 8, d0 mod 8, d1, d3, d0 floordiv 8, d2 floordiv 8)>>>
// site: @kernel type memref<2x3x3x4xi8, #layout.chunked<[2, 0, 0, 0, 1, 0, 3, 0, 1, 3, 0, 2], pack = i32>>
// site: @main type memref<2x3x3x4xi8, #layout.chunked<[2, 0, 0, 0, 1, 0, 3, 0, 1, 3, 0, 2], pack = i32>>
func.func private @kernel(%A: memref<8x?x9x18xi8>, %B: memref<2x3x3x4xi8, #layout.chunked<[2, 0, 0, 0, 1, 0, 3, 0, 1, 3, 0, 2], pack = i32>>, %n: index) -> i8 {
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c4 = arith.constant 4 : index
  %c2 = arith.constant 2 : index
  %d1 = memref.dim %A, %c1 : memref<8x?x9x18xi8>
  %alloc2 = memref.alloc(%d1) : memref<8x?x9x18xi8, #layout.map<affine_map<(d0, d1, d2, d3) -> (d2 mod 8, d0 mod 8, d1, d3, d0 floordiv 8, d2 floordiv 8)>>>
  layout.convert %A to %alloc2 : memref<8x?x9x18xi8> to memref<8x?x9x18xi8, #layout.map<affine_map<(d0, d1, d2, d3) -> (d2 mod 8, d0 mod 8, d1, d3, d0 floordiv 8, d2 floordiv 8)>>>
  %acc = arith.constant 0 : i8
  %x3 = arith.remsi %n, %c6 : index
  %h4 = func.call @helper(%A, %x3) : (memref<8x?x9x18xi8>, index) -> i8
  %s5 = arith.addi %acc, %h4 : i8
  %x6 = affine.apply affine_map<(d0) -> (6 - d0)>(%x3)
  %c2_8 = arith.constant 2 : index
  %x7 = arith.remsi %x3, %c2_8 : index
  %x9 = arith.divsi %x3, %c4 : index
  %x10 = affine.apply affine_map<(d0) -> (6 - d0)>(%x3)
  %v11 = memref.load %alloc2[%x6, %x7, %x9, %x10] : memref<8x?x9x18xi8, #layout.map<affine_map<(d0, d1, d2, d3) -> (d2 mod 8, d0 mod 8, d1, d3, d0 floordiv 8, d2 floordiv 8)>>>
  %s12 = arith.addi %s5, %v11 : i8
  %x13 = arith.divsi %x10, %c4 : index
  %x14 = affine.apply affine_map<(d0) -> (d0 mod 3)>(%x10)
  %x15 = arith.divui %x10, %c2_8 : index
  %v16 = memref.load %B[%x13, %c2, %x14, %x15] : memref<2x3x3x4xi8, #layout.chunked<[2, 0, 0, 0, 1, 0, 3, 0, 1, 3, 0, 2], pack = i32>>
  %s17 = arith.addi %s12, %v16 : i8
  layout.convert %alloc2 to %A : memref<8x?x9x18xi8, #layout.map<affine_map<(d0, d1, d2, d3) -> (d2 mod 8, d0 mod 8, d1, d3, d0 floordiv 8, d2 floordiv 8)>>> to memref<8x?x9x18xi8>
  memref.dealloc %alloc2 : memref<8x?x9x18xi8, #layout.map<affine_map<(d0, d1, d2, d3) -> (d2 mod 8, d0 mod 8, d1, d3, d0 floordiv 8, d2 floordiv 8)>>>
  func.return %s17 : i8
}
func.func private @helper(%X: memref<8x?x9x18xi8>, %n: index) -> i8 {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %km3_i8 = arith.constant -3 : i8
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  %c18 = arith.constant 18 : index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %k2_i8 = arith.constant 2 : i8
  %c10 = arith.constant 10 : index
  %k7_i8 = arith.constant 7 : i8
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  %k1_i8 = arith.constant 1 : i8
  %d1 = memref.dim %X, %c1 : memref<8x?x9x18xi8>
  %acc = arith.constant 0 : i8
  %c5_3 = arith.constant 5 : index
  %x2 = arith.remui %n, %c5_3 : index
  %x4 = arith.remui %n, %c3 : index
  %alloc5 = memref.alloc() : memref<8x4x9x18xi8>
  linalg.fill ins(%km3_i8 : i8) outs(%alloc5 : memref<8x4x9x18xi8>)
  %alloca6 = memref.alloca() : memref<9x5x11x19xi8>
  layout.assign %alloca6 to #layout.partition<cyclic, dims = [1], factor = 3> : memref<9x5x11x19xi8>
  linalg.fill ins(%km3_i8 : i8) outs(%alloca6 : memref<9x5x11x19xi8>)
  %sv7 = memref.subview %alloca6[0, 0, 2, 0] [8, 4, 9, 18] [1, 1, 1, 1] : memref<9x5x11x19xi8> to memref<8x4x9x18xi8, strided<[1045, 209, 19, 1], offset: 38>>
  linalg.copy ins(%alloc5 : memref<8x4x9x18xi8>) outs(%sv7 : memref<8x4x9x18xi8, strided<[1045, 209, 19, 1], offset: 38>>)
  %sv8 = memref.subview %alloca6[1, 0, 2, 0] [8, 4, 9, 18] [1, 1, 1, 1] : memref<9x5x11x19xi8> to memref<8x4x9x18xi8, strided<[1045, 209, 19, 1], offset: 1083>>
  linalg.copy ins(%sv8 : memref<8x4x9x18xi8, strided<[1045, 209, 19, 1], offset: 1083>>) outs(%X : memref<8x?x9x18xi8>)
  memref.dealloc %alloc5 : memref<8x4x9x18xi8>
  scf.for %n11 = %c0 to %c9 step %c1 {
    scf.for %n12 = %c0 to %c18 step %c1 {
      scf.for %n9 = %c0 to %c8 step %c1 {
        scf.for %n10 = %c0 to %c4 step %c1 {
          %nv13 = memref.load %X[%n9, %n10, %n11, %n12] : memref<8x?x9x18xi8>
          %nr14 = arith.addi %nv13, %k2_i8 : i8
          memref.store %nr14, %X[%n9, %n10, %n11, %n12] : memref<8x?x9x18xi8>
        }
      }
    }
  }
  %x15 = arith.subi %c5_3, %x2 : index
  %p16 = arith.cmpi sgt, %n, %c10 : index
  %r17 = scf.if %p16 -> (i8) {
    %v18 = affine.load %X[%x4 floordiv 3, %x2 floordiv 2, %x4 floordiv 4 + 1, %x4 mod 18] : memref<8x?x9x18xi8>
    %s19 = arith.addi %acc, %v18 : i8
    %alloc20 = memref.alloc() : memref<8x4x9x18xi8>
    linalg.fill ins(%k7_i8 : i8) outs(%alloc20 : memref<8x4x9x18xi8>)
    %alloc21 = memref.alloc() : memref<4x1x1xi8>
    layout.assign %alloc21 to #layout.tag<"eQg->Geq3Q1q", pad = -73, pack = vector<1xi8>> : memref<4x1x1xi8>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%alloc21 : memref<4x1x1xi8>) {
    ^bb0(%out22: i8):
      %li23 = linalg.index 0 : index
      %ls24 = arith.muli %li23, %c3 : index
      %la25 = arith.addi %c1, %ls24 : index
      %li26 = linalg.index 1 : index
      %ls27 = arith.muli %li26, %c5 : index
      %la28 = arith.addi %la25, %ls27 : index
      %li29 = linalg.index 2 : index
      %ls30 = arith.muli %li29, %c1 : index
      %la31 = arith.addi %la28, %ls30 : index
      %iv32 = arith.index_cast %la31 : index to i8
      linalg.yield %iv32 : i8
    }
    linalg.depthwise_conv_2d_nchw_chw ins(%alloc20, %alloc21 : memref<8x4x9x18xi8>, memref<4x1x1xi8>) outs(%X : memref<8x?x9x18xi8>)
    memref.dealloc %alloc20 : memref<8x4x9x18xi8>
    memref.dealloc %alloc21 : memref<4x1x1xi8>
    scf.yield %s19 : i8
  } else {
    %x33 = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%x15)
    %x34 = arith.floordivsi %x2, %c3 : index
    %x35 = arith.muli %c3, %x4 : index
    %x36 = arith.ceildivui %x4, %c2 : index
    %v37 = memref.load %X[%x33, %x34, %x35, %x36] : memref<8x?x9x18xi8>
    %s38 = arith.addi %acc, %v37 : i8
    scf.yield %s38 : i8
  }
  %x39 = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%x15)
  %c3_41 = arith.constant 3 : index
  %x40 = arith.floordivsi %x2, %c3_41 : index
  %c3_43 = arith.constant 3 : index
  %x42 = arith.muli %x4, %c3_43 : index
  %x44 = arith.ceildivui %x4, %c2 : index
  %v45 = memref.load %X[%x39, %x40, %x42, %x44] : memref<8x?x9x18xi8>
  %s46 = arith.addi %r17, %v45 : i8
  linalg.fill ins(%k1_i8 : i8) outs(%X : memref<8x?x9x18xi8>)
  func.return %s46 : i8
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %c18 = arith.constant 18 : index
  %c648 = arith.constant 648 : index
  %c162 = arith.constant 162 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %c36 = arith.constant 36 : index
  %c12 = arith.constant 12 : index
  %alloc1 = memref.alloc() : memref<8x4x9x18xi8>
  scf.for %i2 = %c0 to %c8 step %c1 {
    scf.for %i3 = %c0 to %c4 step %c1 {
      scf.for %i4 = %c0 to %c9 step %c1 {
        scf.for %i5 = %c0 to %c18 step %c1 {
          %s6 = arith.muli %i2, %c648 : index
          %l7 = arith.addi %c0, %s6 : index
          %s8 = arith.muli %i3, %c162 : index
          %l9 = arith.addi %l7, %s8 : index
          %s10 = arith.muli %i4, %c18 : index
          %l11 = arith.addi %l9, %s10 : index
          %s12 = arith.muli %i5, %c1 : index
          %l13 = arith.addi %l11, %s12 : index
          %x15 = arith.muli %l13, %c3 : index
          %x14 = arith.addi %x15, %c1 : index
          %fv16 = arith.index_cast %x14 : index to i8
          memref.store %fv16, %alloc1[%i2, %i3, %i4, %i5] : memref<8x4x9x18xi8>
        }
      }
    }
  }
  %alloc17 = memref.alloc() : memref<2x3x3x4xi8>
  scf.for %i18 = %c0 to %c2 step %c1 {
    scf.for %i19 = %c0 to %c3 step %c1 {
      scf.for %i20 = %c0 to %c3 step %c1 {
        scf.for %i21 = %c0 to %c4 step %c1 {
          %s22 = arith.muli %i18, %c36 : index
          %l23 = arith.addi %c0, %s22 : index
          %s24 = arith.muli %i19, %c12 : index
          %l25 = arith.addi %l23, %s24 : index
          %s26 = arith.muli %i20, %c4 : index
          %l27 = arith.addi %l25, %s26 : index
          %s28 = arith.muli %i21, %c1 : index
          %l29 = arith.addi %l27, %s28 : index
          %x31 = arith.muli %l29, %c3 : index
          %x30 = arith.addi %x31, %c2 : index
          %fv32 = arith.index_cast %x30 : index to i8
          memref.store %fv32, %alloc17[%i18, %i19, %i20, %i21] : memref<2x3x3x4xi8>
        }
      }
    }
  }
  %cast33 = "memref.cast"(%alloc1) : (memref<8x4x9x18xi8>) -> memref<8x?x9x18xi8>
  %alloc34 = memref.alloc() : memref<2x3x3x4xi8, #layout.chunked<[2, 0, 0, 0, 1, 0, 3, 0, 1, 3, 0, 2], pack = i32>>
  "memref.copy"(%alloc17, %alloc34) : (memref<2x3x3x4xi8>, memref<2x3x3x4xi8, #layout.chunked<[2, 0, 0, 0, 1, 0, 3, 0, 1, 3, 0, 2], pack = i32>>) -> ()
  %r = func.call @kernel(%cast33, %alloc34, %c4) : (memref<8x?x9x18xi8>, memref<2x3x3x4xi8, #layout.chunked<[2, 0, 0, 0, 1, 0, 3, 0, 1, 3, 0, 2], pack = i32>>, index) -> i8
  layout.convert %alloc34 to %alloc17 : memref<2x3x3x4xi8, #layout.chunked<[2, 0, 0, 0, 1, 0, 3, 0, 1, 3, 0, 2], pack = i32>> to memref<2x3x3x4xi8>
  memref.dealloc %alloc34 : memref<2x3x3x4xi8, #layout.chunked<[2, 0, 0, 0, 1, 0, 3, 0, 1, 3, 0, 2], pack = i32>>
  "vector.print"(%r) : (i8) -> ()
  scf.for %i35 = %c0 to %c8 step %c1 {
    scf.for %i36 = %c0 to %c4 step %c1 {
      scf.for %i37 = %c0 to %c9 step %c1 {
        scf.for %i38 = %c0 to %c18 step %c1 {
          %s39 = arith.muli %i35, %c648 : index
          %l40 = arith.addi %c0, %s39 : index
          %s41 = arith.muli %i36, %c162 : index
          %l42 = arith.addi %l40, %s41 : index
          %s43 = arith.muli %i37, %c18 : index
          %l44 = arith.addi %l42, %s43 : index
          %s45 = arith.muli %i38, %c1 : index
          %l46 = arith.addi %l44, %s45 : index
          %p47 = memref.load %alloc1[%i35, %i36, %i37, %i38] : memref<8x4x9x18xi8>
          "vector.print"(%p47) : (i8) -> ()
        }
      }
    }
  }
  scf.for %i48 = %c0 to %c2 step %c1 {
    scf.for %i49 = %c0 to %c3 step %c1 {
      scf.for %i50 = %c0 to %c3 step %c1 {
        scf.for %i51 = %c0 to %c4 step %c1 {
          %s52 = arith.muli %i48, %c36 : index
          %l53 = arith.addi %c0, %s52 : index
          %s54 = arith.muli %i49, %c12 : index
          %l55 = arith.addi %l53, %s54 : index
          %s56 = arith.muli %i50, %c4 : index
          %l57 = arith.addi %l55, %s56 : index
          %s58 = arith.muli %i51, %c1 : index
          %l59 = arith.addi %l57, %s58 : index
          %p60 = memref.load %alloc17[%i48, %i49, %i50, %i51] : memref<2x3x3x4xi8>
          "vector.print"(%p60) : (i8) -> ()
        }
      }
    }
  }
  memref.dealloc %alloc1 : memref<8x4x9x18xi8>
  memref.dealloc %alloc17 : memref<2x3x3x4xi8>
  func.return
}
