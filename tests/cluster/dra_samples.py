"""DRA sample objects shared by the parse and the emit tests."""

FULL_SLICE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpu}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 3, resourceSliceCount: 2}
  nodeName: node-1
  devices:
  - name: gpu-0
    attributes:
      model: {string: a100}
      cores: {int: 108}
      mig: {bool: true}
      driverVersion: {version: 1.2.3}
    capacity:
      memory:
        value: 80Gi
        requestPolicy:
          default: 10Gi
          validRange: {min: 1Gi, max: 80Gi, step: 1Gi}
    consumesCounters:
    - counterSet: gpu-0-counters
      counters: {memory: {value: 80Gi}}
    taints: [{key: maintenance, value: "true", effect: NoExecute}]
    bindsToNode: true
    bindingConditions: [attached]
    bindingFailureConditions: [failed]
    allowMultipleAllocations: true
  sharedCounters:
  - name: gpu-0-counters
    counters: {memory: {value: 80Gi}}
"""

CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: train-gpus
  namespace: ml
  uid: "1234"
  annotations: {resource.kubernetes.io/pod-claim-name: gpus}
  ownerReferences: [{apiVersion: v1, kind: Pod, name: p, uid: "9", controller: true}]
  deletionTimestamp: "2026-01-02T03:04:05Z"
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu
        selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]
        allocationMode: ExactCount
        count: 2
        adminAccess: false
        tolerations: [{operator: Exists, key: maintenance, effect: NoSchedule, tolerationSeconds: 30}]
        capacity: {requests: {memory: 10Gi}}
    - name: nic
      firstAvailable:
      - {name: fast, deviceClassName: nic, allocationMode: All}
      - {name: slow, deviceClassName: nic, allocationMode: ExactCount, count: 1}
    constraints:
    - {requests: [gpus, nic/fast], matchAttribute: gpu.example.com/pcieRoot}
    - {distinctAttribute: gpu.example.com/numa}
    config:
    - {requests: [gpus], opaque: {driver: gpu.example.com, parameters: {a: 1}}}
status:
  allocation:
    devices:
      results:
      - {request: gpus, driver: gpu.example.com, pool: node-1, device: gpu-0, adminAccess: false,
         tolerations: [{operator: Exists, key: maintenance, effect: NoSchedule}], shareID: s1,
         consumedCapacity: {memory: 10Gi}, bindingConditions: [attached], bindingFailureConditions: [failed]}
      config:
      - {source: FromClass, requests: [gpus], opaque: {driver: gpu.example.com, parameters: {b: 2}}}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{key: metadata.name, operator: In, values: [node-1]}]
  reservedFor: [{apiGroup: scheduling.k8s.io, resource: podgroups, name: g, uid: "7"}]
"""
