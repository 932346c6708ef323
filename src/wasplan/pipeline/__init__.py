"""The use cases (validate, lint, migrate, plan, explain) as functions that return results and never print."""
