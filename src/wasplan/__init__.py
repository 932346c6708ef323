"""wasplan: offline validation, migration and scheduling plans for Kubernetes workload-aware scheduling."""

__version__ = "0.1.0"
