// fuzz case issue26-2-sub-byte-vector-load-i7 (seed 175, element i7)
// issue 26, finding 2: vector.load of vector<7xi7> kept by layout-lower on a memref<...xi7>: upstream reads packed bits (python -m benchmarks.fuzz --replay 175)
// native
// site: @kernel assign memref<10xi7, #layout.tag<"G -> g8G", pad = 24, pack = i61, bit_order = "lsb">>
// site: @kernel type memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>
// site: @main type memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>
"memref.global"() <{sym_name = "g0", sym_visibility = "private", type = memref<5x10xi7>, initial_value = dense<[[2, 5, 8, 11, 14, 17, 20, 23, 26, 29], [32, 35, 38, 41, 44, 47, 50, 53, 56, 59], [62, -63, -60, -57, -54, -51, -48, -45, -42, -39], [-36, -33, -30, -27, -24, -21, -18, -15, -12, -9], [-6, -3, 0, 3, 6, 9, 12, 15, 18, 21]]> : tensor<5x10xi7>}> : () -> ()
func.func private @kernel(%A: memref<10xi7>, %B: memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>, %n: index) -> i7 {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %k2_i7 = arith.constant 2 : i7
  %c4 = arith.constant 4 : index
  %alloca1 = memref.alloca() : memref<10xi7>
  layout.assign %alloca1 to #layout.tag<"G -> g8G", pad = 24, pack = i61, bit_order = "lsb"> : memref<10xi7>
  "memref.copy"(%A, %alloca1) : (memref<10xi7>, memref<10xi7>) -> ()
  %acc = arith.constant 0 : i7
  %c3_3 = arith.constant 3 : index
  %x2 = arith.remui %n, %c3_3 : index
  %x4 = affine.apply affine_map<(d0) -> (d0 mod 3)>(%n)
  %vec5 = vector.load %alloca1[%x4] : memref<10xi7>, vector<8xi7>
  %e6 = vector.extract %vec5[1] : i7 from vector<8xi7>
  %s7 = arith.addi %acc, %e6 : i7
  %c1_9 = arith.constant 1 : index
  %x8 = arith.remsi %n, %c1_9 : index
  %c4_11 = arith.constant 4 : index
  %x10 = arith.floordivsi %x4, %c4_11 : index
  %vec12 = vector.load %B[%x8, %x10] : memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>, vector<7xi7>
  %e13 = vector.extract %vec12[2] : i7 from vector<7xi7>
  %s14 = arith.addi %s7, %e13 : i7
  %p15 = arith.cmpi eq, %x2, %c1 : index
  scf.if %p15 {
    %k17 = arith.constant 0 : i7
    %x18 = arith.floordivsi %x4, %c2 : index
    memref.store %k17, %B[%c3, %x18] : memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>
  } else {
    %w19 = arith.muli %e13, %k2_i7 : i7
    %x20 = affine.apply affine_map<(d0) -> (5 - d0)>(%x2)
    memref.store %w19, %alloca1[%x20] : memref<10xi7>
    %x21 = arith.remsi %x2, %c4 : index
    %c2_23 = arith.constant 2 : index
    %x22 = arith.muli %x10, %c2_23 : index
    %vec24 = vector.load %B[%x21, %x22] : memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>, vector<8xi7>
    %e25 = vector.extract %vec24[0] : i7 from vector<8xi7>
    affine.store %w19, %A[%x8 floordiv 2 + 1] : memref<10xi7>
  }
  func.return %s14 : i7
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c5 = arith.constant 5 : index
  %alloc1 = memref.alloc() : memref<10xi7>
  scf.for %i2 = %c0 to %c10 step %c1 {
    %s3 = arith.muli %i2, %c1 : index
    %l4 = arith.addi %c0, %s3 : index
    %x6 = arith.muli %l4, %c3 : index
    %x5 = arith.addi %x6, %c1 : index
    %fv7 = arith.index_cast %x5 : index to i7
    memref.store %fv7, %alloc1[%i2] : memref<10xi7>
  }
  %g = memref.get_global @g0 : memref<5x10xi7>
  %alloc8 = memref.alloc() : memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>
  layout.convert %g to %alloc8 : memref<5x10xi7> to memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>
  %r = func.call @kernel(%alloc1, %alloc8, %c6) : (memref<10xi7>, memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>, index) -> i7
  "memref.copy"(%alloc8, %g) : (memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>, memref<5x10xi7>) -> ()
  memref.dealloc %alloc8 : memref<5x10xi7, #layout.partition<block, dims = [0], factor = 5>>
  "vector.print"(%r) : (i7) -> ()
  scf.for %i9 = %c0 to %c10 step %c1 {
    %s10 = arith.muli %i9, %c1 : index
    %l11 = arith.addi %c0, %s10 : index
    %p12 = memref.load %alloc1[%i9] : memref<10xi7>
    "vector.print"(%p12) : (i7) -> ()
  }
  scf.for %i13 = %c0 to %c5 step %c1 {
    scf.for %i14 = %c0 to %c10 step %c1 {
      %s15 = arith.muli %i13, %c10 : index
      %l16 = arith.addi %c0, %s15 : index
      %s17 = arith.muli %i14, %c1 : index
      %l18 = arith.addi %l16, %s17 : index
      %p19 = memref.load %g[%i13, %i14] : memref<5x10xi7>
      "vector.print"(%p19) : (i7) -> ()
    }
  }
  memref.dealloc %alloc1 : memref<10xi7>
  func.return
}
