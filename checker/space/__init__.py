"""Spaces of hands enumerated exhaustively, in a stable order: the hunter's dead-rule proofs and the sweep
read the same enumerator."""
