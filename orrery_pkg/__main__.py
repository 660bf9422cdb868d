"""Allow `python -m orrery`."""

from orrery.interpreter.cli.main import main

raise SystemExit(main())
