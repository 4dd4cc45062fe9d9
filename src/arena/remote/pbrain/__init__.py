"""The Gomocup "pbrain" protocol: arena's Gomoku agents as brains a Gomocup manager runs
(``arena pbrain``) and Gomocup brains as arena agents (``pbrain:COMMAND``), over one
shared module (``protocol``: coordinates, replies, rules, positions).
"""
