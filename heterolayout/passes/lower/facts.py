"""What `layout-lower-memrefs` needs to know about a module, gathered in one walk.

The ops by the kind each step of the lowering works on (branches that may carry views,
views, transfers, calls, deallocations, copies and conversions, linalg ops), the function
table, and every op in walk order for the checks; each value's layout (`value_layout`) and
view window (`view_window`) are derived once, when first asked, and kept. A step that
changes the module gathers the facts again (`LoweringFacts.of`): they always describe the
module as it is, and a module with nothing for those steps to do is walked once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func, memref, scf, vector
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from heterolayout.dialects.functions import FUNCTION_TYPES, Function, function_key
from heterolayout.dialects.ops import ConvertOp
from heterolayout.dialects.roles import VECTOR_ACCESSES, VIEW_OPS
from heterolayout.dialects.views import ViewWindow, value_layout, view_window
from heterolayout.layout.model import Layout

Transfer = vector.TransferReadOp | vector.TransferWriteOp


@dataclass
class LoweringFacts:
    """The ops of one module by kind, in walk order, and what is known of its values."""

    ops: list[Operation] = field(default_factory=list)
    """Every op under the module, in walk order."""
    functions: dict[str, Function] = field(default_factory=dict)
    """Every function and kernel, by the key its calls use (`functions.function_table`)."""
    branches: list[scf.IfOp | scf.ForOp] = field(default_factory=list)
    views: list[Operation] = field(default_factory=list)
    """The view ops (`roles.VIEW_OPS`) with a result."""
    casts: list[memref.CastOp] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)
    calls: list[func.CallOp] = field(default_factory=list)
    deallocs: list[memref.DeallocOp] = field(default_factory=list)
    copies: list[memref.CopyOp | ConvertOp] = field(default_factory=list)
    structured: bool = False
    """Whether there is a linalg op."""
    vectors: bool = False
    """Whether there is a vector access (`roles.VECTOR_ACCESSES`)."""
    _layouts: dict[SSAValue, Layout | None] = field(default_factory=dict)
    _windows: dict[SSAValue, ViewWindow | None] = field(default_factory=dict)

    @staticmethod
    def of(module: ModuleOp) -> LoweringFacts:
        facts = LoweringFacts()
        for op in module.walk():
            facts.ops.append(op)
            name = op.name
            if name in VIEW_OPS:
                if op.results:
                    facts.views.append(op)
            elif isinstance(op, memref.CastOp):
                facts.casts.append(op)
            elif isinstance(op, scf.IfOp | scf.ForOp):
                facts.branches.append(op)
            elif isinstance(op, func.CallOp):
                facts.calls.append(op)
            elif isinstance(op, memref.DeallocOp):
                facts.deallocs.append(op)
            elif isinstance(op, memref.CopyOp | ConvertOp):
                facts.copies.append(op)
            elif isinstance(op, FUNCTION_TYPES):
                facts.functions[function_key(op)] = op
            elif name.startswith("linalg."):
                facts.structured = True
            if name in VECTOR_ACCESSES:
                facts.vectors = True
                if isinstance(op, Transfer):
                    facts.transfers.append(op)
        return facts

    def layout(self, value: SSAValue) -> Layout | None:
        """`value_layout(value)`, derived once."""
        if value in self._layouts:
            return self._layouts[value]
        found = self._layouts[value] = value_layout(value)
        return found

    def window(self, value: SSAValue) -> ViewWindow | None:
        """`view_window(value)`, derived once."""
        if value in self._windows:
            return self._windows[value]
        found = self._windows[value] = view_window(value)
        return found

    def runtime_window(self, value: SSAValue) -> ViewWindow | None:
        """The window of a view of a layout-typed memref with no static layout
        (`views.folding.runtime_view`)."""
        window = self.window(value)
        return None if window is None or self.layout(value) is not None else window

    def has_runtime_views(self) -> bool:
        return any(
            self.runtime_window(op.results[0]) is not None for op in (*self.views, *self.casts)
        )
