"""Which DeviceClass backs an extended resource (DRAExtendedResource, KEP-5004).

Follows `deviceclass/extendedresourcecache/extendedresourcecache.go` (k8s.io/dynamic-resource-allocation v0.36.0):
a class backs its `extendedResourceName`, and always the implicit `deviceclass.resource.kubernetes.io/<class>`.
When several classes name the same extended resource, the newest `creationTimestamp` wins and equal timestamps
go to the lower name (a class without a timestamp counts as the oldest). The implicit names cannot clash.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Iterable

from wasplan.cluster.devices import DeviceClass

IMPLICIT_PREFIX = "deviceclass.resource.kubernetes.io/"
_OLDEST = datetime.min.replace(tzinfo=timezone.utc)


def _created(cls: DeviceClass) -> datetime:
    if not cls.creation_timestamp:
        return _OLDEST
    try:
        return datetime.fromisoformat(cls.creation_timestamp.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return _OLDEST


def _wins(new: DeviceClass, current: DeviceClass) -> bool:
    a, b = _created(new), _created(current)
    return a > b or (a == b and new.name < current.name)


def extended_resource_classes(classes: Iterable[DeviceClass]) -> dict[str, DeviceClass]:
    """Extended resource name -> the DeviceClass that backs it (explicit names and the implicit ones)."""
    out: dict[str, DeviceClass] = {}
    explicit: dict[str, DeviceClass] = {}
    for cls in classes:
        out[IMPLICIT_PREFIX + cls.name] = cls
        name = cls.extended_resource_name
        if name is None:
            continue
        current = explicit.get(name)
        if current is None or _wins(cls, current):
            explicit[name] = cls
    out.update(explicit)
    return out
