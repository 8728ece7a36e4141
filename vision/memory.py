"""Keep freed memory in the process instead of handing it back to the system at once.

Reading a board makes many short-lived arrays of 0.5-8 MB (the CNN's patch matrices, a 1080p
frame's copies, the rectified picture's masks).  glibc's allocator gives blocks that size their
own pages (``mmap``) or returns the top of its heap to the system as soon as they are freed
(``trim``), so the next array of the same size faults in fresh pages, about 250 of them a
megabyte.  Measured on one core (``scripts/bench_read.py --only speed``): the CNN on 16 glyphs
spent 2.5 of its 4.1 ms faulting pages in, and a first 1080p frame (locate + rectify + read)
took ~65 ms instead of ~55.  Raising both thresholds keeps up to 32 MB of freed memory for
reuse: every later array of that size is served from pages already mapped.

Only glibc has ``mallopt``; elsewhere (macOS, Windows, musl) nothing is changed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_TRIM_THRESHOLD = -1      # glibc's malloc.h
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 16 << 20  # blocks under 16 MB come from the heap (a 1080p frame is 6 MB)
TRIM_THRESHOLD = 32 << 20  # free memory at the heap's top is returned only beyond 32 MB

_done: bool | None = None


def glibc() -> ctypes.CDLL | None:
    """The C library when it is glibc (the only one with these settings), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "gnu_get_libc_version") else None      # musl and others: no


def keep_freed_memory() -> bool:
    """Ask glibc to reuse freed blocks (see the module's docstring); True where it was set.

    Called once when :mod:`vision` is imported; calling it again does nothing."""
    global _done
    if _done is None:
        libc = glibc()
        _done = libc is not None and bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) \
            and bool(libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    return _done
