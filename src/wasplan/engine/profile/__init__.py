"""What a run is made of: every modelled plugin described once (`registry.py`, the record the rest of the engine
derives from), the KubeSchedulerConfiguration profile (weights, disabled plugins, scoring strategy: `config.py`;
plugin names checked against the release's registry: `plugin_names.py`), the run's options (`options.py`:
release, gates, arrival mode) and Dynamic Resource Allocation set up for one simulation (`draworld.py`).
Upstream: pkg/scheduler/apis/config and framework/plugins/registry.go.
"""
