"""OpenSpiel games from Orrery specs (needs the `openspiel` extra): see orrery.interpreter.adapters.openspiel."""

from orrery.interpreter.adapters.openspiel import (  # noqa: F401
    OrreryOpenSpielGame, OrreryOpenSpielState, game_type, load_game, openspiel_name, register_bundled)
