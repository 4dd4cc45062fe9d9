"""A small pure-Python Go engine with the interface the stencil uses of an OpenSpiel state:
area scoring, komi, no suicide, simple ko, the game over after two passes in a row or
2 * size * size plies. The stencil falls back to it when pyspiel is missing."""


class TinyGo:
    def __init__(self, size, komi):
        self.size, self.config = size, {"komi": komi}
        self.board = [0] * (size * size)  # 0 empty, 1 black, 2 white; index 0 = a1
        self.player, self.passes, self.plies, self.ko = 0, 0, 0, None

    def clone(self):
        other = TinyGo(self.size, self.config["komi"])
        other.board = list(self.board)
        other.player, other.passes = self.player, self.passes
        other.plies, other.ko = self.plies, self.ko
        return other

    def current_player(self):
        return -4 if self.is_terminal() else self.player

    def _neighbours(self, p):
        n = self.size
        r, c = divmod(p, n)
        return [
            q
            for q, ok in ((p - n, r > 0), (p + n, r < n - 1), (p - 1, c > 0), (p + 1, c < n - 1))
            if ok
        ]

    def _group(self, board, p):
        colour, seen, stack, libs = board[p], {p}, [p], set()
        while stack:
            for q in self._neighbours(stack.pop()):
                if board[q] == 0:
                    libs.add(q)
                elif board[q] == colour and q not in seen:
                    seen.add(q)
                    stack.append(q)
        return seen, libs

    def _place(self, p):
        """The board after the mover plays p and the captured stones, or None if illegal."""
        if self.board[p] or p == self.ko:
            return None
        me = self.player + 1
        board = list(self.board)
        board[p] = me
        captured = []
        for q in self._neighbours(p):
            if board[q] == 3 - me:
                stones, libs = self._group(board, q)
                if not libs:
                    for s in stones:
                        board[s] = 0
                    captured.extend(stones)
        if not self._group(board, p)[1]:
            return None  # suicide
        return board, captured

    def legal_actions(self):
        if self.is_terminal():
            return []
        n2 = self.size * self.size
        return [p for p in range(n2) if self._place(p) is not None] + [n2]

    def apply_action(self, action):
        n2 = self.size * self.size
        if action == n2:
            self.passes += 1
            self.ko = None
        else:
            placed = self._place(action)
            if placed is None:
                raise ValueError(f"illegal action {action}")
            self.board, captured = placed
            self.passes = 0
            stones, libs = self._group(self.board, action)
            self.ko = (
                captured[0] if len(captured) == 1 and len(stones) == 1 and len(libs) == 1 else None
            )
        self.player = 1 - self.player
        self.plies += 1

    def is_terminal(self):
        return self.passes >= 2 or self.plies >= 2 * self.size * self.size

    def area(self):
        counts = [0, 0, 0]
        seen = set()
        for p, colour in enumerate(self.board):
            if colour:
                counts[colour] += 1
            elif p not in seen:
                region, stack, borders = {p}, [p], set()
                while stack:
                    for q in self._neighbours(stack.pop()):
                        if self.board[q] == 0 and q not in region:
                            region.add(q)
                            stack.append(q)
                        elif self.board[q]:
                            borders.add(self.board[q])
                seen |= region
                if len(borders) == 1:
                    counts[borders.pop()] += len(region)
        return counts[1], counts[2]

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        black, white = self.area()
        margin = black - white - self.config["komi"]
        return [1.0, -1.0] if margin > 0 else [-1.0, 1.0] if margin < 0 else [0.0, 0.0]

    def observation_tensor(self, player=0):
        cells = [float(v == 1) for v in self.board] + [float(v == 2) for v in self.board]
        cells += [float(v == 0) for v in self.board] + [float(self.player)] * len(self.board)
        return cells
