"""`orrery serve`: a table in the browser, each seat on its own device seeing only its own view (docs/serve.md)."""
