// A call that must pass a converted temporary to a private callee that may return that
// buffer: the result would be the temporary (freed after the call, and writes through it lost
// to the caller's buffer), so layout-apply refuses it, naming the call and both types.
// RUN: not layout-opt %s -p layout-apply 2>&1 | filecheck %s

// CHECK: layout-apply: func.call @touch passes memref<16xf32, #layout.tag<"W->W4w">> where the callee takes memref<16xf32> and may return that buffer{{.*}}Give every buffer passed to @touch one layout
func.func private @touch(%x: memref<16xf32>) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  memref.store %two, %x[%c0] : memref<16xf32>
  func.return %x : memref<16xf32>
}
func.func @main(%a: memref<16xf32>) -> f32 {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  %r = func.call @touch(%m) : (memref<16xf32>) -> memref<16xf32>
  %s = func.call @touch(%a) : (memref<16xf32>) -> memref<16xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %r[%c0] : memref<16xf32>
  func.return %v : f32
}
