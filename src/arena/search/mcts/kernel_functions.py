"""A kernel's functions as plain addresses, turned back into callable functions in compiled code.

Generic compiled code calls a game's kernel through numba's first-class
function types (:func:`arena.core.kernel.signatures`). Passing the functions
themselves as arguments works and caches, but numba converts each one to a
pointer on every call, by unpickling its signature twice: about 8 µs per
function, 40 µs for a search's five — too much for the compiled MCTS, which
is called every few hundred microseconds to keep the clock. So the addresses
are looked up once per kernel (:func:`addresses`), travel as one int64 array,
and :func:`function_of` rebuilds each first-class function value inside
compiled code, which costs nothing.

The function value numba builds has three pointers: the C wrapper, the Python
object (unused here) and the compiled function itself, which numba calls
directly with its own calling convention (so errors still propagate).

Tests: ``tests/search/test_fast_mcts.py`` (every search goes through here).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.experimental.function_type import _get_jit_address, _get_wrapper_address
from numba.extending import intrinsic

from arena.core.kernel import signatures

_SIGNATURES = signatures()

# First-class function types are numba's "experimental" feature, used here on purpose and
# tested move for move; its warning at every first-use compilation only told users a path.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


def addresses(functions: dict[str, Any], names: tuple[str, ...]) -> np.ndarray:
    """The C-wrapper and compiled addresses of the named kernel functions, two per function
    (compiling them for the contract's signatures, or loading them from the disk cache)."""
    out = []
    for name in names:
        signature = _SIGNATURES[name].signature
        out += [
            _get_wrapper_address(functions[name], signature),
            _get_jit_address(functions[name], signature),
        ]
    return np.array(out, np.int64)


def _caster(name: str) -> Any:
    ftype = _SIGNATURES[name]

    @intrinsic
    def cast(typingctx, c_address, jit_address):  # type: ignore[no-untyped-def]
        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            model = context.data_model_manager[ftype]
            pointer = context.get_value_type(types.voidptr)
            value = cgutils.get_null_value(model.get_value_type())
            fields = (
                ("c_addr", builder.inttoptr(args[0], pointer)),
                ("py_addr", ir.Constant(pointer, None)),
                ("jit_addr", builder.inttoptr(args[1], pointer)),
            )
            for name, field in fields:
                value = builder.insert_value(value, field, model.get_field_position(name))
            return value

        return ftype(types.int64, types.int64), codegen

    return cast


as_legal_moves = _caster("legal_moves")
as_play = _caster("play")
as_to_move = _caster("to_move")
as_outcome = _caster("outcome")
as_simulation = _caster("playout")
"""``playout`` or ``rollout`` (the same signature)."""
as_trace = _caster("trace")
"""A kernel's optional ``trace`` (the moves from one position to a later one)."""
as_prior = _caster("prior")
"""A kernel's optional ``prior`` (knowledge scores of the legal moves)."""
as_decode = _caster("decode")
"""A kernel's optional ``decode`` (a position from four words)."""
