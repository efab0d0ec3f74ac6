// Word-level code for bit-packed buffers: a loop over packed i1 lanes becomes a loop over
// containers. Sums of extui(xor / xnor / and of lanes) become one math.ctpop per word, the
// lane loop moved innermost and the accumulator carried in a register; a dim that ends in a
// partial container ends in a shorter word (pad lanes are never read). Maps store a word
// at a time. layout-lower turns the word transfers into container loads/stores + bitcast.
// RUN: layout-opt %s -p layout-schedule | filecheck %s
// RUN: layout-opt %s -p layout-schedule,layout-lower | filecheck %s --check-prefix=LOW
// RUN: layout-opt %s -p 'layout-schedule{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=SAY
// RUN: layout-opt %s -p 'layout-schedule{words=false remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=OFF

!a = memref<5x100xi1, #layout.tag<"MK->MK64k", pack = i64>>
!b = memref<3x100xi1, #layout.tag<"NK->NK64k", pack = i64>>
// CHECK-LABEL: func.func @xnor_matmul_i64(
// CHECK:         affine.store %zero, %out[%i, %j]
// CHECK-NEXT:    %[[ACC:.*]] = memref.load %out[%i, %j]
// CHECK:         %[[X:.*]] = vector.transfer_read %a[%i, %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<5x100xi1, #layout.tag<"MK->MK64k", pack = i64>>, vector<64xi1>
// CHECK:         %[[Y:.*]] = vector.transfer_read %b[%j, %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<3x100xi1, #layout.tag<"NK->NK64k", pack = i64>>, vector<64xi1>
// CHECK:         %[[D:.*]] = arith.xori %[[X]], %[[Y]] : vector<64xi1>
// CHECK:         %[[E:.*]] = arith.xori %[[D]], %{{.*}} : vector<64xi1>
// CHECK:         %[[W:.*]] = vector.bitcast %[[E]] : vector<64xi1> to vector<1xi64>
// CHECK:         %[[WORD:.*]] = vector.extract %[[W]][0] : i64 from vector<1xi64>
// CHECK:         %[[N:.*]] = math.ctpop %[[WORD]] : i64
// CHECK:         %[[T:.*]] = arith.trunci %[[N]] : i64 to i32
// CHECK:         %[[S:.*]] = arith.addi %[[ACC]], %[[T]] : i32
// CHECK:         vector.transfer_read %a[%i, %{{.*}}], %{{.*}} {in_bounds = [true]} : {{.*}}, vector<36xi1>
// CHECK:         vector.bitcast %{{.*}} : vector<36xi1> to vector<1xi36>
// CHECK:         math.ctpop %{{.*}} : i36
// CHECK:         memref.store %{{.*}}, %out[%i, %j]
// The words themselves: xor, not (xor with -1), ctpop; the partial word masked by a trunci.
// LOW-LABEL: func.func @xnor_matmul_i64(%a: memref<5x2xi64>, %b: memref<3x2xi64>
// LOW:         %[[A0:.*]] = memref.load %a[%i, %{{.*}}] : memref<5x2xi64>
// LOW-NEXT:    %[[B0:.*]] = memref.load %b[%j, %{{.*}}] : memref<3x2xi64>
// LOW-NEXT:    %[[D0:.*]] = arith.xori %[[A0]], %[[B0]] : i64
// LOW-NEXT:    %[[ONES:.*]] = arith.constant -1 : i64
// LOW-NEXT:    %[[E0:.*]] = arith.xori %[[D0]], %[[ONES]] : i64
// LOW-NEXT:    %[[N0:.*]] = math.ctpop %[[E0]] : i64
// LOW:         %[[M1:.*]] = arith.trunci %{{.*}} : i64 to i36
// LOW-NEXT:    math.ctpop %[[M1]] : i36
// LOW-NOT:     vector.
// LOW-NOT:     arith.shrui
// SAY: remark: layout-schedule: @xnor_matmul_i64: nest %i: scheduled: word-level sum with math.ctpop over containers of 64 lanes
// SAY: remark: layout-schedule: @conv_vector6: nest %k: scheduled: word-level sum with math.ctpop over containers of 6 lanes
// SAY: remark: layout-schedule: @binarize_i32: nest %c: scheduled: word-level map over containers of 32 lanes
// OFF-NOT: word-level
// OFF: remark: layout-schedule: @xnor_matmul_i64: nest %i: not vectorized: {{.*}} is packed
func.func @xnor_matmul_i64(%a: !a, %b: !b, %out: memref<5x3xi32>) {
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 3 {
      affine.store %zero, %out[%i, %j] : memref<5x3xi32>
      affine.for %k = 0 to 100 {
        %x = affine.load %a[%i, %k] : !a
        %y = affine.load %b[%j, %k] : !b
        %acc = affine.load %out[%i, %j] : memref<5x3xi32>
        %same = arith.cmpi eq, %x, %y : i1
        %one = arith.extui %same : i1 to i32
        %sum = arith.addi %acc, %one : i32
        affine.store %sum, %out[%i, %j] : memref<5x3xi32>
      }
    }
  }
  func.return
}

