"""The torch dialect to bufferized upstream IR: torch-mlir's pipelines to linalg on tensors
(in iree-base-compiler's `iree-opt`), then upstream MLIR 22's bufferization (`mlir-opt-22`),
so the result is upstream IR of the version heterolayout reads and the native engine
compiles with.

The bufferization makes one public `@main` on memrefs: tensors become memrefs with the
identity layout, the results become arguments written in place after the inputs
(`buffer-results-to-out-params`, which moves each result's attributes, its graph name, onto
its argument), constants become constant `memref.global`s, and every allocation gets its
deallocation. `tensor.pad` becomes a fill and a copy into a subview
(`convert-tensor-to-linalg` first), which the engines and passes read.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from heterolayout.dialects.functions import GRAPH_INPUT, GRAPH_OUTPUT
from heterolayout.execution.native.toolchain import INSTALL_HINT, find_mlir_tool
from heterolayout.frontends.errors import ONNX_EXTRA, FrontendError, MissingFrontend
from heterolayout.frontends.pads_before_transposed_convolutions import check_torch_module
from heterolayout.frontends.signature import Signature

TO_BACKEND = {
    "onnx": "builtin.module(torch-onnx-to-torch-backend-pipeline)",
    "torch": "builtin.module(torchdynamo-export-to-torch-backend-pipeline)",
}
"""torch-mlir's pipelines from each importer's torch dialect to its backend contract."""
TO_LINALG = "builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)"
"""torch-mlir's pipeline from the backend contract to linalg on tensors."""
PADDING_OP = b"aten.constant_pad_nd"
"""The op `check_torch_module` looks before (bytecode keeps op names as plain strings)."""
TM_TENSOR = re.compile(rb"\btm_tensor\.(\w+)")
"""An op of torch-mlir's own TMTensor dialect, which torch-mlir's pipeline leaves where linalg
has no op (a sort, a scatter, a scan): upstream MLIR does not know the dialect."""

BUFFERIZE = (
    "--convert-tensor-to-linalg",
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--buffer-results-to-out-params=hoist-static-allocs modify-public-functions",
    "--buffer-deallocation-pipeline",
    "--canonicalize",
)
"""Upstream MLIR 22's flags from linalg on tensors to memrefs (the module docstring)."""

HOIST = "hoist-static-allocs "
"""The option of `buffer-results-to-out-params` that writes each result into its argument
in place rather than into an allocation copied there. MLIR 22 crashes on it when @main
returns one value twice (two graph outputs that are the same tensor, through `Identity`):
such a module is bufferized without it (a copy per output)."""

TOOL_TIMEOUT = 3600
"""Seconds a frontend tool may run: a generous bound on a model of a few hundred MB."""


def _iree_opt() -> str:
    try:
        from iree.compiler.tools.binaries import find_tool
    except ImportError:
        raise MissingFrontend(f"importing models needs iree-base-compiler: {ONNX_EXTRA}") from None
    try:
        return str(find_tool("iree-opt"))
    except ValueError as error:
        raise MissingFrontend(f"iree-opt not found ({error}): {ONNX_EXTRA}") from None


def _run(command: list[str], tool: str) -> str:
    """The tool's standard output; FrontendError, one line, when it fails or runs too long."""
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, check=False, timeout=TOOL_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        raise FrontendError(f"{tool} ran longer than {TOOL_TIMEOUT} s") from None
    if done.returncode != 0:
        raise FrontendError(f"{tool} refused the model: {first_error(done.stderr)}")
    return done.stdout


