// What layout-lower makes of GPU code is upstream GPU code: mlir-opt 22 converts its kernels
// to NVVM (no layout, no heterolayout op is left for it to refuse), outlines gpu.launch
// bodies into kernels, and the kernels index the physical buffers.
// REQUIRES: mlir-opt
// RUN: layout-opt %S/gpu.mlir -p layout-lower | %mlir_opt --gpu-kernel-outlining --convert-gpu-to-nvvm | filecheck %s
// RUN: layout-opt %S/../layout-apply/gpu-launch.mlir -p layout-lower | %mlir_opt --convert-gpu-to-nvvm | filecheck %s --check-prefix=APPLY

// The nChw8c kernel: c floordiv 8 and c mod 8 index a 5-D buffer of 2x3x5x4x8.
// CHECK-LABEL: llvm.func @relu(
// CHECK-SAME:    nvvm.kernel
// CHECK-DAG:     nvvm.read.ptx.sreg.ctaid.y
// CHECK-DAG:     llvm.udiv
// CHECK-DAG:     llvm.urem
// CHECK:         llvm.load
// CHECK:         llvm.intr.maximum
// CHECK:         llvm.store
// CHECK-LABEL: llvm.func @tile(
// CHECK-LABEL: func.func @host(
// CHECK:         gpu.launch_func @kernels::@relu
// CHECK:         gpu.launch_func @host_kernel::@host_kernel

// APPLY-LABEL: llvm.func @scale(
// APPLY-LABEL: func.func @host(
// APPLY:         gpu.launch_func
