"""The game API and its values: Game and State, spec strings, Limit, errors, the agent
interface, perft and playouts; board helpers (grid, bitboards, hashing).

The bottom layer: it imports nothing else of arena."""
