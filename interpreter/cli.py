"""Placeholder CLI: replaced below."""


def main() -> int:
    return 0
