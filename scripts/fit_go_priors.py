"""Fit Go's prior (``mcts:patterns=K``) to the moves of a program's games (how
``src/arena/games/go/go_priors.npz`` was made).

Usage (half a minute for 24 games of 19x19):

    PYTHONPATH=src python scripts/fit_go_priors.py games.db [more.db ...] \\
        --player gnugo --out src/arena/games/go/go_priors.npz

1. **Games**: arena results databases (``arena match --db``), opened read-only; every
   Go game in them, any size. The shipped weights were fitted on GNU Go 3.8 level 10
   playing itself on 19x19, 24 games in 37 minutes of both cores (GNU Go spends about
   0.3 s a move)::

       arena match go:size=19 'gtp:gnugo --mode gtp --chinese-rules --level 10' \\
           'gtp:gnugo --mode gtp --chinese-rules --level 10' --colours fixed \\
           --openings random:plies=3 --max-plies 320 --move-time 10 --grace 60000 \\
           --games 80 --seed 49 --jobs 2 --db gnugo19.db

   (stopped after 24 games). ``--colours fixed`` gives each game an opening of its own:
   GNU Go plays the same game twice from the same opening. A game's random opening plies
   are never learned.
2. **Positions**: every move of the players whose spec contains ``--player``, from
   ``--skip`` plies after the random opening until the first pass, that is a candidate
   point (empty, not an own eye); its features are those of :mod:`arena.games.go.learned`
   (the 3x3 shape class seen by the player to move, the distances to the last two moves,
   the line by stage, the kernel's hand-set prior class with ladders read, the liberty
   class).
3. **Fit**: maximum likelihood of the chosen point among the position's candidates (a
   softmax over the sum of the features' weights, Coulom's generalised Bradley-Terry
   model with log-gammas), a Gaussian prior of variance ``--sigma2`` on each weight,
   by L-BFGS. One game in ten (``--holdout``) is held out: the script prints the
   held-out log-loss and how often the model's first choice, and the hand-set prior's,
   is the move played.

Tests: tests/games/test_go_learned.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

import arena
from arena.compete.store import open_existing
from arena.core.errors import ArenaError
from arena.games.go import kernel as K
from arena.games.go import learned


def positions(db: Path, player: str, skip: int) -> list[list]:
    """For every Go game in ``db`` (read-only), the learnable moves of ``player``: (the
    candidates' features, the index of the move played among them, the candidates'
    hand-set prior). The game's random opening plies are skipped, and ``skip`` more."""
    store = open_existing(db)
    try:
        return [
            _game_positions(r.game, r.players, r.moves, player, r.opening_plies + skip)
            for r in store.records()
            if r.game.split(":")[0] == "go"
        ]
    finally:
        store.close()


def _game_positions(
    spec: str, players: tuple[str, str], moves: list[str], player: str, skip: int
) -> list:
    game = arena.load_game(spec)
    size, n = game.size, game.points
    p = K.params(game)
    p[K.P_LADDERS] = 1
    s = K.encode(p, game.initial_state())
    heur = np.zeros(n + 1, np.int64)
    played: list[int] = []
    out = []
    for ply, text in enumerate(moves):
        move = game.parse_move(text)
        if move == n:
            break
        if ply >= skip and player in players[ply % 2]:
            K.prior(p, s, heur)
            cells = s[p[K.P_CELL] + p[p[K.P_IDX] : p[K.P_IDX] + n]].reshape(size, size)
            to_move = (int(s[K.PLY]) & 1) + 1
            last = played[-1] if played else -1
            prev = played[-2] if len(played) > 1 else -1
            feats = learned.features(size, cells, to_move, last, prev, heur)
            cand = np.nonzero((cells.ravel() == 0) & (heur[:n] != K.PRIOR_EYE))[0]
            where = np.searchsorted(cand, move)
            if where < len(cand) and cand[where] == move:
                out.append((feats[cand], int(where), heur[cand]))
        K.play(p, s, move)
        played.append(move)
    return out


