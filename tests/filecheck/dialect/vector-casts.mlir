// arith.sitofp and arith.fptosi cast vectors lane by lane, as upstream (xDSL 0.74 takes
// scalars only): layout-schedule's polynomial log and exp cast a vector of exponents.
// RUN: layout-opt %s | filecheck %s
// RUN: layout-opt %s | %mlir_opt | filecheck %s
// REQUIRES: mlir-opt

// CHECK-LABEL: func.func @casts(
// CHECK-NEXT:    %[[F:.*]] = arith.sitofp %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK-NEXT:    %[[G:.*]] = arith.sitofp %{{.*}} : i32 to f32
// CHECK-NEXT:    %[[J:.*]] = arith.fptosi %[[F]] : vector<8xf32> to vector<8xi32>
// CHECK-NEXT:    return %[[F]], %[[G]], %[[J]] : vector<8xf32>, f32, vector<8xi32>
func.func @casts(%i: vector<8xi32>, %s: i32) -> (vector<8xf32>, f32, vector<8xi32>) {
  %f = arith.sitofp %i : vector<8xi32> to vector<8xf32>
  %g = arith.sitofp %s : i32 to f32
  %j = arith.fptosi %f : vector<8xf32> to vector<8xi32>
  func.return %f, %g, %j : vector<8xf32>, f32, vector<8xi32>
}
