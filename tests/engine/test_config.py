"""KubeSchedulerConfiguration profiles (kubescheduler.config.k8s.io/v1): plugin weights, disabled plugins,
NodeResourcesFit scoringStrategy. Defaults follow pkg/scheduler/apis/config/v1/default_plugins.go."""

import pytest
from builders import node, pod
from enginehelp import decide

from wasplan.engine.profile.config import ConfigError, Profile, profiles_from_config


def test_default_profile():
    p = profiles_from_config(None)["default-scheduler"]
    assert p.weight("TaintToleration") == 3 and p.weight("NodeAffinity") == 2 and p.weight("NodeResourcesFit") == 1
    assert p.fit_strategy.type == "LeastAllocated"


def test_profile_weights_disabled_plugins_and_strategy():
    doc = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
           "profiles": [{"schedulerName": "packer",
                         "plugins": {"score": {"disabled": [{"name": "NodeResourcesBalancedAllocation"}],
                                               "enabled": [{"name": "NodeResourcesFit", "weight": 5}]},
                                     "filter": {"disabled": [{"name": "TaintToleration"}]}},
                         "pluginConfig": [{"name": "NodeResourcesFit", "args": {"scoringStrategy": {
                             "type": "MostAllocated", "resources": [{"name": "cpu", "weight": 2},
                                                                   {"name": "nvidia.com/gpu", "weight": 3}]}}}]}]}
    p = profiles_from_config(doc)["packer"]
    assert p.weight("NodeResourcesBalancedAllocation") == 0 and p.weight("NodeResourcesFit") == 5
    assert not p.filter_on("TaintToleration") and p.filter_on("NodeAffinity")
    assert p.fit_strategy.type == "MostAllocated"
    assert p.fit_strategy.resources == (("cpu", 2), ("nvidia.com/gpu", 3))
    tainted = [node("a", taints=["x=y:NoSchedule"])]
    assert decide(tainted, pod("p"), profile=p)[0] == "a"
    assert decide(tainted, pod("p"), profile=Profile())[0] is None


def test_bad_strategy_is_an_error():
    doc = {"kind": "KubeSchedulerConfiguration",
           "profiles": [{"pluginConfig": [{"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "Nope"}}}]}]}
    with pytest.raises(ConfigError):
        profiles_from_config(doc)
    with pytest.raises(ConfigError):
        profiles_from_config({"kind": "Pod"})
