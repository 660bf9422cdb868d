"""PettingZoo environments from Orrery specs (needs the `pettingzoo` extra): see orrery.interpreter.adapters.pettingzoo."""

from orrery.interpreter.adapters.pettingzoo import *  # noqa: F401,F403
from orrery.interpreter.adapters.pettingzoo import env  # noqa: F401
