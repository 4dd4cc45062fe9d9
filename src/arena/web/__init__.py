"""The web board (``arena web``): every game in the browser, the search drawn live.

``app`` is the ASGI app (Starlette, imported when it is built: the ``web``
extra), ``session`` one board per WebSocket, ``board`` its line of moves,
``view`` what the browser draws, ``catalog`` what it may choose and the checks
on what it sends; ``static/`` is the front end (plain JavaScript modules and
SVG, no build step). It sits beside ``cli`` at the top of the layers.
"""
