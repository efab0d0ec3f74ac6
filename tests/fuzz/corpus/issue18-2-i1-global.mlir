// fuzz case issue18-2-i1-global (seed 20003, element i1)
// issue 18 #2: an i1 global with an unpacked layout (python -m benchmarks.fuzz --replay 20003)
// site: @kernel assign memref<2xi1, #layout.map<affine_map<(d0) -> ((d0 floordiv 2) mod 6, d0 floordiv 12, d0 mod 2)>, shape = [2, 1, 2]>>
// site: @kernel assign memref<2xi1, #layout.map<affine_map<(d0) -> (d0 floordiv 12, (d0 floordiv 6) mod 2, d0 mod 6)>>>
// site: @kernel type memref<2xi1, strided<[2]>>
// site: @main type memref<2xi1, #layout.chunked<"ChunkedMemoryLayout<1, 0,0>">>
// site: @main type memref<2xi1, #layout.strided<[-1], offset = 1, pad = 1>>
// site: @main type memref<2xi1, strided<[2]>>
"memref.global"() <{sym_name = "g0", sym_visibility = "private", type = memref<2xi1, #layout.strided<[-1], offset = 1, pad = 1>>, initial_value = dense<[false, true]> : tensor<2xi1>}> : () -> ()
func.func @kernel(%A: memref<2xi1>, %B: memref<2xi1, strided<[2]>>, %n: index) -> i1 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %k0_i1 = arith.constant 0 : i1
  %k1_i1 = arith.constant 1 : i1
  layout.assign %A to #layout.map<affine_map<(d0) -> ((d0 floordiv 2) mod 6, d0 floordiv 12, d0 mod 2)>, shape = [2, 1, 2]> : memref<2xi1>
  %alloca1 = memref.alloca() : memref<2xi1>
  layout.assign %alloca1 to #layout.map<affine_map<(d0) -> (d0 floordiv 12, (d0 floordiv 6) mod 2, d0 mod 6)>> : memref<2xi1>
  scf.for %i2 = %c0 to %c2 step %c1 {
    %s3 = arith.muli %i2, %c1 : index
    %l4 = arith.addi %c0, %s3 : index
    %x6 = arith.muli %l4, %c3 : index
    %x5 = arith.addi %x6, %c5 : index
    %fv7 = arith.index_cast %x5 : index to i1
    memref.store %fv7, %alloca1[%i2] : memref<2xi1>
  }
  %acc = arith.constant 0 : i1
  %c1_8 = arith.constant 1 : index
  scf.for %i9 = %c1_8 to %c3 step %c1 {
    affine.store %k0_i1, %alloca1[0] : memref<2xi1>
    %x10 = affine.apply affine_map<(d0) -> (2 - d0)>(%i9)
    %v11 = memref.load %alloca1[%x10] : memref<2xi1>
    %w12 = arith.muli %v11, %k1_i1 : i1
    %x13 = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%i9)
    memref.store %w12, %A[%x13] : memref<2xi1>
  }
  %c1_15 = arith.constant 1 : index
  %x14 = arith.remui %n, %c1_15 : index
  %v16 = memref.load %A[%x14] : memref<2xi1>
  %s17 = arith.addi %acc, %v16 : i1
  %h18 = func.call @helper(%alloca1, %n) : (memref<2xi1>, index) -> i1
  %s19 = arith.addi %s17, %h18 : i1
  %v20 = memref.load %B[%x14] : memref<2xi1, strided<[2]>>
  %s21 = arith.addi %s19, %v20 : i1
  func.return %s21 : i1
}
func.func @helper(%X: memref<2xi1>, %n: index) -> i1 {
  %c13 = arith.constant 13 : index
  %c2 = arith.constant 2 : index
  %acc = arith.constant 0 : i1
  %c1_2 = arith.constant 1 : index
  %x1 = arith.remui %n, %c1_2 : index
  %c2_4 = arith.constant 2 : index
  %x3 = arith.remui %n, %c2_4 : index
  %p5 = arith.cmpi sge, %n, %c13 : index
  %r6 = scf.if %p5 -> (i1) {
    %x7 = arith.ceildivsi %x1, %c2 : index
    %v8 = memref.load %X[%x7] : memref<2xi1>
    %s9 = arith.addi %acc, %v8 : i1
    %v10 = affine.load %X[1 - %x1] : memref<2xi1>
    %s11 = arith.addi %s9, %v10 : i1
    scf.yield %s11 : i1
  } else {
    %x12 = arith.ceildivsi %x1, %c2_4 : index
    %v13 = memref.load %X[%x12] : memref<2xi1>
    %s14 = arith.addi %acc, %v13 : i1
    scf.yield %s14 : i1
  }
  func.return %r6 : i1
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %alloc1 = memref.alloc() : memref<2xi1, #layout.chunked<"ChunkedMemoryLayout<1, 0,0>">>
  scf.for %i2 = %c0 to %c2 step %c1 {
    %s3 = arith.muli %i2, %c1 : index
    %l4 = arith.addi %c0, %s3 : index
    %x6 = arith.muli %l4, %c3 : index
    %x5 = arith.addi %x6, %c1 : index
    %fv7 = arith.index_cast %x5 : index to i1
    memref.store %fv7, %alloc1[%i2] : memref<2xi1, #layout.chunked<"ChunkedMemoryLayout<1, 0,0>">>
  }
  %g = memref.get_global @g0 : memref<2xi1, #layout.strided<[-1], offset = 1, pad = 1>>
  %alloc8 = memref.alloc() : memref<2xi1>
  "memref.copy"(%alloc1, %alloc8) : (memref<2xi1, #layout.chunked<"ChunkedMemoryLayout<1, 0,0>">>, memref<2xi1>) -> ()
  %alloc9 = memref.alloc() : memref<2xi1, strided<[2]>>
  "memref.copy"(%g, %alloc9) : (memref<2xi1, #layout.strided<[-1], offset = 1, pad = 1>>, memref<2xi1, strided<[2]>>) -> ()
  %r = func.call @kernel(%alloc8, %alloc9, %c8) : (memref<2xi1>, memref<2xi1, strided<[2]>>, index) -> i1
  layout.convert %alloc9 to %g : memref<2xi1, strided<[2]>> to memref<2xi1, #layout.strided<[-1], offset = 1, pad = 1>>
  memref.dealloc %alloc9 : memref<2xi1, strided<[2]>>
  "memref.copy"(%alloc8, %alloc1) : (memref<2xi1>, memref<2xi1, #layout.chunked<"ChunkedMemoryLayout<1, 0,0>">>) -> ()
  memref.dealloc %alloc8 : memref<2xi1>
  "vector.print"(%r) : (i1) -> ()
  scf.for %i10 = %c0 to %c2 step %c1 {
    %s11 = arith.muli %i10, %c1 : index
    %l12 = arith.addi %c0, %s11 : index
    %p13 = memref.load %alloc1[%i10] : memref<2xi1, #layout.chunked<"ChunkedMemoryLayout<1, 0,0>">>
    "vector.print"(%p13) : (i1) -> ()
  }
  scf.for %i14 = %c0 to %c2 step %c1 {
    %s15 = arith.muli %i14, %c1 : index
    %l16 = arith.addi %c0, %s15 : index
    %p17 = memref.load %g[%i14] : memref<2xi1, #layout.strided<[-1], offset = 1, pad = 1>>
    "vector.print"(%p17) : (i1) -> ()
  }
  memref.dealloc %alloc1 : memref<2xi1, #layout.chunked<"ChunkedMemoryLayout<1, 0,0>">>
  func.return
}
