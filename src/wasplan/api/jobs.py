"""The one statement of 1.36's implicit gang rule for batch/v1 Jobs (the project's reference notes,
api-reference §6.3): a Job without `spec.scheduling` that is Indexed, with completions equal to a
parallelism above 1, is gang-scheduled with minCount = parallelism. 1.37 replaced it with the explicit
`spec.scheduling.schedulingPolicy`; the Job controller's integration (cluster/controllers/job.py) and migration's
notes (migrate/jobs.py) both ask this rule.
"""

from __future__ import annotations


def implicit_gang_size(indexed: bool, parallelism: int, completions: int | None) -> int | None:
    """The gang's minCount under the implicit rule, or None when the Job is not gang-scheduled by it."""
    return parallelism if indexed and parallelism > 1 and completions == parallelism else None
