"""Hands of play that tell two tables apart: the procedure search (`search.separate`: bot hands, the hand-written
scenes of `scenes`, single changes of them) that `corpus strength` kills procedure mutants with, the diagnosis
probes a judge of play with, and the hunter finds a table reading's witness with."""