def design(data: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Columns of the parameter vector for every candidate (rows x 6), each position's
    first row, and each position's chosen row."""
    index, reps = learned.classes()
    c = len(reps)
    rows = np.concatenate([f for f, _, _ in data])
    cols = np.empty_like(rows)
    cols[:, 0] = index[rows[:, 0]]
    cols[:, 1:] = c + rows[:, 1:] - learned.NCODES
    sizes = np.array([len(f) for f, _, _ in data])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    chosen = starts + np.array([w for _, w, _ in data])
    return cols.astype(np.int64), starts, chosen


def loss_and_grad(theta, cols, starts, chosen, sigma2):  # type: ignore[no-untyped-def]
    logits = theta[cols].sum(1)
    top = np.maximum.reduceat(logits, starts)
    sizes = np.diff(np.append(starts, len(logits)))
    z = np.exp(logits - np.repeat(top, sizes))
    total = np.add.reduceat(z, starts)
    lse = top + np.log(total)
    nll = float((lse - logits[chosen]).sum())
    probs = z / np.repeat(total, sizes)
    grad = np.bincount(cols.ravel(), np.repeat(probs, cols.shape[1]), len(theta))
    grad -= np.bincount(cols[chosen].ravel(), minlength=len(theta))
    return nll + 0.5 * float(theta @ theta) / sigma2, grad + theta / sigma2


def _first_choice(scores: np.ndarray, starts: np.ndarray, chosen: np.ndarray) -> float:
    """How often the best-scored candidate is the move played (a tie of k shares 1/k)."""
    sizes = np.diff(np.append(starts, len(scores)))
    top = np.maximum.reduceat(scores, starts)
    ties = np.add.reduceat((scores == np.repeat(top, sizes)).astype(np.int64), starts)
    return float(np.where(scores[chosen] >= top, 1.0 / ties, 0.0).mean())


def evaluate(theta, cols, starts, chosen, heur):  # type: ignore[no-untyped-def]
    """Mean log-loss, the model's first-choice rate and the hand-set prior's."""
    nll, _ = loss_and_grad(theta, cols, starts, chosen, np.inf)
    logits = theta[cols].sum(1)
    return (
        nll / len(starts),
        _first_choice(logits, starts, chosen),
        _first_choice(heur.astype(float), starts, chosen),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db", nargs="+", type=Path, help="arena results databases")
    ap.add_argument("--player", default="gnugo", help="learn the moves of specs containing this")
    ap.add_argument(
        "--skip", type=int, default=0, help="plies to skip after each game's random opening"
    )
    ap.add_argument("--sigma2", type=float, default=1.0, help="prior variance of a weight")
    ap.add_argument("--holdout", type=int, default=10, help="hold out one game in this many")
    ap.add_argument("--out", type=Path, required=True, help="the weights file to write (.npz)")
    ap.add_argument(
        "--no-libs", action="store_true",
        help="leave the liberty classes out (their weights 0), to measure what they add",
    )  # fmt: skip
    args = ap.parse_args(argv)
    try:
        games = [g for db in args.db for g in positions(db, args.player, args.skip) if g]
    except ArenaError as exc:
        print(f"fit_go_priors: {exc}", file=sys.stderr)
        return 2
    train = [pos for i, g in enumerate(games) if i % args.holdout for pos in g]
    held = [pos for i, g in enumerate(games) if not i % args.holdout for pos in g]
    if not train or not held:
        print("fit_go_priors: too few games with moves to learn", file=sys.stderr)
        return 2
    print(f"{len(games)} games: {len(train)} positions to fit, {len(held)} held out")
    _, reps = learned.classes()
    width = len(reps) + learned.HAS_LIBS - learned.NCODES  # the flag slot is no weight
    cols, starts, chosen = design(train)
    if args.no_libs:  # one class for every candidate: no gradient, its weight stays 0
        cols[:, 5] = len(reps) + learned.OFF_LIBS - learned.NCODES
    result = minimize(
        loss_and_grad, np.zeros(width), (cols, starts, chosen, args.sigma2),
        jac=True, method="L-BFGS-B", options={"maxiter": 500},
    )  # fmt: skip
    theta = result.x
    hcols, hstarts, hchosen = design(held)
    hheur = np.concatenate([h for _, _, h in held])
    nll, top1, hand = evaluate(theta, hcols, hstarts, hchosen, hheur)
    uniform = float(np.mean(np.log(np.diff(np.append(hstarts, len(hcols))))))
    print(
        f"held out: log-loss {nll:.3f} nats (uniform {uniform:.3f}), model's first choice "
        f"played {top1:.1%}, the hand-set prior's {hand:.1%}"
    )
    c = len(reps)
    heur = c + learned.OFF_HEUR - learned.NCODES
    used = np.zeros(c, bool)
    used[np.unique(cols[:, 0])] = True
    np.savez_compressed(
        args.out,
        codes=reps[used],
        patterns=theta[:c][used],
        last=theta[c : c + learned.NDIST],
        prev=theta[c + learned.NDIST : c + 2 * learned.NDIST],
        line=theta[c + 2 * learned.NDIST : c + 2 * learned.NDIST + learned.NLINE * learned.NSTAGE]
        .reshape(learned.NSTAGE, learned.NLINE),
        heur=theta[heur : heur + learned.NHEUR],
        libs=theta[heur + learned.NHEUR : heur + learned.NHEUR + learned.NLIBS],
    )  # fmt: skip
    print(f"wrote {args.out} ({int(used.sum())} shape classes seen)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
