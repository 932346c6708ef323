"""When a pod is tried again: the scheduling queue (`queue.py`: activeQ in PrioritySort order, the unschedulable
set, PreEnqueue-gated pods). Upstream: pkg/scheduler/backend/queue/scheduling_queue.go.
"""
