"""Leaves the way its argument says: run by tests/test_bad_inputs.py both as `python -m exit_probe` and forked
by tests/cliserver.py, whose children must leave as a fresh interpreter does."""

import atexit
import sys

atexit.register(lambda: print("atexit ran"))
print("started")  # (buffered: flushed at exit)
how = sys.argv[1]
if how == "exit-3":
    sys.exit(3)
if how == "exit-text":
    sys.exit("a message")
if how == "raise":
    raise ValueError("an uncaught error")
if how == "interrupt":
    raise KeyboardInterrupt
