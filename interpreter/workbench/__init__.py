"""The designer's workbench: balance reports, variant A/B comparisons, rule coverage and the search for a
balancing variant, built on the public game API and the seeded simulation (docs/workbench.md)."""
