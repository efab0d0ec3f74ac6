// A program without layouts keeps its own accesses, sub-byte vector accesses included: the
// first step of layout-lower notes such a module (layout.without_layouts) and the last,
// layout-sub-byte-accesses, reads the note, leaves the accesses, and removes it. Without the
// note (the step alone) the access goes through the memref's bytes.
// RUN: layout-opt %s -p layout-lower --print-between-passes | filecheck %s
// RUN: layout-opt %s -p layout-sub-byte-accesses | filecheck %s --check-prefix=ALONE

// CHECK-LABEL: IR after layout-erase-hints:
// CHECK-NEXT:  builtin.module attributes {layout.without_layouts} {
// CHECK-LABEL: IR after layout-guard-misfolds:
// CHECK-NEXT:  builtin.module attributes {layout.without_layouts} {
// CHECK-NOT:   IR after
// CHECK:       builtin.module {
// CHECK-NEXT:    func.func @bits(%a: memref<64xi1>, %i: index) -> vector<64xi1> {
// CHECK-NEXT:      %v = vector.load %a[%i] : memref<64xi1>, vector<64xi1>
// CHECK-NEXT:      func.return %v : vector<64xi1>

// ALONE:       builtin.module {
// ALONE:         vector.load %{{.*}}[%i] : memref<64xi8>, vector<64xi8>
func.func @bits(%a: memref<64xi1>, %i: index) -> vector<64xi1> {
  %v = vector.load %a[%i] : memref<64xi1>, vector<64xi1>
  func.return %v : vector<64xi1>
}
