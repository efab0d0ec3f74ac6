// fuzz case seed-6157 (seed 6157, element i32)
// seed 6157: internal error [arith] KeyError: Term(kind='remui', args=(Term(kind='leaf', args=(), value=0, leaf=<BlockArgument[index] name_hint: n, index: 2, uses: 10>), Term(kind='const', args=(), value=2, leaf=None)), value=0, leaf=None)  reproduce: python -m benchmarks.fuzz --replay 6157
// site: @kernel type memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>
// site: @kernel type memref<1x6x?x?xi32, #layout.tag<"NCHW32">>
// site: @main type memref<4x4x4x1xi32, #layout.tag<"nhwc">>
// site: @main assign memref<1x6x4x4xi32, #layout.partition<cyclic, dims = [0], factor = 2, pad = 3442599047>>
// site: @main type memref<4x?x4x?xi32, #layout.tag<"nhwc">>
// site: @main type memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>
// site: @main type memref<1x6x?x?xi32, #layout.tag<"NCHW32">>
func.func @kernel(%A: memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>, %B: memref<1x6x?x?xi32, #layout.tag<"NCHW32">>, %n: index) -> i32 {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %k0_i32 = arith.constant 0 : i32
  %k2_i32 = arith.constant 2 : i32
  %d1 = memref.dim %A, %c1 : memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>
  %d2 = memref.dim %A, %c3 : memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>
  %d3 = memref.dim %B, %c2 : memref<1x6x?x?xi32, #layout.tag<"NCHW32">>
  %d4 = memref.dim %B, %c3 : memref<1x6x?x?xi32, #layout.tag<"NCHW32">>
  %acc = arith.constant 0 : i32
  %c4_6 = arith.constant 4 : index
  %x5 = arith.remui %n, %c4_6 : index
  %x7 = arith.remui %n, %c2 : index
  %p8 = arith.cmpi sgt, %n, %c2 : index
  scf.if %p8 {
    %k10 = arith.constant -3 : i32
    affine.store %k10, %B[0, %x5 + 2, %x5 floordiv 3, 2 - %x7] : memref<1x6x?x?xi32, #layout.tag<"NCHW32">>
    %v11 = affine.load %A[%x5 ceildiv 2, %x7 + 1, %x5 ceildiv 2, %x7 floordiv 3] : memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>
    %c15_12 = arith.constant 15 : index
    %p13 = arith.cmpi sle, %n, %c15_12 : index
    scf.if %p13 {
      %x15 = arith.remsi %x7, %c1 : index
      %x16 = arith.remui %n, %c4_6 : index
      %x17 = arith.remui %n, %c1 : index
      %v18 = memref.load %A[%x7, %x15, %x16, %x17] : memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>
    } else {
      %k19 = arith.constant 2 : i32
      %x20 = arith.remsi %n, %c1 : index
      %c1_22 = arith.constant 1 : index
      %x21 = arith.addi %c1_22, %x7 : index
      %x23 = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%x5)
      %x24 = arith.remui %n, %c4 : index
      memref.store %k19, %B[%x20, %x21, %x23, %x24] : memref<1x6x?x?xi32, #layout.tag<"NCHW32">>
      %x25 = arith.remsi %x7, %c1 : index
      %c4_27 = arith.constant 4 : index
      %x26 = arith.remui %n, %c4_27 : index
      %x28 = arith.remui %n, %c1_22 : index
      %vec29 = vector.broadcast %k0_i32 : i32 to vector<1xi32>
      vector.store %vec29, %A[%x7, %x25, %x26, %x28] : memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>, vector<1xi32>
    }
  }
  %x30 = affine.apply affine_map<(d0) -> (d0 ceildiv 2)>(%x5)
  %x31 = arith.ceildivui %x5, %c4_6 : index
  %x32 = arith.ceildivui %x7, %c2 : index
  %c3_34 = arith.constant 3 : index
  %x33 = arith.floordivsi %x7, %c3_34 : index
  %k36 = arith.constant -3 : i32
  %vec35 = vector.broadcast %k36 : i32 to vector<1xi32>
  vector.store %vec35, %A[%x30, %x31, %x32, %x33] : memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>, vector<1xi32>
  %vec37 = vector.broadcast %k2_i32 : i32 to vector<1xi32>
  affine.vector_store %vec37, %B[%x33 ceildiv 3, %x32 + %x32, 2 * %x33, %x5 floordiv 4 + 1] : memref<1x6x?x?xi32, #layout.tag<"NCHW32">>, vector<1xi32>
  func.return %acc : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c96 = arith.constant 96 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %alloc1 = memref.alloc() : memref<4x4x4x1xi32, #layout.tag<"nhwc">>
  scf.for %i2 = %c0 to %c4 step %c1 {
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
          %fv16 = arith.index_cast %x14 : index to i32
          memref.store %fv16, %alloc1[%i2, %i3, %i4, %i5] : memref<4x4x4x1xi32, #layout.tag<"nhwc">>
        }
      }
    }
  }
  %alloca17 = memref.alloca() : memref<1x6x4x4xi32>
  scf.for %i18 = %c0 to %c1 step %c1 {
    scf.for %i19 = %c0 to %c6 step %c1 {
      scf.for %i20 = %c0 to %c4 step %c1 {
        scf.for %i21 = %c0 to %c4 step %c1 {
          %s22 = arith.muli %i18, %c96 : index
          %l23 = arith.addi %c0, %s22 : index
          %s24 = arith.muli %i19, %c16 : index
          %l25 = arith.addi %l23, %s24 : index
          %s26 = arith.muli %i20, %c4 : index
          %l27 = arith.addi %l25, %s26 : index
          %s28 = arith.muli %i21, %c1 : index
          %l29 = arith.addi %l27, %s28 : index
          %x31 = arith.muli %l29, %c3 : index
          %x30 = arith.addi %x31, %c2 : index
          %fv32 = arith.index_cast %x30 : index to i32
          memref.store %fv32, %alloca17[%i18, %i19, %i20, %i21] : memref<1x6x4x4xi32>
        }
      }
    }
  }
  layout.assign %alloca17 to #layout.partition<cyclic, dims = [0], factor = 2, pad = 3442599047> : memref<1x6x4x4xi32>
  %cast33 = "memref.cast"(%alloc1) : (memref<4x4x4x1xi32, #layout.tag<"nhwc">>) -> memref<4x?x4x?xi32, #layout.tag<"nhwc">>
  %sz34 = memref.dim %cast33, %c1 : memref<4x?x4x?xi32, #layout.tag<"nhwc">>
  %sz35 = memref.dim %cast33, %c3 : memref<4x?x4x?xi32, #layout.tag<"nhwc">>
  %alloc36 = memref.alloc(%sz34, %sz35) : memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>
  layout.convert %cast33 to %alloc36 : memref<4x?x4x?xi32, #layout.tag<"nhwc">> to memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>
  %cast37 = "memref.cast"(%alloca17) : (memref<1x6x4x4xi32>) -> memref<1x6x?x?xi32>
  %sz38 = memref.dim %cast37, %c2 : memref<1x6x?x?xi32>
  %sz39 = memref.dim %cast37, %c3 : memref<1x6x?x?xi32>
  %alloc40 = memref.alloc(%sz38, %sz39) : memref<1x6x?x?xi32, #layout.tag<"NCHW32">>
  "memref.copy"(%cast37, %alloc40) : (memref<1x6x?x?xi32>, memref<1x6x?x?xi32, #layout.tag<"NCHW32">>) -> ()
  %r = func.call @kernel(%alloc36, %alloc40, %c7) : (memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>, memref<1x6x?x?xi32, #layout.tag<"NCHW32">>, index) -> i32
  "memref.copy"(%alloc40, %cast37) : (memref<1x6x?x?xi32, #layout.tag<"NCHW32">>, memref<1x6x?x?xi32>) -> ()
  memref.dealloc %alloc40 : memref<1x6x?x?xi32, #layout.tag<"NCHW32">>
  "memref.copy"(%alloc36, %cast33) : (memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>, memref<4x?x4x?xi32, #layout.tag<"nhwc">>) -> ()
  memref.dealloc %alloc36 : memref<4x?x4x?xi32, #layout.tag<"tduF->  TUFD", pad = -1603936409>>
  "vector.print"(%r) : (i32) -> ()
  scf.for %i41 = %c0 to %c4 step %c1 {
    scf.for %i42 = %c0 to %c4 step %c1 {
      scf.for %i43 = %c0 to %c4 step %c1 {
        scf.for %i44 = %c0 to %c1 step %c1 {
          %s45 = arith.muli %i41, %c16 : index
          %l46 = arith.addi %c0, %s45 : index
          %s47 = arith.muli %i42, %c4 : index
          %l48 = arith.addi %l46, %s47 : index
          %s49 = arith.muli %i43, %c1 : index
          %l50 = arith.addi %l48, %s49 : index
          %s51 = arith.muli %i44, %c1 : index
          %l52 = arith.addi %l50, %s51 : index
          %p53 = memref.load %alloc1[%i41, %i42, %i43, %i44] : memref<4x4x4x1xi32, #layout.tag<"nhwc">>
          "vector.print"(%p53) : (i32) -> ()
        }
      }
    }
  }
  scf.for %i54 = %c0 to %c1 step %c1 {
    scf.for %i55 = %c0 to %c6 step %c1 {
      scf.for %i56 = %c0 to %c4 step %c1 {
        scf.for %i57 = %c0 to %c4 step %c1 {
          %s58 = arith.muli %i54, %c96 : index
          %l59 = arith.addi %c0, %s58 : index
          %s60 = arith.muli %i55, %c16 : index
          %l61 = arith.addi %l59, %s60 : index
          %s62 = arith.muli %i56, %c4 : index
          %l63 = arith.addi %l61, %s62 : index
          %s64 = arith.muli %i57, %c1 : index
          %l65 = arith.addi %l63, %s64 : index
          %p66 = memref.load %alloca17[%i54, %i55, %i56, %i57] : memref<1x6x4x4xi32>
          "vector.print"(%p66) : (i32) -> ()
        }
      }
    }
  }
  memref.dealloc %alloc1 : memref<4x4x4x1xi32, #layout.tag<"nhwc">>
  func.return
}
