"""The resumable engine: a position is plain data (state + a stack of frames), answering a decision continues it.

Pipeline inside: `core.suspends` (which statements may ask a player) -> `frames` (statements that may ask, as
resumable frames) -> `flowframe` (rounds, phases, turns and steps as one resumable frame) -> `position`
(state + stack, the run loop, clone) -> `driver` (the GameState API: menus, look-ahead, history).
"""
