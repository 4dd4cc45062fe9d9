# The project imports every agent, which registers it (as the course's template does).
from .student_agent import StudentAgent
from .wall_hugger import WallHugger

__all__ = ["StudentAgent", "WallHugger"]
