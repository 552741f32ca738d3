"""Cython's pure-Python names for a machine without Cython: the solver's core runs as plain
Python with them, and mypy reads the core's C types through them.

``dd/core.py`` is the one source of the solver's core: the build compiles it with Cython
where it can (setup.py), and where Cython is not installed the core imports this module in
its place. Each name does what Cython's own shadow module does when the code is not compiled:
the C types are the Python types, the decorators and casts change nothing.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar, overload

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)
T = TypeVar("T")

compiled = False  # the compiled core has cython.compiled True

# C types: a C int holds what the core stores (a card id, a 52-bit hand, a trick count).
bint: TypeAlias = bool
char: TypeAlias = builtins.int
short: TypeAlias = builtins.int
int: TypeAlias = builtins.int  # Cython's name, shadowing the builtin
long: TypeAlias = builtins.int
longlong: TypeAlias = builtins.int
uint: TypeAlias = builtins.int
ulong: TypeAlias = builtins.int
ulonglong: TypeAlias = builtins.int
Py_ssize_t: TypeAlias = builtins.int
size_t: TypeAlias = builtins.int
double: TypeAlias = builtins.float
float: TypeAlias = builtins.float  # Cython's name, shadowing the builtin


def _same(function: F) -> F:
    return function


# Function and class kinds: C-only, C-and-Python, inlined, final, extension type.
cfunc = ccall = inline = final = _same


def cclass(cls: C) -> C:
    """An extension type when compiled; the same class pure."""
    return cls


def locals(**types: object) -> Callable[[F], F]:  # Cython's name, shadowing the builtin
    """The C types of a function's locals when compiled."""
    return _same


def returns(ctype: object) -> Callable[[F], F]:
    """A C function's return type when compiled."""
    return _same


def exceptval(value: object = None, *, check: bool = True) -> Callable[[F], F]:
    """How a C function reports an exception when compiled."""
    return _same


def boundscheck(flag: bool) -> Callable[[F], F]:
    """Compiler directive: index bounds checks on or off."""
    return _same


wraparound = cdivision = boundscheck


@overload
def declare(ctype: object, *, visibility: str = ...) -> Any: ...
@overload
def declare(ctype: object, value: T, *, visibility: str = ...) -> T: ...
def declare(ctype: object, value: object = None, *, visibility: str = "private") -> object:
    """A C variable (or an extension type's attribute, ``visibility`` to Python code)
    when compiled; pure, the value itself, None for an attribute declared without one."""
    return value


def cast(ctype: object, value: T, *, typecheck: bool = False) -> T:
    """A C cast when compiled; the value itself pure."""
    return value
