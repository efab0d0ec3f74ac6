"""The one error both engines raise for a program that cannot run."""

from xdsl.utils.exceptions import InterpretationError


class ExecutionError(InterpretationError):
    """A one-line diagnostic naming the op and where it is (division by zero, an
    out-of-bounds access, an unsupported op, a bad argument)."""
