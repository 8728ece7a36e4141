"""Table Companion: the referee engine, game log and command line."""
