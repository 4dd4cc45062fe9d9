"""The Go Text Protocol (GTP version 2): arena's agents as GTP engines (``arena gtp``)
and GTP engines as arena agents (``gtp:COMMAND``), over one shared framing module
(``protocol``: command and reply syntax, vertices, colours) and the GTP time
settings (``time_settings``).
"""
