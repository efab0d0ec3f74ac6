// A producer whose buffer is only copied into the window of a padded buffer (tensor.pad
// after an activation, bufferized) writes the window itself when the two buffers share a
// layout (or the local one has none): the padded buffer, its border fills and the window
// move above the producer; the copy and the local buffer go. Any other use keeps the copy.
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2 fuse=false}' 2>&1 | filecheck %s
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2 plain=false}' 2>&1 | filecheck %s --check-prefix=LAID
// RUN: layout-run %s --entry reused_buffer --check -p 'layout-schedule{target=avx2},layout-lower' | filecheck %s --check-prefix=EXEC
// RUN: layout-opt %s -p 'layout-schedule{target=avx2},layout-lower' | mlir-opt-22 --lower-affine --convert-vector-to-llvm --convert-to-llvm -o /dev/null

// CHECK-DAG: remark: layout-schedule: @same_layout: a memref<1x16x4x4xf32, #layout.tag<"NCHW->nChw8c">> buffer written straight into its window of memref<1x16x6x6xf32, #layout.tag<"NCHW->nChw8c">>: the copy between them is gone
// CHECK-DAG: remark: layout-schedule: @plain: a memref<1x16x4x4xf32> buffer written straight into its window of memref<1x16x6x6xf32>: the copy between them is gone
// CHECK-DAG: remark: layout-schedule: @into_a_layout: a memref<1x16x4x4xf32> buffer written straight into its window of memref<1x16x6x6xf32, #layout.tag<"NCHW->nChw8c">>: the copy between them is gone
// CHECK-DAG: remark: layout-schedule: @constant_above: a memref<1x16x4x4xf32, #layout.tag<"NCHW->nChw8c">> buffer written straight into its window of memref<1x16x6x6xf32, #layout.tag<"NCHW->nChw8c">>: the copy between them is gone
// CHECK-DAG: remark: layout-schedule: @reused_buffer: a memref<1x16x4x4xf32, #layout.tag<"NCHW->nChw8c">> buffer written straight into its window of memref<1x16x6x6xf32, #layout.tag<"NCHW->nChw8c">>: the copy between them is gone
// CHECK-NOT: remark: {{.*}} written straight into
// LAID-NOT: remark: layout-schedule: @plain: {{.*}} written straight into

