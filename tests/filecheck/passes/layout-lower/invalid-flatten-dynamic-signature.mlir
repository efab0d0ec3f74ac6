// The flatten=true refusal of a dynamic shape names the function and the type even when the
// memref only appears in its signature.
// RUN: not layout-opt %s -p 'layout-lower{flatten=true}' 2>&1 | filecheck %s

// CHECK: {{.*}}invalid-flatten-dynamic-signature.mlir:[[# @LINE + 1]]:1: error: layout-lower: flatten=true needs static shapes, but @unused_dynamic takes or returns memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
func.func @unused_dynamic(%m: memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>) {
  func.return
}
