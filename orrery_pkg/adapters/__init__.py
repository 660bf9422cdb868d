"""`orrery.adapters.openspiel`, `.pettingzoo`, `.gymnasium`: the framework adapters (docs/adapters.md), which live
in `orrery.interpreter.adapters` beside the CLI; these names are their public home."""
