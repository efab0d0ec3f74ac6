"""`override`: redefine an xDSL op class in a subclass, so that `isinstance` checks on
xDSL's class still hold for ops parsed from upstream syntax."""

from __future__ import annotations

from typing import TypeVar

from xdsl.irdl import IRDLOperation, irdl_op_definition

OpT = TypeVar("OpT", bound=IRDLOperation)


def _no_checks(self: IRDLOperation) -> None:
    """The subclass's definition is checked by `irdl_op_definition`'s own verifier."""


def override(cls: type[OpT]) -> type[OpT]:
    """`irdl_op_definition` for a subclass of an xDSL op that redeclares every field.

    Workaround: xDSL builds an op's verifier from the class's `verify_`, and a subclass
    inherits the parent's generated one, which checks the parent's definition (the very
    constraints the subclass relaxes). Unless the subclass writes its own `verify_`, it
    gets one with no checks beyond its definition's."""
    if "verify_" not in cls.__dict__:
        cls.verify_ = _no_checks  # type: ignore[method-assign,assignment]
    return irdl_op_definition(cls)
