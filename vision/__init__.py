"""Vision: finding the board and reading the tiles from camera frames."""

from vision.memory import keep_freed_memory

# Reading makes many short-lived arrays of a few MB; glibc would fault their pages in afresh
# each time (~10 ms of a first 1080p frame).  See vision/memory.py.
keep_freed_memory()
