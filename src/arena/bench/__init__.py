"""Benchmarks: speed is measured here, never asserted in tests.

One module per ``arena bench KIND``: random playouts per second (with OpenSpiel
alongside when the ``bench`` extra is installed), agents' simulations and nodes
per second, time safety over many timed moves, games per minute with worker
processes, and our score against GNU Go and GRhino. Benchmarks sit beside
experiments at the top of the layers, below only the command line.
"""
