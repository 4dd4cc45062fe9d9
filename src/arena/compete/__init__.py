"""Playing games between agents: time controls, the referee (``match``), openings,
schedules, the runner (processes, Ray), tournaments and the results store."""
