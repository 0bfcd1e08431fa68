"""Sweeps of the design space: the sweep document, its designs, the engine that plans them, and
the Pareto front of the results. Pure: no Django (tests/test_purity.py)."""
