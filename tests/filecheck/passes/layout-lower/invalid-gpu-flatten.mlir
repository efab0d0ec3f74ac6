// flatten=true and a kernel with a dynamic layout-typed parameter.
// RUN: not layout-opt %s -p 'layout-lower{flatten=true}' 2>&1 | filecheck %s
// CHECK: layout-lower: flatten=true needs static shapes, but gpu.func @kernels::@dynamic takes or returns memref<?x16xf32, #layout.tag<"NW->NW4w">>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @dynamic(%a: memref<?x16xf32, #layout.tag<"NW->NW4w">>) kernel {
      gpu.return
    }
  }
}

