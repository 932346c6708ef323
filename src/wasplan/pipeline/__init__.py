"""The use cases (validate, migrate, plan, explain) as functions that return results and never print."""
