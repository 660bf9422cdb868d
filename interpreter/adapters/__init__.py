"""Orrery inside the frameworks researchers already run: OpenSpiel, PettingZoo and Gymnasium (docs/adapters.md).

Each adapter is an optional extra (`pip install orrery[openspiel]`, `[pettingzoo]`, `[gymnasium]`) and builds on
the public game API only (`orrery.load_game`, its states and views); `actionspace` and `observe` are the shared
parts: one game-wide action space and the per-player observations, never showing what a player may not see.
"""
