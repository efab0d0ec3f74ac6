// A comparison of a vector with itself is not folded to an `i1` constant by canonicalize
// (xDSL 0.74's fold makes a scalar, which would stand in for a vector of `i1`: fuzz seed
// 501971, after layout-schedule vectorized a plain i1 nest); a scalar one still is.
// RUN: layout-opt %s -p canonicalize | filecheck %s

// CHECK-LABEL: func.func @same(
// CHECK-NEXT:    %c = arith.cmpi eq, %x, %x : vector<8xi1>
// CHECK-NEXT:    %e = arith.extui %c : vector<8xi1> to vector<8xi32>
// CHECK-NEXT:    %d = arith.constant true
// CHECK-NEXT:    func.return %e, %d : vector<8xi32>, i1
func.func @same(%x: vector<8xi1>, %y: i32) -> (vector<8xi32>, i1) {
  %c = arith.cmpi eq, %x, %x : vector<8xi1>
  %e = arith.extui %c : vector<8xi1> to vector<8xi32>
  %d = arith.cmpi eq, %y, %y : i32
  func.return %e, %d : vector<8xi32>, i1
}
