"""Vision: finding the board and reading the tiles from camera frames."""