// CHECK-LABEL: func.func @same_layout(
// CHECK:         %[[P:.*]] = memref.alloc() : memref<1x16x6x6xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK:         %[[V:.*]] = memref.subview %[[P]][0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1]
// CHECK-NOT:     memref.alloc
// CHECK:         store {{.*}}, %[[V]][
// CHECK-NOT:     memref.copy
// CHECK-NOT:     linalg.copy
// CHECK:         func.return
func.func @same_layout(%x: memref<1x16x4x4xf32>, %y: memref<1x16x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<1x16x4x4xf32>
  layout.assign %b to #layout.tag<"NCHW->nChw8c"> : memref<1x16x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x16x4x4xf32>) outs(%b : memref<1x16x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<1x16x6x6xf32>
  layout.assign %p to #layout.tag<"NCHW->nChw8c"> : memref<1x16x6x6xf32>
  %pad = arith.constant -1.0 : f32
  linalg.fill ins(%pad : f32) outs(%p : memref<1x16x6x6xf32>)
  %v = memref.subview %p[0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x16x6x6xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.copy %b, %v : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.dealloc %b : memref<1x16x4x4xf32>
  memref.copy %p, %y : memref<1x16x6x6xf32> to memref<1x16x6x6xf32>
  memref.dealloc %p : memref<1x16x6x6xf32>
  func.return
}

// The local buffer has none, the padded buffer has one: the producer writes that layout.
// CHECK-LABEL: func.func @into_a_layout(
// CHECK-NOT:     memref.copy %{{.*}}, %{{.*}} : memref<1x16x4x4xf32>
func.func @into_a_layout(%x: memref<1x16x4x4xf32>, %y: memref<1x16x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<1x16x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x16x4x4xf32>) outs(%b : memref<1x16x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<1x16x6x6xf32>
  layout.assign %p to #layout.tag<"NCHW->nChw8c"> : memref<1x16x6x6xf32>
  %pad = arith.constant -1.0 : f32
  linalg.fill ins(%pad : f32) outs(%p : memref<1x16x6x6xf32>)
  %v = memref.subview %p[0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x16x6x6xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.copy %b, %v : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.dealloc %b : memref<1x16x4x4xf32>
  memref.copy %p, %y : memref<1x16x6x6xf32> to memref<1x16x6x6xf32>
  memref.dealloc %p : memref<1x16x6x6xf32>
  func.return
}

// Without layouts, every buffer (plain=true; `plain=false` leaves it to the program).
// CHECK-LABEL: func.func @plain(
// CHECK-NOT:     memref.alloc() : memref<1x16x4x4xf32>
// CHECK:         func.return
// LAID-LABEL:  func.func @plain(
// LAID:          memref.copy %{{.*}}, %{{.*}} : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, strided
func.func @plain(%x: memref<1x16x4x4xf32>, %y: memref<1x16x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<1x16x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x16x4x4xf32>) outs(%b : memref<1x16x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<1x16x6x6xf32>
  %pad = arith.constant -1.0 : f32
  linalg.fill ins(%pad : f32) outs(%p : memref<1x16x6x6xf32>)
  %v = memref.subview %p[0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x16x6x6xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.copy %b, %v : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.dealloc %b : memref<1x16x4x4xf32>
  memref.copy %p, %y : memref<1x16x6x6xf32> to memref<1x16x6x6xf32>
  memref.dealloc %p : memref<1x16x6x6xf32>
  func.return
}

// Another layout than the padded buffer's: the layout asked for is kept, and so is the copy.
// CHECK-LABEL: func.func @other_layout(
// CHECK:         transfer_read %b[
// CHECK-NEXT:    transfer_write {{.*}}, %v[
func.func @other_layout(%x: memref<1x16x4x4xf32>, %y: memref<1x16x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<1x16x4x4xf32>
  layout.assign %b to #layout.tag<"NCHW->nChw16c"> : memref<1x16x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x16x4x4xf32>) outs(%b : memref<1x16x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<1x16x6x6xf32>
  layout.assign %p to #layout.tag<"NCHW->nChw8c"> : memref<1x16x6x6xf32>
  %pad = arith.constant -1.0 : f32
  linalg.fill ins(%pad : f32) outs(%p : memref<1x16x6x6xf32>)
  %v = memref.subview %p[0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x16x6x6xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.copy %b, %v : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.dealloc %b : memref<1x16x4x4xf32>
  memref.copy %p, %y : memref<1x16x6x6xf32> to memref<1x16x6x6xf32>
  memref.dealloc %p : memref<1x16x6x6xf32>
  func.return
}

// The local buffer is read after the copy: it stays.
// CHECK-LABEL: func.func @read_after(
// CHECK:         transfer_read %b[
// CHECK-NEXT:    transfer_write {{.*}}, %v[
func.func @read_after(%x: memref<1x16x4x4xf32>, %y: memref<1x16x6x6xf32>, %z: memref<1x16x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<1x16x4x4xf32>
  layout.assign %b to #layout.tag<"NCHW->nChw8c"> : memref<1x16x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x16x4x4xf32>) outs(%b : memref<1x16x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<1x16x6x6xf32>
  layout.assign %p to #layout.tag<"NCHW->nChw8c"> : memref<1x16x6x6xf32>
  %pad = arith.constant -1.0 : f32
  linalg.fill ins(%pad : f32) outs(%p : memref<1x16x6x6xf32>)
  %v = memref.subview %p[0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x16x6x6xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.copy %b, %v : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.copy %b, %z : memref<1x16x4x4xf32> to memref<1x16x4x4xf32>
  memref.dealloc %b : memref<1x16x4x4xf32>
  memref.copy %p, %y : memref<1x16x6x6xf32> to memref<1x16x6x6xf32>
  memref.dealloc %p : memref<1x16x6x6xf32>
  func.return
}

// The padded buffer is read between the producer and the copy: its ops cannot move up.
// CHECK-LABEL: func.func @padded_read_between(
// CHECK:         transfer_read %b[
// CHECK-NEXT:    transfer_write {{.*}}, %v[
func.func @padded_read_between(%x: memref<1x16x4x4xf32>, %y: memref<1x16x6x6xf32>, %z: memref<1x16x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<1x16x4x4xf32>
  layout.assign %b to #layout.tag<"NCHW->nChw8c"> : memref<1x16x4x4xf32>
  %p = memref.alloc() : memref<1x16x6x6xf32>
  layout.assign %p to #layout.tag<"NCHW->nChw8c"> : memref<1x16x6x6xf32>
  %pad = arith.constant -1.0 : f32
  linalg.fill ins(%pad : f32) outs(%p : memref<1x16x6x6xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x16x4x4xf32>) outs(%b : memref<1x16x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  memref.copy %p, %z : memref<1x16x6x6xf32> to memref<1x16x6x6xf32>
  %v = memref.subview %p[0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x16x6x6xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.copy %b, %v : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.dealloc %b : memref<1x16x4x4xf32>
  memref.copy %p, %y : memref<1x16x6x6xf32> to memref<1x16x6x6xf32>
  memref.dealloc %p : memref<1x16x6x6xf32>
  func.return
}

// The pad value is defined above the producer and used before it: it stays where it is.
// CHECK-LABEL: func.func @constant_above(
// CHECK:         %pad = arith.constant -1.000000e+00 : f32
func.func @constant_above(%x: memref<1x16x4x4xf32>, %y: memref<1x16x6x6xf32>, %z: memref<1x16x6x6xf32>) {
  %pad = arith.constant -1.0 : f32
  linalg.fill ins(%pad : f32) outs(%z : memref<1x16x6x6xf32>)
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<1x16x4x4xf32>
  layout.assign %b to #layout.tag<"NCHW->nChw8c"> : memref<1x16x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x16x4x4xf32>) outs(%b : memref<1x16x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<1x16x6x6xf32>
  layout.assign %p to #layout.tag<"NCHW->nChw8c"> : memref<1x16x6x6xf32>
  linalg.fill ins(%pad : f32) outs(%p : memref<1x16x6x6xf32>)
  %v = memref.subview %p[0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x16x6x6xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.copy %b, %v : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.dealloc %b : memref<1x16x4x4xf32>
  memref.copy %p, %y : memref<1x16x6x6xf32> to memref<1x16x6x6xf32>
  memref.dealloc %p : memref<1x16x6x6xf32>
  func.return
}

// A buffer that holds two values in turn (bufferized models reuse one for several
// activations): the first lives from the broadcast that overwrites it whole to the copy, and
// the fill after the copy overwrites it whole again. The ops of that first value write the
// window; the buffer stays for the second. The lowered program computes what the input does.
// CHECK-LABEL: func.func @reused_buffer(
// CHECK:         %[[B:.*]] = memref.alloc() : memref<1x16x4x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK:         %[[P:.*]] = memref.alloc() : memref<1x16x6x6xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK:         %[[V:.*]] = memref.subview %[[P]][0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1]
// CHECK:         store {{.*}}, %[[V]][
// CHECK-NOT:     memref.copy %[[B]]
// CHECK:         transfer_write {{.*}}, %[[B]][
// CHECK:         load %[[B]][
// CHECK:         func.return
// EXEC: OK: 1104 elements compared
func.func @reused_buffer(%x: memref<1x16x4x4xf32>, %bias: memref<16xf32>, %y: memref<1x16x4x4xf32>, %z: memref<1x16x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %b = memref.alloc() : memref<1x16x4x4xf32>
  layout.assign %b to #layout.tag<"NCHW->nChw8c"> : memref<1x16x4x4xf32>
  linalg.broadcast ins(%bias : memref<16xf32>) outs(%b : memref<1x16x4x4xf32>) dimensions = [0, 2, 3]
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x16x4x4xf32>) outs(%b : memref<1x16x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<1x16x6x6xf32>
  layout.assign %p to #layout.tag<"NCHW->nChw8c"> : memref<1x16x6x6xf32>
  %pad = arith.constant -1.0 : f32
  linalg.fill ins(%pad : f32) outs(%p : memref<1x16x6x6xf32>)
  %v = memref.subview %p[0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x16x6x6xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.copy %b, %v : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  linalg.fill ins(%one : f32) outs(%b : memref<1x16x4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %v : memref<1x16x4x4xf32>, memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>) outs(%y : memref<1x16x4x4xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %s = arith.addf %in, %w : f32
    linalg.yield %s : f32
  }
  memref.copy %p, %z : memref<1x16x6x6xf32> to memref<1x16x6x6xf32>
  memref.dealloc %b : memref<1x16x4x4xf32>
  memref.dealloc %p : memref<1x16x6x6xf32>
  func.return
}

// After the copy the buffer is overwritten only in part: its old values live on, and so
// does the copy.
// CHECK-LABEL: func.func @partly_overwritten(
// CHECK:         transfer_read %b[
// CHECK-NEXT:    transfer_write {{.*}}, %v[
func.func @partly_overwritten(%x: memref<1x16x4x4xf32>, %y: memref<1x16x4x4xf32>, %z: memref<1x16x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<1x16x4x4xf32>
  layout.assign %b to #layout.tag<"NCHW->nChw8c"> : memref<1x16x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x16x4x4xf32>) outs(%b : memref<1x16x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<1x16x6x6xf32>
  layout.assign %p to #layout.tag<"NCHW->nChw8c"> : memref<1x16x6x6xf32>
  %pad = arith.constant -1.0 : f32
  linalg.fill ins(%pad : f32) outs(%p : memref<1x16x6x6xf32>)
  %v = memref.subview %p[0, 0, 1, 1] [1, 16, 4, 4] [1, 1, 1, 1] : memref<1x16x6x6xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  memref.copy %b, %v : memref<1x16x4x4xf32> to memref<1x16x4x4xf32, strided<[576, 36, 6, 1], offset: 7>>
  %half = memref.subview %b[0, 0, 0, 0] [1, 8, 4, 4] [1, 1, 1, 1] : memref<1x16x4x4xf32> to memref<1x8x4x4xf32, strided<[256, 16, 4, 1]>>
  linalg.fill ins(%zero : f32) outs(%half : memref<1x8x4x4xf32, strided<[256, 16, 4, 1]>>)
  memref.copy %b, %y : memref<1x16x4x4xf32> to memref<1x16x4x4xf32>
  memref.copy %p, %z : memref<1x16x6x6xf32> to memref<1x16x6x6xf32>
  memref.dealloc %b : memref<1x16x4x4xf32>
  memref.dealloc %p : memref<1x16x6x6xf32>
  func.return
}
