"""The exact check's default time budget, in a module of its own: `plan` builds requests that carry it
(pipeline/requests.py) and must not import the check, its solver and explain's models to read one number (about
50 ms of a `plan` process's start-up, measured with `python -X importtime`)."""

DEFAULT_BUDGET = 5.0  # seconds per solver question