!x6 = memref<1x12x5x5xi1, #layout.tag<"NCHW->NHWC6c", pack = vector<6xi1>>>
!w6 = memref<2x12x3x3xi1, #layout.tag<"OIHW->OHWI6i", pack = vector<6xi1>>>
// The channel loop (outermost of the reduction) moves innermost and walks words.
// CHECK-LABEL: func.func @conv_vector6(
// CHECK:         affine.for %kh = 0 to 3 {
// CHECK-NEXT:      affine.for %kw = 0 to 3 {
// CHECK:             %[[ACC:.*]] = memref.load %out[%{{.*}}, %k, %oh, %ow]
// CHECK:             %[[R:.*]] = affine.for %c_word = 0 to 2 iter_args(%[[A:.*]] = %[[ACC]]) -> (i32) {
// CHECK:               vector.transfer_read %x[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d1)>} : memref<1x12x5x5xi1, {{.*}}>, vector<6xi1>
// CHECK:               arith.xori %{{.*}}, %{{.*}} : vector<6xi1>
// CHECK:               math.ctpop %{{.*}} : i6
// CHECK:               affine.yield %{{.*}} : i32
// CHECK:             memref.store %[[R]], %out[%{{.*}}, %k, %oh, %ow]
// Each container is loaded as the byte that holds it, its 6 bits the word (the lanes are
// never built: sub-byte-accesses.mlir).
// LOW-LABEL: func.func @conv_vector6(%x: memref<1x5x5x2xvector<6xi1>>, %w: memref<2x3x3x2xvector<6xi1>>
// LOW-DAG:     %[[WB:.*]] = builtin.unrealized_conversion_cast %w : memref<2x3x3x2xvector<6xi1>> to memref<2x3x3x2xi8>
// LOW-DAG:     %[[XB:.*]] = builtin.unrealized_conversion_cast %x : memref<1x5x5x2xvector<6xi1>> to memref<1x5x5x2xi8>
// LOW:         %[[V:.*]] = memref.load %[[XB]][{{.*}}] : memref<1x5x5x2xi8>
// LOW-NEXT:    %[[VI:.*]] = arith.trunci %[[V]] : i8 to i6
// LOW-NEXT:    %[[U:.*]] = memref.load %[[WB]][{{.*}}] : memref<2x3x3x2xi8>
// LOW-NEXT:    %[[UI:.*]] = arith.trunci %[[U]] : i8 to i6
// LOW-NEXT:    %[[D:.*]] = arith.xori %[[VI]], %[[UI]] : i6
// LOW-NEXT:    math.ctpop %[[D]] : i6
func.func @conv_vector6(%x: !x6, %w: !w6, %out: memref<1x2x3x3xi32>) {
  %zero = arith.constant 0 : i32
  affine.for %k = 0 to 2 {
    affine.for %oh = 0 to 3 {
      affine.for %ow = 0 to 3 {
        affine.store %zero, %out[0, %k, %oh, %ow] : memref<1x2x3x3xi32>
        affine.for %c = 0 to 12 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : !x6
              %b = affine.load %w[%k, %c, %kh, %kw] : !w6
              %acc = affine.load %out[0, %k, %oh, %ow] : memref<1x2x3x3xi32>
              %d = arith.xori %a, %b : i1
              %n = arith.extui %d : i1 to i32
              %s = arith.addi %acc, %n : i32
              affine.store %s, %out[0, %k, %oh, %ow] : memref<1x2x3x3xi32>
            }
          }
        }
      }
    }
  }
  func.return
}

