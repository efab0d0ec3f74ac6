// A layout with pad slots or containers on a workgroup attribution: nothing would fill them.
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s
// CHECK: layout-lower: gpu.func @kernels::@tile: the attribution memref<16xf32, #layout.tag<"W->W3w">, #gpu.address_space<workgroup>> has pad slots or packed containers, which nothing fills in workgroup or private memory; give it a layout without them
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tile(%a: memref<16xf32>) workgroup(%t: memref<16xf32, #layout.tag<"W->W3w">, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
  }
}

