// fuzz case issue26-2-schedule-bit-count-over-unpacked-i1 (seed 44, element i1)
// issue 26, finding 2: layout-schedule counts bits of a packed i1 buffer against an unpacked one, read as vector<3xi1> words: wrong under upstream (python -m benchmarks.fuzz --replay 44)
// native
// site: @helper type memref<3xi1, #layout.tag<"F->F16f", pack = i64, bit_order = "msb">>
// site: @kernel type memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>
// site: @main type memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>
// site: @main assign memref<5x1xi1, #layout.tag<"xW->WX">>
"memref.global"() <{sym_name = "g0", sym_visibility = "private", type = memref<5x1xi1>, initial_value = dense<[[false], [true], [false], [true], [false]]> : tensor<5x1xi1>}> : () -> ()
func.func private @kernel(%A: memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>, %B: memref<?x1xi1>, %n: index) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %k0_i1 = arith.constant 0 : i1
  %c4 = arith.constant 4 : index
  %d1 = memref.dim %B, %c0 : memref<?x1xi1>
  %alloca2 = memref.alloca() : memref<3xi1>
  "memref.copy"(%A, %alloca2) : (memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>, memref<3xi1>) -> ()
  %acc = arith.constant 0 : i1
  %r4 = scf.for %i3 = %c0 to %c1 step %c3 iter_args(%a5 = %acc) -> (i1) {
    %v6 = affine.load %alloca2[0] : memref<3xi1>
    %s7 = arith.addi %a5, %v6 : i1
    scf.yield %s7 : i1
  }
  %c8_8 = arith.constant 8 : index
  %p9 = arith.cmpi ne, %n, %c8_8 : index
  %r10 = scf.if %p9 -> (i1) {
    %k11 = arith.constant 1 : i1
    %x12 = affine.apply affine_map<(d0) -> (d0 mod 3)>(%n)
    memref.store %k11, %A[%x12] : memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>
    %r14 = affine.for %i13 = 0 to 2 step 2 iter_args(%a15 = %r4) -> (i1) {
      affine.store %k0_i1, %B[%x12 ceildiv 2, 0 - %i13] : memref<?x1xi1>
      %v16 = affine.load %B[%i13 floordiv 3, %i13 + %i13] : memref<?x1xi1>
      %s17 = arith.addi %a15, %v16 : i1
      %x18 = arith.remsi %n, %c4 : index
      %x19 = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%i13)
      %v20 = memref.load %B[%x18, %x19] : memref<?x1xi1>
      %s21 = arith.addi %s17, %v20 : i1
      affine.yield %s21 : i1
    }
    scf.yield %r14 : i1
  } else {
    %k22 = arith.constant 1 : i1
    affine.store %k22, %A[2] : memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>
    scf.yield %r4 : i1
  }
  %alloc23 = memref.alloc() : memref<3xi1>
  "memref.copy"(%A, %alloc23) : (memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>, memref<3xi1>) -> ()
  %h24 = func.call @helper(%alloc23, %n) : (memref<3xi1>, index) -> i1
  layout.convert %alloc23 to %A : memref<3xi1> to memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>
  memref.dealloc %alloc23 : memref<3xi1>
  %s25 = arith.addi %r10, %h24 : i1
  func.return %s25 : i1
}
func.func @helper(%X: memref<3xi1>, %n: index) -> i1 {
  %c2 = arith.constant 2 : index
  %k0_i32 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %k0_i1 = arith.constant 0 : i1
  %acc = arith.constant 0 : i1
  %x1 = arith.remui %n, %c2 : index
  %c1_3 = arith.constant 1 : index
  %x2 = arith.remui %n, %c1_3 : index
  %alloc4 = memref.alloc() : memref<3xi1, #layout.tag<"F->F16f", pack = i64, bit_order = "msb">>
  layout.convert %X to %alloc4 : memref<3xi1> to memref<3xi1, #layout.tag<"F->F16f", pack = i64, bit_order = "msb">>
  %alloca5 = memref.alloca() : memref<1xi32>
  scf.for %n6 = %c0 to %c1 step %c1 {
    memref.store %k0_i32, %alloca5[%n6] : memref<1xi32>
  }
  scf.for %n7 = %c0 to %c3 step %c1 {
    %nv8 = memref.load %alloc4[%n7] : memref<3xi1, #layout.tag<"F->F16f", pack = i64, bit_order = "msb">>
    %nv9 = memref.load %X[%n7] : memref<3xi1>
    %nc10 = arith.cmpi eq, %nv8, %nv9 : i1
    %nc11 = arith.extsi %nc10 : i1 to i32
    %nc12 = memref.load %alloca5[%c0] : memref<1xi32>
    %nc13 = arith.addi %nc12, %nc11 : i32
    memref.store %nc13, %alloca5[%c0] : memref<1xi32>
  }
  scf.for %n14 = %c0 to %c1 step %c1 {
    %np15 = memref.load %alloca5[%n14] : memref<1xi32>
    "vector.print"(%np15) : (i32) -> ()
  }
  memref.dealloc %alloc4 : memref<3xi1, #layout.tag<"F->F16f", pack = i64, bit_order = "msb">>
  %p16 = arith.cmpi ne, %x1, %c0 : index
  %r17 = scf.if %p16 -> (i1) {
    %v18 = affine.load %X[%n mod 3] : memref<3xi1>
    %s19 = arith.addi %acc, %v18 : i1
    scf.yield %s19 : i1
  } else {
    %x20 = arith.remsi %x2, %c3 : index
    memref.store %k0_i1, %X[%x20] : memref<3xi1>
    %v21 = affine.load %X[%x1 floordiv 2] : memref<3xi1>
    %s22 = arith.addi %acc, %v21 : i1
    %c5_23 = arith.constant 5 : index
    %c3_24 = arith.constant 3 : index
    %r26 = scf.for %i25 = %c2 to %c5_23 step %c3_24 iter_args(%a27 = %s22) -> (i1) {
      %v28 = affine.load %X[0] : memref<3xi1>
      %s29 = arith.addi %a27, %v28 : i1
      scf.yield %s29 : i1
    }
    scf.yield %r26 : i1
  }
  %c0_30 = arith.constant 0 : index
  %p31 = arith.cmpi sge, %x1, %c0_30 : index
  %r32 = scf.if %p31 -> (i1) {
    %v33 = affine.load %X[%n mod 3] : memref<3xi1>
    %s34 = arith.addi %r17, %v33 : i1
    scf.yield %s34 : i1
  } else {
    %v35 = memref.load %X[%x1] : memref<3xi1>
    %s36 = arith.addi %r17, %v35 : i1
    scf.yield %s36 : i1
  }
  func.return %r32 : i1
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c5 = arith.constant 5 : index
  %alloc1 = memref.alloc() : memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>
  scf.for %i2 = %c0 to %c3 step %c1 {
    %s3 = arith.muli %i2, %c1 : index
    %l4 = arith.addi %c0, %s3 : index
    %x6 = arith.muli %l4, %c3 : index
    %x5 = arith.addi %x6, %c1 : index
    %fv7 = arith.index_cast %x5 : index to i1
    memref.store %fv7, %alloc1[%i2] : memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>
  }
  %g = memref.get_global @g0 : memref<5x1xi1>
  layout.assign %g to #layout.tag<"xW->WX"> : memref<5x1xi1>
  %cast8 = "memref.cast"(%g) : (memref<5x1xi1>) -> memref<?x1xi1>
  %r = func.call @kernel(%alloc1, %cast8, %c10) : (memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>, memref<?x1xi1>, index) -> i1
  "vector.print"(%r) : (i1) -> ()
  scf.for %i9 = %c0 to %c3 step %c1 {
    %s10 = arith.muli %i9, %c1 : index
    %l11 = arith.addi %c0, %s10 : index
    %p12 = memref.load %alloc1[%i9] : memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>
    "vector.print"(%p12) : (i1) -> ()
  }
  scf.for %i13 = %c0 to %c5 step %c1 {
    scf.for %i14 = %c0 to %c1 step %c1 {
      %s15 = arith.muli %i13, %c1 : index
      %l16 = arith.addi %c0, %s15 : index
      %s17 = arith.muli %i14, %c1 : index
      %l18 = arith.addi %l16, %s17 : index
      %p19 = memref.load %g[%i13, %i14] : memref<5x1xi1>
      "vector.print"(%p19) : (i1) -> ()
    }
  }
  memref.dealloc %alloc1 : memref<3xi1, #layout.tag<"Y -> Y", pad = -1>>
  func.return
}
