"""Preemption in the plan (issue 6): kube-scheduler's DefaultPreemption PostFilter for single pods
(default.py), workload-aware preemption for PodGroups (workload.py), the victim search they share
(candidates.py), PodDisruptionBudgets (pdb.py), priorities and eligibility (policy.py), and the ledger that
carries evictions out and reports them (ledger.py). `driver.py` is the only module the scheduling cycles call.
"""