!bits = memref<1x40x3xi1, #layout.tag<"NCW->NWC32c", pack = i32>>
// A map: 32 lanes computed, one word stored; the partial word's pad lanes get the pad (0).
// CHECK-LABEL: func.func @binarize_i32(
// CHECK:         affine.for %w = 0 to 3 {
// CHECK:           vector.transfer_read %x[%{{.*}}, %{{.*}}, %w], %{{.*}} : memref<1x40x3xf32>, vector<32xf32>
// CHECK-COUNT-32:  arith.cmpf ogt
// CHECK:           %[[B:.*]] = vector.from_elements {{.*}} : vector<32xi1>
// CHECK:           vector.transfer_write %[[B]], %y[%{{.*}}, %{{.*}}, %w] {{.*}} : vector<32xi1>, memref<1x40x3xi1, {{.*}}>
// CHECK-COUNT-8:   arith.cmpf ogt
// CHECK:           vector.transfer_write %{{.*}}, %y[%{{.*}}, %{{.*}}, %w] {{.*}} : vector<8xi1>, memref<1x40x3xi1, {{.*}}>
// LOW-LABEL: func.func @binarize_i32(%x: memref<1x40x3xf32>, %y: memref<1x3x2xi32>)
// LOW:         vector.bitcast %{{.*}} : vector<32xi1> to vector<1xi32>
// LOW:         memref.store %{{.*}}, %y[%[[Z:.*]], %w, %[[Z]]] : memref<1x3x2xi32>
// LOW:         %[[P:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 16, {{.*}}, 39] : vector<8xi1>, vector<32xi1>
// LOW:         vector.bitcast %[[P]] : vector<32xi1> to vector<1xi32>
// LOW:         memref.store %{{.*}}, %y[%{{.*}}, %w, %{{.*}}] : memref<1x3x2xi32>
// LOW-NOT:     arith.shli
func.func @binarize_i32(%x: memref<1x40x3xf32>, %y: !bits) {
  %zero = arith.constant 0.0 : f32
  affine.for %c = 0 to 40 {
    affine.for %w = 0 to 3 {
      %v = affine.load %x[0, %c, %w] : memref<1x40x3xf32>
      %p = arith.cmpf ogt, %v, %zero : f32
      affine.store %p, %y[0, %c, %w] : !bits
    }
  }
  func.return
}

// Refusals: the nest is left to the other steps, with a remark saying why.
!p8 = memref<4x16xi1, #layout.tag<"NC->NC8c", pack = i8>>
// LOW-LABEL: func.func @scaled_count(
// SAY: remark: layout-schedule: @scaled_count: nest %i: no word-level code: arith.addi: the added value is not an i1 extended to an integer
func.func @scaled_count(%x: !p8, %out: memref<4xi32>) {
  %two = arith.constant 2 : i32
  affine.for %i = 0 to 4 {
    affine.for %c = 0 to 16 {
      %b = affine.load %x[%i, %c] : !p8
      %acc = affine.load %out[%i] : memref<4xi32>
      %n = arith.extui %b : i1 to i32
      %m = arith.muli %n, %two : i32
      %s = arith.addi %acc, %m : i32
      affine.store %s, %out[%i] : memref<4xi32>
    }
  }
  func.return
}

// SAY: remark: layout-schedule: @two_sums: nest %i: no word-level code: affine.for: 2 stores in the innermost body, not one sum
func.func @two_sums(%x: !p8, %out: memref<4xi32>, %out2: memref<4xi32>) {
  affine.for %i = 0 to 4 {
    affine.for %c = 0 to 16 {
      %b = affine.load %x[%i, %c] : !p8
      %acc = affine.load %out[%i] : memref<4xi32>
      %n = arith.extui %b : i1 to i32
      %s = arith.addi %acc, %n : i32
      affine.store %s, %out[%i] : memref<4xi32>
      affine.store %s, %out2[%i] : memref<4xi32>
    }
  }
  func.return
}

// SAY: remark: layout-schedule: @overwritten: nest %i: no word-level code: affine.store: a store does not index every inner loop by itself
func.func @overwritten(%x: !p8, %y: !p8) {
  affine.for %i = 0 to 4 {
    affine.for %c = 0 to 16 {
      affine.for %j = 0 to 2 {
        %b = affine.load %x[%j, %c] : !p8
        affine.store %b, %y[%i, %c] : !p8
      }
    }
  }
  func.return
}

// An outer loop over the packed dim with statements around the inner loops stays as it is.
// SAY: remark: layout-schedule: @outer_lanes: nest %c: no word-level code: affine.for: the loop over packed lanes is not among the innermost loops
func.func @outer_lanes(%x: !p8, %out: memref<16x4xi32>) {
  %zero = arith.constant 0 : i32
  affine.for %c = 0 to 16 {
    affine.store %zero, %out[%c, 0] : memref<16x4xi32>
    affine.for %i = 0 to 4 {
      %b = affine.load %x[%i, %c] : !p8
      %n = arith.extui %b : i1 to i32
      affine.store %n, %out[%c, %i] : memref<16x4xi32>
    }
  }
  func.return
}
