"""Issue 17's benchmark targets and the hand-written references, by bundled game.

Read by `orrery bench --report` (interpreter/cli/bench_report.py) when it runs in a checkout: the engine
itself names no game, so which game is compared with which reference, and every target, live here.
"""

GAME_ORDER = ["tic-tac-toe", "connect-four", "breakthrough", "reversi", "bubble-singularity", "bubblee-pop",
              "burbuja"]
# hand-written references: random playouts (benchmarks/ref_*.py), and cascade resolutions
REFERENCES = {"tic-tac-toe": "ref_tic_tac_toe", "connect-four": "ref_connect_four",
              "breakthrough": "ref_breakthrough", "reversi": "ref_reversi"}
CASCADE_REFERENCES = {"bubble-singularity": "ref_pop_cascade"}
# Figures quoted in issue 6 (random playouts/s, another 2-core machine): Ludii.
LUDII = {"tic-tac-toe": 186_000, "connect-four": 38_500, "breakthrough": 2_910, "reversi": 1_260}
# Issue 17's targets, as issue 34 restates them: random playouts through the lean path / hand-written, and
# through the public API at least API_SHARE of that.
VS_REFERENCE = {"connect-four": 0.3, "reversi": 0.3, "breakthrough": 0.25, "tic-tac-toe": 0.1}
API_SHARE = 0.5
VS_INTERPRETER = 10.0
# "Bubble Singularity, 4 players: >= 50 random games/s on a machine where the hand-written connect four
# does ~37,000 playouts/s": the game, its players, the target, and the reference that normalises it
FULL_TABLE = {"game": "bubble-singularity", "players": 4, "games_per_s": 50.0,
              "normaliser": "connect-four", "normaliser_rate": 37_000.0}
CHAIN_K, CHAIN_MAX = 128, 1.5
MCTS_TARGETS = {"connect-four": 7_000, "burbuja": 500, "bubble-singularity": 100}
# Issue 34: a game starting in a new process, to its first decision and to `orrery play`'s first screen
START = {"game": "bubble-singularity", "players": 4, "warm_seconds": 0.5, "cold_seconds": 3.0}
