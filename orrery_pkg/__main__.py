"""Allow `python -m orrery`."""

from orrery.interpreter.cli import main

raise SystemExit(main())
