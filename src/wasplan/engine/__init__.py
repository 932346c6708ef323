"""The offline kube-scheduler.

`wasplan.engine.simulator.simulate(inputs, options)` replays kube-scheduler 1.36/1.37 over `PlanInputs` and returns
a `wasplan.plan.Plan`. The engine never prints and never reads files: it sees cluster records and the hub model.
"""
