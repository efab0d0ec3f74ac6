// layout-lower is a pipeline of named steps, each a pass of its own: layout-opt runs them one
// by one and verifies the IR between them (--print-between-passes prints it after each step
// but the last). Named one by one in a pipeline they lower the same, and so does plain
// xdsl-opt, which runs layout-lower as one pass.
// RUN: layout-opt %s -p layout-lower --print-between-passes | filecheck %s
// RUN: layout-opt %s -p layout-lower -o %t.lower
// RUN: layout-opt %s -p layout-erase-hints,layout-apply,layout-fold-converts,layout-lower-memrefs,layout-cleanup,layout-guard-misfolds,layout-sub-byte-accesses -o %t.steps
// RUN: diff %t.lower %t.steps
// RUN: xdsl-opt %s -p layout-lower -o %t.xdsl
// RUN: diff %t.lower %t.xdsl

// The hint goes first.
// CHECK-LABEL: IR after layout-erase-hints:
// CHECK-NOT:     layout.schedule
// CHECK:         layout.assign %t to #layout.tag<"W->W4w">
// Then the assigned buffer takes its layout.
// CHECK-LABEL: IR after layout-apply:
// CHECK:         %t = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK:         layout.convert %out to %b
// CHECK-NEXT:    layout.convert %b to %out
// The conversions there and back go, with their buffer.
// CHECK-LABEL: IR after layout-fold-converts:
// CHECK-NOT:     %b =
// CHECK:         layout.convert %in to %t : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
// The lowering: physical buffers, loop nests for the conversion, marked for the cleanup.
// CHECK-LABEL: IR after layout-lower-memrefs:
// CHECK:         func.func @steps(%in: memref<16xf32>, %out: memref<16xf32>, %i: index) -> f32 attributes {layout.cleanup} {
// CHECK:         %t = memref.alloc() : memref<4x4xf32>
// CHECK:         scf.for
// CHECK:         %x = memref.load %t[%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK-LABEL: IR after layout-cleanup:
// CHECK:         func.func @steps(%in: memref<16xf32>, %out: memref<16xf32>, %i: index) -> f32 {
// CHECK-LABEL: IR after layout-guard-misfolds:
// CHECK-NOT:   IR after
// CHECK:       builtin.module {
// CHECK-NOT:     layout.
func.func @steps(%in: memref<16xf32>, %out: memref<16xf32>, %i: index) -> f32 {
  %t = memref.alloc() : memref<16xf32>
  layout.assign %t to #layout.tag<"W->W4w"> : memref<16xf32>
  layout.schedule %t {skip} : memref<16xf32>
  layout.convert %in to %t : memref<16xf32> to memref<16xf32>
  %x = memref.load %t[%i] : memref<16xf32>
  %b = memref.alloc() : memref<16xf32, #layout.tag<"W->W8w">>
  layout.convert %out to %b : memref<16xf32> to memref<16xf32, #layout.tag<"W->W8w">>
  layout.convert %b to %out : memref<16xf32, #layout.tag<"W->W8w">> to memref<16xf32>
  memref.dealloc %b : memref<16xf32, #layout.tag<"W->W8w">>
  memref.dealloc %t : memref<16xf32>
  func.return %x : f32
}
