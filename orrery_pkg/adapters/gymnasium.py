"""Gymnasium environments from Orrery specs (needs the `gymnasium` extra): see orrery.interpreter.adapters.gymnasium."""

from orrery.interpreter.adapters.gymnasium import *  # noqa: F401,F403
from orrery.interpreter.adapters.gymnasium import env  # noqa: F401
