// Where upstream `mlir-opt --normalize-memrefs` goes wrong, (4): one op it cannot rewrite
// (memref.extract_aligned_pointer_as_index on %A) makes upstream silently leave every memref
// of the function unnormalized, even %B which only an affine.store uses. layout-lower fails
// with an error naming the op. (Generic form of the op: xDSL has no pretty syntax for it.)
// REQUIRES: mlir-opt
// RUN: %mlir_opt --normalize-memrefs %s | filecheck %s --check-prefix=UPSTREAM
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

#tiled = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>

// UPSTREAM:       #[[MAP:.*]] = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>
// UPSTREAM-LABEL: func.func @gives_up(
// UPSTREAM-NEXT:    %{{.*}} = memref.alloc() : memref<10x16xf32, #[[MAP]]>
// UPSTREAM-NEXT:    %[[B:.*]] = memref.alloc() : memref<10x16xf32, #[[MAP]]>
// UPSTREAM-NEXT:    affine.store %{{.*}}, %[[B]][%{{.*}}, %{{.*}}] : memref<10x16xf32, #[[MAP]]>
// UPSTREAM-NOT:     memref<3x4x4x4xf32>

// CHECK: {{.*}}unsupported-op.mlir:[[# @LINE + 5]]:3: error: layout-lower: memref.extract_aligned_pointer_as_index uses the layout-typed memref memref<10x16xf32, affine_map<{{.*}}>> and has no lowering; nothing is skipped silently
func.func @gives_up(%i: index, %j: index, %v: f32) -> index {
  %A = memref.alloc() : memref<10x16xf32, #tiled>
  %B = memref.alloc() : memref<10x16xf32, #tiled>
  affine.store %v, %B[%i, %j] : memref<10x16xf32, #tiled>
  %p = "memref.extract_aligned_pointer_as_index"(%A) : (memref<10x16xf32, #tiled>) -> index
  func.return %p : index
}
