"""The exhaustive sweep: every hand of a space (checker.space) with every winning tile and way of winning,
scored by the reference engine and by another engine (or the reference under other readings), on Dask."""
