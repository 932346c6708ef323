"""Allows `python -m wasplan` to behave exactly like the `wasplan` console script."""

from wasplan.cli.app import main

if __name__ == "__main__":
    main()
