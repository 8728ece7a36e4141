"""The reader's arrays reuse freed memory instead of faulting fresh pages in (vision/memory.py)."""

import subprocess
import sys
from pathlib import Path

import pytest

from vision.memory import glibc, keep_freed_memory

ROOT = Path(__file__).resolve().parents[1]

# A few arrays the size of the CNN's patch matrices (1-2 MB), made and freed again and again,
# as reading a board does; prints the page faults of the last 50 rounds.
ROUNDS = """
import resource, sys
import numpy as np
if sys.argv[1] == "vision":
    import vision
def work():
    a = np.ones((25, 16, 784), np.float32)
    b = a * 2
    c = np.ones((9, 16, 16, 196), np.float32)
    return float(b[0, 0, 0] + c[0, 0, 0, 0])
work()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(50):
    work()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", ROUNDS, mode], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return int(out.stdout.split()[-1])


def test_asking_again_gives_the_same_answer():
    assert keep_freed_memory() == keep_freed_memory()


@pytest.mark.skipif(glibc() is None, reason="only glibc's allocator is tuned")
def test_importing_vision_keeps_freed_blocks_for_reuse():
    default, kept = _faults("plain"), _faults("vision")
    assert default > 5000            # the allocator's default: each round faults its pages in afresh
    assert kept < default / 10
