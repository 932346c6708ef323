"""What every plugin is written against: filter verdict codes and the messages kube-scheduler writes
(`status.py`), the parts a filter adds to explain's exact check (`exactrules.py`), the error a plugin argument
wasplan cannot use raises (`pluginargs.py`), and the matchers plugins share: label and node selectors
(`selectors.py`), tolerations (`tolerations.py`) and node label lookups (`labels.py`). Upstream:
pkg/scheduler/framework/interface.go (Status, Code) and component-helpers' matchers.

The lowest part of the engine: it imports no other part.
"""
