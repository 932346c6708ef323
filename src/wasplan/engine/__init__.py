"""The offline kube-scheduler.

`wasplan.engine.simulator.simulate(inputs, options)` replays kube-scheduler 1.36/1.37 over `PlanInputs` and returns
a `wasplan.plan.Plan`. The engine never prints and never reads files: it sees cluster records and the hub model.

Its parts, lowest first, each a subpackage whose docstring says what it owns: `pluginapi` (what plugins are
written against), `queueing`, `cache` (cluster state), `dra` (the allocator and the claims), `plugins` (one module
per plugin), `profile` (the plugin record and the run's profile), `cycle` (the scheduling cycles), `preemption`
and `result` (the Plan). `simulator.py` replays the story; `facade.py` is what explain may use. docs/layers.md
gives the order, which tests/test_layers.py holds.
"""
