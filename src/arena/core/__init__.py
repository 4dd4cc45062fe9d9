"""The game API and its values: Game and State, spec strings, Limit, errors, the agent
interface, perft and playouts; board helpers (grid, bitboards, hashing); the
contract of compiled kernels; the version.

The bottom layer: it imports nothing else of arena, and everything else may
import it. A game implements :class:`~arena.core.game.State`; an agent
implements :class:`~arena.core.agent.Agent`.
"""
