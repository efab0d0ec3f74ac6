"""Hexagon HTP `ChunkedMemoryLayout<rank, dim,size, …>`, `FlatMemoryLayout<rank>` and aliases.

`(dim, 0)` is the rest of that dim and `(dim, s)` a block of s, outermost first: the digit
model of `blocked`, with dims named by number. Aliases are defined by their literal pairs.
Seed slip: `R4NCHWMemoryLayout`'s pairs `0,0, 3,0, 2,0, 1,0` read literally as N, C, W, H on
an NHWC tensor, while the seed's prose gives `0,0, 3,0, 1,0, 2,0` for NCHW order; the alias
follows the table's literal pairs.
"""

from __future__ import annotations

import difflib
import re

from heterolayout.layout.blocked import Term, check_terms

ALIASES = {
    "R4FlatMemoryLayout": "FlatMemoryLayout<4>",
    "R4NCHWMemoryLayout": "ChunkedMemoryLayout<4, 0,0, 3,0, 2,0, 1,0>",
    "R4Depth32MemoryLayout": "ChunkedMemoryLayout<4, 0,0, 1,0, 3,0, 2,0, 2,4, 3,32>",
    "R4CroutonLayout": "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>",
    "R4Crouton4x1Layout": "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,4>",
    "R4Crouton2x2Layout": "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2>",
    "R4Crouton2Layout": "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,2>",
}

_CHUNKED = re.compile(r"^ChunkedMemoryLayout\s*<(.*)>$", re.S)
_FLAT = re.compile(r"^FlatMemoryLayout\s*<\s*(\d+)\s*>$")


class ChunkedError(ValueError):
    """Raised inside this module; `parse_layout` adds context."""


def is_chunked_spec(spec: str) -> bool:
    text = spec.strip()
    return text.startswith(("ChunkedMemoryLayout", "FlatMemoryLayout")) or text in ALIASES


def parse_chunked(spec: str) -> tuple[int, tuple[Term, ...]]:
    """Chunked text, flat text or an alias → (rank, terms)."""
    text = spec.strip()
    text = ALIASES.get(text, text)
    flat = _FLAT.match(text)
    if flat:
        rank = int(flat.group(1))
        if rank <= 0:
            raise ChunkedError(f"'{spec}': the rank must be positive")
        return rank, tuple(Term(d) for d in range(rank))
    match = _CHUNKED.match(text)
    if not match:
        raise ChunkedError(
            f"'{spec}': expected ChunkedMemoryLayout<rank, dim,size, …>, FlatMemoryLayout<rank> "
            "or an alias"
        )
    try:
        numbers = [int(part) for part in match.group(1).replace(" ", "").split(",")]
    except ValueError:
        raise ChunkedError(f"'{spec}': the parameters must be integers") from None
    rank, pairs = numbers[0], numbers[1:]
    if rank <= 0:
        raise ChunkedError(f"'{spec}': the rank must be positive")
    if len(pairs) % 2:
        raise ChunkedError(f"'{spec}': the parameters after the rank must be (dim, size) pairs")
    terms = []
    for dim, size in zip(pairs[::2], pairs[1::2], strict=True):
        if size < 0:
            raise ChunkedError(
                f"'{spec}': block size {size} of dim {dim} must be positive (0 means the rest)"
            )
        terms.append(Term(dim, size or None))
    try:
        check_terms(terms, rank, f"'{spec}'")
    except ValueError as error:
        raise ChunkedError(str(error)) from None
    return rank, tuple(terms)


def render_chunked(rank: int, terms: tuple[Term, ...]) -> str:
    pairs = ", ".join(f"{t.dim},{t.size or 0}" for t in terms)
    return f"ChunkedMemoryLayout<{rank}, {pairs}>"


def alias_suggestion(name: str) -> str | None:
    found = difflib.get_close_matches(name, list(ALIASES), n=1, cutoff=0.6)
    return found[0] if found else None