def first_error(stderr: str) -> str:
    """The first error a tool printed, without the op it prints, led by the ONNX op and node
    it is about when the tool names them (`onnx.Foo (node 'n'): failed to legalize ...`)."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if "error:" in line]
    if not errors:
        return lines[0] if lines else "no message"
    start = lines.index(errors[0])
    message = errors[0].split("error:", 1)[1].strip()
    node = re.match(r'loc\("((?:[^"\\]|\\.)*)"\):\s*(.*)', message)
    if node is not None:
        message = node.group(2)
    notes = [message, *(line for line in lines[start + 1 :] if "error:" not in line)]
    operator = re.search(r'(?:name = |torch\.operator )"(onnx\.[\w.]+)"', "\n".join(notes))
    message = re.split(r":\s+%\S+ = ", message)[0]
    subject = [operator.group(1)] if operator else []
    if node is not None and node.group(1):
        subject.append(f"(node '{node.group(1)}')")
    return f"{' '.join(subject)}: {message}" if subject else message


def to_linalg(source: Path, destination: Path, dialect: str) -> None:
    """Run torch-mlir's pipelines on a torch-dialect module: linalg on tensors, as text; the
    backend-contract module between them (bytecode, its locations kept for the second
    pipeline's errors) is checked, printed without its weights, for what upstream lowers
    wrong (`check_torch_module`) when it pads."""
    backend = destination.with_suffix(".backend.mlirbc")
    iree_opt = _iree_opt()
    _run(
        [
            iree_opt,
            f"--pass-pipeline={TO_BACKEND[dialect]}",
            "--emit-bytecode",
            str(source),
            "-o",
            str(backend),
        ],
        "iree-opt",
    )
    if PADDING_OP in backend.read_bytes():
        check_torch_module(_text_without_weights(iree_opt, backend))
    _run(
        [iree_opt, f"--pass-pipeline={TO_LINALG}", str(backend), "-o", str(destination)],
        "iree-opt",
    )
    _check_upstream_dialects(destination.read_bytes())


def _check_upstream_dialects(linalg: bytes) -> None:
    """FrontendError when torch-mlir left ops of its TMTensor dialect (ONNX's TopK,
    ScatterElements, ScatterND and CumSum lower to them), which upstream MLIR 22 cannot
    parse: one line naming them, not mlir-opt's unknown-dialect error."""
    found = sorted({name.decode() for name in TM_TENSOR.findall(linalg)} - {"yield"})
    if found:
        ops = ", ".join(f"tm_tensor.{name}" for name in found)
        raise FrontendError(
            f"the model lowers to {ops} (torch-mlir's TMTensor dialect, which upstream MLIR "
            "does not compile; TopK, sorts, scatters and cumulative sums lower to it): not "
            "supported yet"
        )


def _text_without_weights(iree_opt: str, module: Path) -> str:
    """The module as text, its constants and resources elided (its ops are what is read)."""
    return _run(
        [
            iree_opt,
            "--mlir-elide-elementsattrs-if-larger=16",
            "--mlir-elide-resource-strings-if-larger=16",
            str(module),
        ],
        "iree-opt",
    )


def bufferize(source: Path, destination: Path) -> None:
    """Bufferize linalg on tensors with upstream MLIR 22 (`BUFFERIZE`)."""
    mlir_opt = find_mlir_tool("mlir-opt")
    if mlir_opt is None:
        raise MissingFrontend(f"bufferizing the imported model needs MLIR 22: {INSTALL_HINT}")
    flags = list(BUFFERIZE)
    if _returns_a_value_twice(source):
        flags = [flag.replace(HOIST, "") for flag in flags]
    _run([mlir_opt, *flags, str(source), "-o", str(destination)], "mlir-opt")


def _returns_a_value_twice(source: Path) -> bool:
    """Whether @main of a module of linalg on tensors (iree-opt's output, which the MLIR
    bindings of the same iree-base-compiler read) returns one value twice."""
    from iree.compiler import ir

    with ir.Context() as context:
        context.allow_unregistered_dialects = True
        module = ir.Module.parse(source.read_text(encoding="utf-8"))
        for op in module.body.operations:
            attributes = op.operation.attributes
            if "sym_name" in attributes and ir.StringAttr(attributes["sym_name"]).value == "main":
                returned = list(list(op.operation.regions[0].blocks[0].operations)[-1].operands)
                return any(a == b for i, a in enumerate(returned) for b in returned[i + 1 :])
    return False


RESOURCES = re.compile(r"^\{-#\s*dialect_resources:.*?^#-\}\s*", re.MULTILINE | re.DOTALL)
"""The module's resource section (its blobs), after the module."""
BLOB = re.compile(r'^\s*(?:"((?:[^"\\]|\\.)*)"|([^\s:"]+))\s*:\s*"0x([0-9A-Fa-f]*)"', re.MULTILINE)
"""One blob of the section: its key (bare or quoted) and its hex (alignment, then data)."""
DENSE_RESOURCE = re.compile(r'dense_resource<(?:"((?:[^"\\]|\\.)*)"|([^\s>"]+))>')
BIT_MEMREF = re.compile(r"memref<(?:[^>]*x)?i1>")


def inline_resources(text: str) -> str:
    """The module with its `dense_resource<key>` constants written as `dense<"0x…">` from the
    resource section's blobs, and the section dropped.

    The FX importer keeps weights as resources through bufferization
    (`memref.global … = dense_resource<torch_tensor_…>`); heterolayout's parser reads
    `dense` initializers. A blob's hex is a 4-byte alignment, then the elements as
    `dense<"0x…">` stores them (little-endian), except `i1`, one byte per element there
    and one bit in `dense`'s hex: refused."""
    section = RESOURCES.search(text)
    if section is None:
        return text
    blobs = {
        (quoted if quoted else bare): data[8:]
        for quoted, bare, data in BLOB.findall(section.group(0))
    }
    body = text[: section.start()] + text[section.end() :]

    def dense(match: re.Match[str]) -> str:
        key = match.group(1) or match.group(2)
        if key not in blobs:
            raise FrontendError(f"the constant dense_resource<{key}> has no data in the module")
        declared = body[body.rfind("\n", 0, match.start()) + 1 : match.start()]
        if BIT_MEMREF.search(declared):
            raise FrontendError(f"the i1 constant dense_resource<{key}> is not supported yet")
        return f'dense<"0x{blobs[key]}">'

    return DENSE_RESOURCE.sub(dense, body)


def check_signature(text: str, signature: Signature) -> None:
    """The bufferized module's `@main` takes the graph inputs then the graph outputs, each
    named, all of static shape, and returns nothing."""
    header = re.search(r"^ *func\.func @main\(.*$", text, re.MULTILINE)
    if header is None:
        raise FrontendError("the bufferized module has no public @main")
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', header.group(0))
    roles = re.findall(rf"({re.escape(GRAPH_INPUT)}|{re.escape(GRAPH_OUTPUT)}) = ", line)
    expected = [GRAPH_INPUT] * len(signature.inputs) + [GRAPH_OUTPUT] * len(signature.outputs)
    if roles != expected:
        raise FrontendError(
            f"the bufferized @main does not take the {len(signature.inputs)} graph inputs "
            f"then the {len(signature.outputs)} graph outputs: {header.group(0).strip()}"
        )
    if "->" in line:
        raise FrontendError(f"the bufferized @main still returns values: {line.strip()}")
    if "?" in line:
        raise FrontendError(f"the bufferized @main has a dynamic shape: {line.strip()}")
