"""The long form of every diagnostic code: what it means, a failing and a passing example, how to fix it.

`wasplan rules` and docs/rules.md render this table; tests/test_rules_doc.py requires an entry for every code
of `codes.py` and runs each example whose `check` names a command through that command, proving the failing
example reports the code and the passing one does not. Kept apart from the code table so that the table stays
a one-screen index and a new code is one row there plus one entry here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleDoc:
    description: str
    bad: str  # a failing example: a manifest, or a command line and its input
    good: str  # the same, fixed
    fix: str
    # how the examples are proven: wasplan arguments to run each example through (on stdin), e.g.
    # ("validate",) or ("lint", "--k8s-version", "1.36"); empty where the example is not a manifest on its own
    check: tuple[str, ...] = ()


_PG = "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata:\n  name: trainers\n"
_WL = "apiVersion: scheduling.k8s.io/v1beta1\nkind: Workload\nmetadata:\n  name: train\n"
_POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: trainer-0\nspec:\n  schedulingGroup:\n"
        "    podGroupName: trainers\n  containers: [{name: main, image: trainer:1}]\n")
_GANG_PG = _PG + "spec:\n  schedulingPolicy:\n    gang: {minCount: 1}\n"
_V = ("validate",)
_V138 = ("validate", "--k8s-version", "1.38")
_L = ("lint",)
_KCFG = "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"


_SLICE = ("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: node-1-gpus\nspec:\n"
          "  driver: gpu.example.com\n  pool: {name: node-1, generation: 1, resourceSliceCount: 1}\n")


def _claim(requests: str, constraints: str = "") -> str:
    """A ResourceClaimTemplate: `requests` are the request list items written at 4 spaces (`    - name: ...`),
    `constraints` the constraint items likewise."""
    def indent(text: str) -> str:
        return "".join("  " + line + "\n" for line in text.splitlines())
    more = "      constraints:\n" + indent(constraints) if constraints else ""
    return ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: gpu\nspec:\n  spec:\n"
            "    devices:\n      requests:\n" + indent(requests) + more)


def _class(expression: str) -> str:
    return ("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.example.com\nspec:\n"
            f"  selectors:\n  - cel:\n      expression: \"{expression}\"\n")


_KQ = "apiVersion: kueue.x-k8s.io/v1beta2\n"


def _cq(name: str, spec: str) -> str:
    """A Kueue v1beta2 ClusterQueue named `name` whose spec lines (`spec`) follow `namespaceSelector: {}`."""
    return _KQ + f"kind: ClusterQueue\nmetadata: {{name: {name}}}\nspec:\n  namespaceSelector: {{}}\n" + spec


def _rg(flavor: str, resources: str) -> str:
    """One resource group covering cpu with one flavor; `resources` the cpu entry's extra fields."""
    return ("  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
            f"    - name: {flavor}\n      resources:\n      - {{name: cpu, nominalQuota: 8{resources}}}\n")


def _kobj(kind: str, name: str, rest: str = "", namespace: str | None = None) -> str:
    ns = f", namespace: {namespace}" if namespace else ""
    return _KQ + f"kind: {kind}\nmetadata: {{name: {name}{ns}}}\n" + rest


def _pg(spec: str) -> str:
    return _PG + "spec:\n" + spec


def _wl(spec: str) -> str:
    return _WL + "spec:\n" + spec


def _job(scheduling: str, parallelism: int = 4, pod_extra: str = "") -> str:
    return ("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\nspec:\n"
            f"  parallelism: {parallelism}\n  completions: 4\n  completionMode: Indexed\n{scheduling}"
            "  template:\n    spec:\n      restartPolicy: Never\n" + pod_extra +
            "      containers: [{name: main, image: trainer:1}]\n")


def _cpg(name: str, parent: str | None = None, workload: str = "pipeline") -> str:
    """A CompositePodGroup of Workload `workload`, under `parent` when given."""
    up = f"  parentCompositePodGroupName: {parent}\n" if parent else ""
    return (f"apiVersion: scheduling.k8s.io/v1alpha3\nkind: CompositePodGroup\nmetadata: {{name: {name}}}\nspec:\n{up}"
            f"  workloadRef: {{workloadName: {workload}, templateName: {name}}}\n  schedulingPolicy: {{basic: {{}}}}\n")


def _child(parent: str) -> str:
    return (f"apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {{name: ranks}}\nspec:\n"
            f"  parentCompositePodGroupName: {parent}\n  workloadRef: {{workloadName: pipeline, templateName: ranks}}\n"
            "  schedulingPolicy: {gang: {minCount: 1}}\n")


_TEMPLATE_PREEMPT = ("  podGroupTemplates:\n  - name: main\n    schedulingPolicy: {gang: {minCount: 3}}\n"
                     "    preemptionPolicy: PreemptLowerPriority\n    priorityClassName: batch-low\n")
_TWO_PRIORITIES = ("  podGroupTemplates:\n  - name: driver\n    schedulingPolicy: {basic: {}}\n    priorityClassName: high\n"
                   "  - name: executors\n    schedulingPolicy: {gang: {minCount: 10}}\n    priorityClassName: low\n")
_V1ALPHA2_PG = ("apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup\nmetadata:\n  name: typo\nspec:\n"
                "  schedulingPolicy:\n    gang: {{minCount: 2}}\n  disruptionMode: {mode}\n")
_COMPOSITE_WL = ("apiVersion: scheduling.k8s.io/v1alpha3\nkind: Workload\nmetadata:\n  name: pipeline\nspec:\n"
                 "  compositePodGroupTemplates:\n  - name: region\n    schedulingPolicy: {basic: {}}\n")


def _rct(name: str, exactly: str, namespace: str = "ml") -> str:
    """A ResourceClaimTemplate with one request `gpus` whose `exactly` is the flow mapping `exactly`."""
    return (f"apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {{name: {name}, namespace: "
            f"{namespace}}}\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpus\n"
            f"        exactly: {exactly}\n")


def _dra_pod(claims: str, uses: str = "[{name: gpus}]", group: str = "") -> str:
    """A Pod in namespace ml with `resourceClaims` and one container using `uses`."""
    joined = f"  schedulingGroup: {{podGroupName: {group}}}\n" if group else ""
    return ("apiVersion: v1\nkind: Pod\nmetadata: {name: worker-0, namespace: ml}\nspec:\n" + joined
            + f"  resourceClaims: {claims}\n  containers:\n  - name: main\n    image: trainer:1\n"
            f"    resources: {{claims: {uses}}}\n")


def _group_with(claims: str) -> str:
    return ("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: train, namespace: ml}\n"
            f"spec:\n  schedulingPolicy: {{basic: {{}}}}\n  resourceClaims: {claims}\n")


def _group_ref(claims: str) -> str:
    """A PodGroup of Workload `train`, template `workers`, with `claims`."""
    return ("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: train-0, namespace: ml}\n"
            "spec:\n  workloadRef: {workloadName: train, templateName: workers}\n  schedulingPolicy: {basic: {}}\n"
            f"  resourceClaims: {claims}\n")


_WL_CLAIMS = ("apiVersion: scheduling.k8s.io/v1beta1\nkind: Workload\nmetadata: {name: train, namespace: ml}\n"
              "spec:\n  podGroupTemplates:\n  - name: workers\n    schedulingPolicy: {basic: {}}\n"
              "    resourceClaims: [{name: fabric, resourceClaimTemplateName: rack-fabric}]\n")
_GPU_CLASS = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n"
_FOUR = _rct("four-gpus", "{deviceClassName: gpu.example.com, count: 4}")
_GROUP_GATES = ("lint", "--feature-gates", "DRAWorkloadResourceClaims=true")
_DRA_LAB = ("lint", "--cluster", "fixtures/rules/dra-cluster.yaml")


DOCS: dict[str, RuleDoc] = {
    # --- WAS0xx: reading -------------------------------------------------------------------------
    "WAS001": RuleDoc(
        "A path given on the command line does not exist or cannot be read (permissions, a broken link). Nothing "
        "can be said about the manifests, so the run exits 2.",
        "wasplan validate manifests/trainng.yaml", "wasplan validate manifests/training.yaml",
        "Check the path's spelling and that the file is readable by the user running wasplan."),
    "WAS002": RuleDoc(
        "The file contains NUL bytes: it is a binary (an image, an archive, a compiled file) that happens to "
        "end in .yaml, .yml or .json.",
        "wasplan validate dist/  # dist/bundle.yaml is a gzip archive", "wasplan validate manifests/",
        "Keep binaries out of the run with `--exclude 'dist/'` (or `exclude` in .wasplan.yaml)."),
    "WAS003": RuleDoc(
        "The file is not UTF-8 (often Latin-1 or UTF-16 written by an editor on Windows). The API server only "
        "accepts UTF-8.",
        "wasplan validate legacy.yaml  # saved as UTF-16", "iconv -f UTF-16 -t UTF-8 legacy.yaml > fixed.yaml",
        "Re-encode the file as UTF-8 (without a byte-order mark, although one is tolerated)."),
    "WAS004": RuleDoc(
        "The YAML or JSON could not be parsed: an unclosed bracket or quote, a tab for indentation, or an "
        "indentation mistake. Everything after the error in that file is unread.",
        _PG + "spec: {schedulingPolicy: {gang: {minCount: 2}}\n", _PG + "spec: {schedulingPolicy: {gang: {minCount: 2}}}\n",
        "Fix the syntax at the line and column shown; the message says what the parser expected.", _V),
    "WAS005": RuleDoc(
        "A mapping repeats a key. YAML parsers disagree on what that means (the API server rejects it in strict "
        "mode, kubectl keeps the last value), so the earlier value is silently lost.",
        _pg("  schedulingPolicy:\n    gang: {minCount: 2}\n  schedulingPolicy:\n    basic: {}\n"),
        _pg("  schedulingPolicy:\n    gang: {minCount: 2}\n"),
        "Keep one of the two keys; merge their contents if both halves were meant.", _V),
    "WAS006": RuleDoc(
        "A document is a list or a scalar where a Kubernetes object (a mapping with apiVersion and kind) "
        "belongs.",
        "- apiVersion: v1\n  kind: Namespace\n  metadata: {name: ml}\n",
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: ml}\n",
        "Write one object per document (separated by `---`), or wrap the objects in `kind: List` with `items:`.", _V),
    "WAS007": RuleDoc(
        "A document has only one of apiVersion and kind, so it looks like a Kubernetes object but cannot be one. "
        "(A document with neither is not a Kubernetes object at all: see WAS030.)",
        "kind: PodGroup\nmetadata:\n  name: trainers\nspec:\n  schedulingPolicy:\n    gang: {minCount: 2}\n",
        _pg("  schedulingPolicy:\n    gang: {minCount: 2}\n"),
        "Add the missing apiVersion or kind.", _V),
    "WAS008": RuleDoc(
        "With `--strict-inputs`, a file with template directives (`{{ .Values.x }}`) is an error: it is not a "
        "manifest until a template engine has rendered it. Without the flag it is skipped (WAS031).",
        "# wasplan validate --strict-inputs chart/templates/\n" + _pg("  schedulingPolicy:\n    gang: {minCount: {{ .Values.replicas }}}\n"),
        _pg("  schedulingPolicy:\n    gang: {minCount: 4}\n"),
        "Render the chart and validate the output: `helm template chart/ | wasplan validate -`; or exclude "
        "the templates folder.", ("validate", "--strict-inputs")),
    "WAS009": RuleDoc(
        "The paths hold no *.yaml, *.yml or *.json file (after hidden entries, node_modules and --exclude "
        "patterns are left out), so there was nothing to check. Exit code 2.",
        "wasplan validate charts/ --exclude 'charts/'", "wasplan validate manifests/",
        "Point wasplan at the folder that holds the manifests, or loosen --exclude."),
    "WAS010": RuleDoc(
        "No schema is known for the object's apiVersion and kind (a custom resource, a kustomization), so it "
        "was read but not validated. Information only.",
        "apiVersion: example.com/v1\nkind: TrainingRun\nmetadata:\n  name: run-1\n",
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ml\n",
        "Nothing to fix. Silence it for such files with `per-file-ignores` (e.g. `kustomization.yaml: [WAS010]`).", _V),
    "WAS011": RuleDoc(
        "An output wasplan was asked to write could not be written: the --emit-snapshot file (missing "
        "directory, full device), an --in-place target without write permission, or the --export directory. "
        "Nothing is half-written; exit code 2.",
        "wasplan plan manifests/ --cluster cluster.yaml --emit-snapshot out/after.yaml   # out/ does not exist",
        "mkdir -p out && wasplan plan manifests/ --cluster cluster.yaml --emit-snapshot out/after.yaml",
        "Create the directory, free the device, or make the file writable."),
    "WAS012": RuleDoc(
        "An input is over a size limit: one object over 3 MiB (the API server's request "
        "limit), or more than 100,000 documents in one file (a file's own size is not limited). The object (or the rest of the file) is not read; "
        "a JSON List loses only the items at fault.",
        "a 4 MiB ConfigMap in manifests/big.yaml", "split the data, or keep such files out with --exclude",
        "Split the input; the API server would refuse an object this large anyway."),
    "WAS013": RuleDoc(
        "A document nests mappings and lists more than 100 levels deep. No Kubernetes object comes close; deep "
        "nesting is how hostile input exhausts parsers, so the document is not read.",
        _pg("  schedulingPolicy: " + "[" * 101 + "]" * 101 + "\n"),
        _pg("  schedulingPolicy:\n    gang: {minCount: 2}\n"),
        "Fix the generator that produced the document.", _V),
    "WAS014": RuleDoc(
        "YAML aliases are used more than 1,000 times in a document, or expand to more than 1,000,000 nodes "
        "(a \"billion laughs\" bomb). The document is not read.",
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8)),
        _pg("  labels: &l {app: train}\n  annotations: *l\n"),
        "Write the repeated values out, or use fewer aliases.", _V),
    "WAS015": RuleDoc(
        "A YAML tag other than the plain-data ones (str, int, float, bool, null, map, seq) is used: `!!binary`, "
        "`!!python/object`, `!!set`, a custom `!tag`. wasplan constructs nothing but plain data, and the API "
        "server's YAML-to-JSON step has no such types either. Also a core tag that cannot hold its value "
        "(`!!int abc`).",
        _pg("  schedulingPolicy: !!binary Z2FuZw==\n"), _pg("  schedulingPolicy:\n    gang: {minCount: 2}\n"),
        "Write the value as plain YAML (quote it if it must be a string).", _V),
    "WAS016": RuleDoc(
        "A path given on the command line is a FIFO, socket, device, dangling symlink or symlink loop. Only "
        "regular files are read (a FIFO would block forever, /dev/zero never ends); exit code 2.",
        "wasplan validate /dev/stdin", "wasplan validate -   # stdin",
        "Pass a regular file, or `-` to read stdin."),
    "WAS017": RuleDoc(
        "A directory walk passed over an entry that is not a regular file (a FIFO, socket, device, dangling "
        "symlink or a link to one). Information only; the other files are read.",
        "manifests/pipe.yaml is a FIFO", "manifests/ holds regular files only",
        "Nothing to fix; remove the entry or keep it out with --exclude to silence the note."),
    "WAS030": RuleDoc(
        "A YAML document has neither apiVersion nor kind (Helm values, docker-compose files, CI workflows), or "
        "is a Helm Chart.yaml (apiVersion v2, no kind): such files live next to manifests in real repositories. "
        "It is skipped and counted, not validated.",
        "replicaCount: 2\nimage:\n  repository: ghcr.io/example/trainer\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: trainer\ndata:\n  replicaCount: \"2\"\n",
        "Nothing to fix. Keep such files out of the run with `--exclude` to silence the note, or use "
        "`--strict-inputs` in repositories that hold only manifests (then it is WAS007).", _V),
    "WAS031": RuleDoc(
        "The file contains template directives (Helm/Go templates), so it is skipped: validating it before it "
        "is rendered would report the template syntax, not the manifest. `migrate` leaves it untouched.",
        _pg("  schedulingPolicy:\n    gang: {minCount: {{ .Values.replicas }}}\n"),
        _pg("  schedulingPolicy:\n    gang: {minCount: 4}\n"),
        "Validate the rendered output instead: `helm template chart/ | wasplan validate -`.", _V),
    "WAS032": RuleDoc(
        "A `# wasplan: ignore` comment or a wasplan.io/ignore annotation suppresses none of the findings of "
        "this run. Stale suppressions hide future problems, so they are reported. Codes a run cannot produce "
        "(lint codes under `validate`, codes outside `--select`) are not called stale.",
        _pg("  schedulingPolicy:\n    gang: {minCount: 2}  # wasplan: ignore=WAS105\n"),
        _pg("  schedulingPolicy:\n    gang: {minCount: 2}\n"),
        "Remove the comment or annotation, or the codes in it that no longer occur.", _V),
    "WAS033": RuleDoc(
        "A kustomization (`kustomization.yaml`, `kustomization.yml` or `Kustomization`) among the inputs, or "
        "beside an input file, lists this file under `patches`, `patchesStrategicMerge` or `patchesJson6902`. A "
        "patch holds only the fields it changes (or, for JSON 6902, a list of operations), so checked as an "
        "object it would report the fields its base supplies. It is skipped and counted, also with "
        "`--strict-inputs`; what kustomize builds from it is what to check.",
        "# overlays/prod/kustomization.yaml\nresources: [../../base]\npatches:\n- path: replicas.yaml\n"
        "# overlays/prod/replicas.yaml (skipped)\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n"
        "spec:\n  parallelism: 8\n",
        "kubectl kustomize overlays/prod | wasplan validate -",
        "Validate the built overlay: `kubectl kustomize overlays/prod | wasplan validate -` (the hint names "
        "the kustomization's directory)."),
    # --- WAS1xx: schema and release --------------------------------------------------------------
    "WAS034": RuleDoc(
        "`plan` or `explain` was given a kustomization whose build differs from its files read as they are: it "
        "names a resource that is not among the inputs (a base directory such as `../base`, a remote base, a file "
        "left out) or a field that transforms or generates objects (namePrefix, namespace, labels, patches, "
        "images, replicas, generators, components, helmCharts, replacements, ...). wasplan does not build "
        "kustomizations, and planning the files as they are would plan objects kustomize never emits, so nothing "
        "is planned (exit 2). A kustomization that only lists input files as resources is read through.",
        "# overlays/prod/kustomization.yaml\nresources:\n- ../../base\npatches:\n- path: parallelism.yaml\n",
        "# kubectl kustomize overlays/prod | wasplan plan - --cluster cluster.yaml\n",
        "Build the overlay and plan its output: `kubectl kustomize DIR | wasplan plan -` (the hint names DIR)."),
    "WAS101": RuleDoc(
        "The field does not exist in this API version. The API server's strict field validation rejects it; "
        "with lenient validation it is dropped silently, which is worse. Fields copied from blog posts and "
        "drafts (`spec.minMatch`, `spec.totalPods`) get a hint naming the real field.",
        _pg("  minMatch: 4\n  schedulingPolicy:\n    gang: {minCount: 4}\n"),
        _pg("  schedulingPolicy:\n    gang: {minCount: 4}\n"),
        "Remove the field or use the one the hint names; `wasplan schema PodGroup` prints the fields.", _V),
    "WAS102": RuleDoc(
        "A required field is missing, e.g. a PodGroup without spec.schedulingPolicy.",
        _pg("  priority: 10\n"), _pg("  priority: 10\n  schedulingPolicy:\n    basic: {}\n"),
        "Add the field; the message names it and its parent.", _V),
    "WAS103": RuleDoc(
        "The value has the wrong JSON type: a string where a number belongs (often a quoted number), an object "
        "where a list belongs.",
        _pg("  schedulingPolicy:\n    gang: {minCount: \"4\"}\n"), _pg("  schedulingPolicy:\n    gang: {minCount: 4}\n"),
        "Write the value with the type the message names (no quotes around numbers).", _V),
    "WAS104": RuleDoc(
        "The value is not one of the allowed values of an enum field.",
        _pg("  preemptionPolicy: Always\n  schedulingPolicy:\n    basic: {}\n"),
        _pg("  preemptionPolicy: Never\n  schedulingPolicy:\n    basic: {}\n"),
        "Use one of the values the message lists (they are case-sensitive).", _V),
    "WAS105": RuleDoc(
        "The number is outside the allowed range, e.g. a gang minCount of 0 or a priority above 1000000000.",
        _pg("  schedulingPolicy:\n    gang: {minCount: 0}\n"), _pg("  schedulingPolicy:\n    gang: {minCount: 1}\n"),
        "Use a value inside the range the message states.", _V),
    "WAS106": RuleDoc(
        "The list has more items than the API allows (e.g. one topology constraint, eight templates).",
        _pg("  schedulingPolicy:\n    gang: {minCount: 2}\n  schedulingConstraints:\n    topology:\n"
            "    - key: topology.kubernetes.io/rack\n    - key: topology.kubernetes.io/zone\n"),
        _pg("  schedulingPolicy:\n    gang: {minCount: 2}\n  schedulingConstraints:\n    topology:\n"
            "    - key: topology.kubernetes.io/rack\n"),
        "Keep at most the number of items the message states.", _V),
    "WAS107": RuleDoc(
        "The string does not have the required format: object names and template names are DNS labels or "
        "subdomains (lower case, digits, `-`), label keys have their own syntax.",
        _pg("  workloadRef: {workloadName: train, templateName: Trainers_1}\n  schedulingPolicy:\n    basic: {}\n"),
        _pg("  workloadRef: {workloadName: train, templateName: trainers-1}\n  schedulingPolicy:\n    basic: {}\n"),
        "Rename to lower case letters, digits and `-` (and `.` where a subdomain is allowed).", _V),
    "WAS108": RuleDoc(
        "Exactly one member of a union must be set: a scheduling policy is either `basic` or `gang`, a "
        "disruption mode either `single` or `all`.",
        _pg("  schedulingPolicy:\n    basic: {}\n    gang: {minCount: 2}\n"), _pg("  schedulingPolicy:\n    gang: {minCount: 2}\n"),
        "Keep the member you mean and delete the other.", _V),
    "WAS109": RuleDoc(
        "The chosen Kubernetes release does not serve this apiVersion (e.g. scheduling.k8s.io/v1alpha1 "
        "Workload in 1.37, or a built-in version the release no longer has: batch/v1beta1 CronJob, "
        "policy/v1beta1 PodDisruptionBudget, resource.k8s.io/v1alpha2). The API server refuses the object; the "
        "message names the versions that serve the kind. `wasplan migrate` rewrites the scheduling.k8s.io "
        "kinds; a built-in kind is rewritten by hand (its fields may differ between versions, which validate "
        "then reports).",
        "apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata:\n  name: train\nspec:\n  podGroups:\n"
        "  - name: workers\n    policy:\n      gang: {minCount: 2}\n",
        _wl("  podGroupTemplates:\n  - name: workers\n    schedulingPolicy:\n      gang: {minCount: 2}\n"),
        "Run `wasplan migrate --to-k8s 1.37 FILE -i` (scheduling.k8s.io kinds), write the version the message "
        "names (built-in kinds), or choose the release your cluster runs with --k8s-version.", _V),
    "WAS110": RuleDoc(
        "The object violates a schema rule that has no more specific code (a constraint between fields, a "
        "rule inside `anyOf`). The message quotes the rule.",
        _WL + "spec:\n  compositePodGroupTemplates:\n  - name: region\n"
        "    schedulingPolicy: {basic: {}}\n    podGroupTemplates: []\n",
        _WL + "spec:\n  compositePodGroupTemplates:\n  - name: region\n    schedulingPolicy: {basic: {}}\n"
        "    podGroupTemplates:\n    - name: ranks\n      schedulingPolicy: {gang: {minCount: 2}}\n",
        "Follow the rule the message quotes (here: a composite template needs at least one child template).", _V),
    "WAS111": RuleDoc(
        "A list that must not be empty is empty (a schema `minItems` outside the unions WAS108 reports).",
        "# a list field declared with minItems: 1, written as []",
        "# the same field with one item",
        "Add at least one item, or leave the field out where it is optional."),
    "WAS112": RuleDoc(
        "A number is out of range for any Kubernetes field: an integer beyond int64, or a float that is not "
        "finite (`.inf`, `.nan`), which JSON cannot carry. (A number within int64 but beyond an int32 field is "
        "WAS105.)",
        _pg("  schedulingPolicy:\n    gang: {minCount: 99999999999999999999}\n"),
        _pg("  schedulingPolicy:\n    gang: {minCount: 4}\n"),
        "Write a number the field can hold.", _V),
    "WAS113": RuleDoc(
        "The group/version is served by the release, but not with this kind: 1.37 serves CompositePodGroup "
        "only as scheduling.k8s.io/v1alpha3, not v1beta1, and resource.k8s.io/v1alpha3 holds only "
        "DeviceTaintRule and ResourcePoolStatusRequest since ResourceClaim moved to v1. The API server answers "
        "404; the message names the versions that serve the kind. A kind that no version of a group without a "
        "dot in its name holds (`apps/v1` `Deploymnet`, `v1` `Pdo`) is reported too, with the closest kind: a "
        "CustomResourceDefinition's group needs a dot, so nothing can add kinds to the core group, `apps`, "
        "`batch`, `policy` or `autoscaling` (a kubeconfig, `v1` `Config`, is passed over).",
        "apiVersion: scheduling.k8s.io/v1beta1\nkind: CompositePodGroup\nmetadata:\n  name: tree\nspec:\n"
        "  schedulingPolicy:\n    gang: {minGroupCount: 2}\n",
        "apiVersion: scheduling.k8s.io/v1alpha3\nkind: CompositePodGroup\nmetadata:\n  name: tree\nspec:\n"
        "  schedulingPolicy:\n    gang: {minGroupCount: 2}\n",
        "Use a version the message names (`wasplan migrate` rewrites it).", _V),
    "WAS114": RuleDoc(
        "migrate: a document that needs no migration is still invalid at the target release (for example the "
        "1.37 documentation's Job example with `schedulingConstraints.key`), so `migrate --check` fails instead "
        "of passing a file the target rejects; the summary counts such files.",
        "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train}\nspec:\n  parallelism: 2\n  completions: 2\n"
        "  completionMode: Indexed\n  scheduling:\n    schedulingPolicy: {gang: {}}\n    schedulingConstraints:\n"
        "      key: topology.kubernetes.io/rack\n  template:\n    spec:\n      restartPolicy: Never\n"
        "      containers: [{name: c, image: trainer:1}]\n",
        "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train}\nspec:\n  parallelism: 2\n  completions: 2\n"
        "  completionMode: Indexed\n  scheduling:\n    schedulingPolicy: {gang: {}}\n    schedulingConstraints:\n"
        "      topology: [{key: topology.kubernetes.io/rack}]\n  template:\n    spec:\n      restartPolicy: Never\n"
        "      containers: [{name: c, image: trainer:1}]\n",
        "Fix the document as the finding (and its hint) says; `wasplan validate` reports the same.",
        ("migrate", "--check")),
    "WAS115": RuleDoc(
        "The scheduling.k8s.io version does not exist in any Kubernetes release (the workload kinds were "
        "v1alpha1 in 1.35, v1alpha2 in 1.36, v1alpha3 and v1beta1 in 1.37), so there is nothing to migrate "
        "from; the hint names the served version nearest to what was written (v1beta2 -> v1beta1).",
        _PG.replace("v1beta1", "v1beta2") + "spec:\n  schedulingPolicy:\n    gang: {minCount: 2}\n",
        _PG + "spec:\n  schedulingPolicy:\n    gang: {minCount: 2}\n",
        "Write the version the hint names (the fields of the 1.37 versions are the same).", _V),
    # --- WAS2xx: server-side rules ---------------------------------------------------------------
    "WAS201": RuleDoc(
        "Template names are a map key: within a Workload (in 1.37 across the whole template tree, composites "
        "included) each name must be unique, or PodGroups could not say which template they follow.",
        _wl("  podGroupTemplates:\n  - name: workers\n    schedulingPolicy: {basic: {}}\n"
            "  - name: workers\n    schedulingPolicy: {gang: {minCount: 2}}\n"),
        _wl("  podGroupTemplates:\n  - name: workers\n    schedulingPolicy: {basic: {}}\n"
            "  - name: leaders\n    schedulingPolicy: {gang: {minCount: 2}}\n"),
        "Rename one of the templates (and the PodGroups' workloadRef.templateName that refer to it).", _V),
    "WAS202": RuleDoc(
        "A list keyed by a field repeats a key: two resource claims with the same name, two conditions of the "
        "same type, two claim statuses of the same name.",
        _pg("  schedulingPolicy: {basic: {}}\n  resourceClaims:\n  - {name: gpu, resourceClaimName: a}\n"
            "  - {name: gpu, resourceClaimName: b}\n"),
        _pg("  schedulingPolicy: {basic: {}}\n  resourceClaims:\n  - {name: gpu-a, resourceClaimName: a}\n"
            "  - {name: gpu-b, resourceClaimName: b}\n"),
        "Give every entry its own key.", _V),
    "WAS203": RuleDoc(
        "A status.resourceClaimStatuses entry names a claim that spec.resourceClaims does not have; the API "
        "server rejects the status update.",
        _pg("  schedulingPolicy: {basic: {}}\n  resourceClaims:\n  - {name: gpu, resourceClaimName: a}\n"
            "status:\n  resourceClaimStatuses:\n  - {name: nic, resourceClaimName: a}\n"),
        _pg("  schedulingPolicy: {basic: {}}\n  resourceClaims:\n  - {name: gpu, resourceClaimName: a}\n"
            "status:\n  resourceClaimStatuses:\n  - {name: gpu, resourceClaimName: a}\n"),
        "Name a claim of spec.resourceClaims, or drop the status (status is written by controllers).", _V),
    "WAS204": RuleDoc(
        "A 1.37 Workload's template tree is at most 4 levels deep, counting the leaf PodGroupTemplate level.",
        _COMPOSITE_WL + "    compositePodGroupTemplates:\n    - name: zone\n      schedulingPolicy: {basic: {}}\n"
        "      compositePodGroupTemplates:\n      - name: rack\n        schedulingPolicy: {basic: {}}\n"
        "        compositePodGroupTemplates:\n        - name: host\n          schedulingPolicy: {basic: {}}\n"
        "          podGroupTemplates:\n          - name: ranks\n            schedulingPolicy: {gang: {minCount: 2}}\n",
        _COMPOSITE_WL + "    compositePodGroupTemplates:\n    - name: zone\n      schedulingPolicy: {basic: {}}\n"
        "      compositePodGroupTemplates:\n      - name: rack\n        schedulingPolicy: {basic: {}}\n"
        "        podGroupTemplates:\n        - name: ranks\n          schedulingPolicy: {gang: {minCount: 2}}\n",
        "Flatten the tree: merge a level into its parent.", _V),
    "WAS205": RuleDoc(
        "A CompositePodGroupTemplate must hold podGroupTemplates or compositePodGroupTemplates; an empty one "
        "groups nothing.",
        _COMPOSITE_WL, _COMPOSITE_WL + "    podGroupTemplates:\n    - name: ranks\n      schedulingPolicy: {gang: {minCount: 2}}\n",
        "Add the templates the composite groups, or delete it.", _V),
    "WAS206": RuleDoc(
        "In 1.37 all templates of one Workload carry the same priorityClassName and priority, and in 1.38 the "
        "same preemptionPolicy too; the API server rejects a Workload that mixes them.",
        _wl("  podGroupTemplates:\n  - name: workers\n    priorityClassName: high\n    schedulingPolicy: {basic: {}}\n"
            "  - name: leaders\n    priorityClassName: low\n    schedulingPolicy: {basic: {}}\n"),
        _wl("  podGroupTemplates:\n  - name: workers\n    priorityClassName: high\n    schedulingPolicy: {basic: {}}\n"
            "  - name: leaders\n    priorityClassName: high\n    schedulingPolicy: {basic: {}}\n"),
        "Give every template the same priority class (or split the Workload in two).", _V),
    "WAS207": RuleDoc(
        "disruptionMode all on a basic policy: the API accepts it through 1.37, but a basic group is not a gang, "
        "so disrupting one pod evicting all of them is rarely what was meant (1.38 rejects it: WAS260).",
        _pg("  schedulingPolicy: {basic: {}}\n  disruptionMode: {all: {}}\n"),
        _pg("  schedulingPolicy: {gang: {minCount: 2}}\n  disruptionMode: {all: {}}\n"),
        "Use a gang policy, or disruptionMode single.", _V),
    "WAS208": RuleDoc(
        "parentCompositePodGroupName is set without workloadRef: a PodGroup in a composite hierarchy belongs to "
        "a Workload (KEP-6012), and the 1.37 API server rejects the PodGroup without one.",
        _pg("  parentCompositePodGroupName: region\n  schedulingPolicy: {gang: {minCount: 2}}\n"),
        _pg("  parentCompositePodGroupName: region\n  workloadRef: {workloadName: pipeline, templateName: ranks}\n"
            "  schedulingPolicy: {gang: {minCount: 2}}\n"),
        "Add workloadRef naming the Workload and template the group comes from.", _V),
    "WAS209": RuleDoc(
        "A Job's spec.scheduling gang minCount is greater than spec.parallelism: the Job never runs that many "
        "pods at once, so the gang could never start. The Job API rejects it.",
        _job("  scheduling:\n    schedulingPolicy:\n      gang: {minCount: 8}\n"),
        _job("  scheduling:\n    schedulingPolicy:\n      gang: {minCount: 4}\n"),
        "Lower minCount to at most parallelism (or leave it out: it defaults to parallelism).", _V),
    "WAS210": RuleDoc(
        "A Job's spec.scheduling asks for disruptionMode all with a basic policy, which the Job API rejects: "
        "only a gang can be disrupted as a whole.",
        _job("  scheduling:\n    schedulingPolicy:\n      basic: {}\n    disruptionMode: {all: {}}\n"),
        _job("  scheduling:\n    schedulingPolicy:\n      gang: {}\n    disruptionMode: {all: {}}\n"),
        "Use a gang policy, or drop disruptionMode.", _V),
    "WAS211": RuleDoc(
        "A Job's spec.scheduling is ignored because its pod template already names a PodGroup through "
        "schedulingGroup: the 1.37 Job controller does not create a Workload then (1.38 rejects the Job: WAS263).",
        _job("  scheduling:\n    schedulingPolicy:\n      gang: {}\n",
             pod_extra="      schedulingGroup: {podGroupName: trainers}\n"),
        _job("  scheduling:\n    schedulingPolicy:\n      gang: {}\n"),
        "Keep one of the two: spec.scheduling (the controller makes the group) or schedulingGroup (you do).", _V),
    "WAS260": RuleDoc(
        "Kubernetes 1.38 refuses disruptionMode all on a PodGroup, a CompositePodGroup or a Workload template whose "
        "scheduling policy is not gang (1.37 accepted it, and wasplan warned with WAS207): only a gang is "
        "disrupted as one unit.",
        _pg("  schedulingPolicy: {basic: {}}\n  disruptionMode: {all: {}}\n"),
        _pg("  schedulingPolicy: {gang: {minCount: 2}}\n  disruptionMode: {all: {}}\n"),
        "Use a gang policy, or disruptionMode single.", _V138),
    "WAS261": RuleDoc(
        "Kubernetes 1.38 requires every child of a gang CompositePodGroupTemplate (pod group templates and "
        "composite templates alike) to be a gang too.",
        _wl("  compositePodGroupTemplates:\n  - name: replicas\n    schedulingPolicy: {gang: {minGroupCount: 2}}\n"
            "    podGroupTemplates:\n    - name: workers\n      schedulingPolicy: {basic: {}}\n"),
        _wl("  compositePodGroupTemplates:\n  - name: replicas\n    schedulingPolicy: {gang: {minGroupCount: 2}}\n"
            "    podGroupTemplates:\n    - name: workers\n      schedulingPolicy: {gang: {minCount: 4}}\n"),
        "Make the child a gang, or make the parent basic.", _V138),
    "WAS262": RuleDoc(
        "Kubernetes 1.38 requires every child of a CompositePodGroupTemplate with disruptionMode all to use "
        "disruptionMode all too.",
        _wl("  compositePodGroupTemplates:\n  - name: replicas\n    schedulingPolicy: {gang: {minGroupCount: 2}}\n"
            "    disruptionMode: {all: {}}\n    podGroupTemplates:\n    - name: workers\n"
            "      schedulingPolicy: {gang: {minCount: 4}}\n"),
        _wl("  compositePodGroupTemplates:\n  - name: replicas\n    schedulingPolicy: {gang: {minGroupCount: 2}}\n"
            "    disruptionMode: {all: {}}\n    podGroupTemplates:\n    - name: workers\n"
            "      schedulingPolicy: {gang: {minCount: 4}}\n      disruptionMode: {all: {}}\n"),
        "Give the child disruptionMode all, or drop it from the parent.", _V138),
    "WAS263": RuleDoc(
        "A Job with spec.scheduling whose pod template also names a PodGroup (schedulingGroup): 1.37 ignored "
        "spec.scheduling (WAS211), the 1.38 Job API rejects the Job.",
        _job("  scheduling:\n    schedulingPolicy:\n      gang: {}\n",
             pod_extra="      schedulingGroup: {podGroupName: trainers}\n"),
        _job("  scheduling:\n    schedulingPolicy:\n      gang: {}\n"),
        "Keep one of the two: spec.scheduling (the controller makes the group) or schedulingGroup (you do).",
        _V138),
    "WAS264": RuleDoc(
        "A Job with spec.scheduling that also carries scheduling.k8s.io/workload-name or "
        "scheduling.k8s.io/group-template-name: those annotations delegate its PodGroup to another Workload's "
        "template, and the 1.38 Job API rejects the two together.",
        _job("  scheduling:\n    schedulingPolicy:\n      gang: {}\n").replace(
            "  name: train\n", "  name: train\n  annotations:\n    scheduling.k8s.io/workload-name: pipeline\n"
            "    scheduling.k8s.io/group-template-name: workers\n"),
        _job("").replace("  name: train\n", "  name: train\n  annotations:\n    scheduling.k8s.io/workload-name: "
                         "pipeline\n    scheduling.k8s.io/group-template-name: workers\n"),
        "Drop spec.scheduling from a delegated Job, or drop both annotations.", _V138),
    "WAS265": RuleDoc(
        "A Job carries one of the delegation annotations (scheduling.k8s.io/workload-name, "
        "scheduling.k8s.io/group-template-name) without both being set to non-empty values; the 1.38 Job API "
        "rejects it.",
        _job("").replace("  name: train\n", "  name: train\n  annotations:\n    scheduling.k8s.io/workload-name: "
                         "pipeline\n"),
        _job("").replace("  name: train\n", "  name: train\n  annotations:\n    scheduling.k8s.io/workload-name: "
                         "pipeline\n    scheduling.k8s.io/group-template-name: workers\n"),
        "Set both annotations, or neither.", _V138),
    "WAS212": RuleDoc(
        "A status condition breaks metav1.Condition's server-side rules: a status other than True/False/Unknown, "
        "a type that is not a qualified name, a reason that is not CamelCase-like or longer than 1024 "
        "characters, a message over 32768 characters. Where a kind's schema already carries the rule, the "
        "schema code (WAS104, WAS107) reports it instead.",
        "status:\n  conditions:\n  - type: PodGroupInitiallyScheduled\n    status: 'True'\n"
        "    reason: <1100 characters>\n",
        "status:\n  conditions:\n  - type: PodGroupInitiallyScheduled\n    status: 'True'\n    reason: Scheduled\n",
        "Follow the format the message states, or drop status (controllers write it)."),
    "WAS213": RuleDoc(
        "A status condition type belongs to another release: 1.36's PodGroupScheduled was renamed to "
        "PodGroupInitiallyScheduled in 1.37.",
        _pg("  schedulingPolicy: {basic: {}}\nstatus:\n  conditions:\n  - type: PodGroupScheduled\n"
            "    status: 'True'\n    reason: Scheduled\n    message: ''\n    lastTransitionTime: '2026-11-02T10:00:00Z'\n"),
        _pg("  schedulingPolicy: {basic: {}}\nstatus:\n  conditions:\n  - type: PodGroupInitiallyScheduled\n"
            "    status: 'True'\n    reason: Scheduled\n    message: ''\n    lastTransitionTime: '2026-11-02T10:00:00Z'\n"),
        "Run `wasplan migrate --keep-status`, or drop status (controllers write it).", _V),
    "WAS220": RuleDoc(
        "A device request of a ResourceClaim or ResourceClaimTemplate breaks a rule the API server enforces: it "
        "must set exactly one of `exactly` and `firstAvailable`; allocationMode All takes every matching device and "
        "so no count; an ExactCount count must be above zero; request and subrequest names are unique DNS labels.",
        _claim("    - name: gpu\n      exactly:\n        deviceClassName: gpu.example.com\n"
               "        allocationMode: All\n        count: 2\n"),
        _claim("    - name: gpu\n      exactly:\n        deviceClassName: gpu.example.com\n"
               "        allocationMode: All\n"),
        "Fix the request as the message says (e.g. drop count with allocationMode All).", _V),
    "WAS221": RuleDoc(
        "A claim constraint (or config entry) is malformed: a constraint sets exactly one of matchAttribute and "
        "distinctAttribute, with a fully qualified attribute name (domain/name), and names only requests the "
        "claim has (`req` or `req/subrequest`).",
        _claim("    - name: gpu\n      exactly: {deviceClassName: gpu.example.com, count: 2}\n",
               "    - {requests: [gpus], matchAttribute: gpu.example.com/numa}\n"),
        _claim("    - name: gpu\n      exactly: {deviceClassName: gpu.example.com, count: 2}\n",
               "    - {requests: [gpu], matchAttribute: gpu.example.com/numa}\n"),
        "Name an existing request and a fully qualified attribute.", _V),
    "WAS222": RuleDoc(
        "A DRA list is longer than the API server accepts: 32 requests, 8 firstAvailable subrequests, 32 selectors, "
        "32 constraints, 32 config entries, 16 tolerations per request; 128 devices per ResourceSlice (64 when "
        "devices use taints, counters or list attributes), 32 attributes and capacities per device, 8 shared "
        "counter sets, 2 counter consumptions and 16 taints per device.",
        _claim("    - name: gpu\n      firstAvailable:\n"
               + "".join(f"      - {{name: s{i}, deviceClassName: gpu.example.com}}\n" for i in range(9))),
        _claim("    - name: gpu\n      firstAvailable:\n"
               + "".join(f"      - {{name: s{i}, deviceClassName: gpu.example.com}}\n" for i in range(8))),
        "Split the object (more claims, more slices) or shorten the list.", _V),
    "WAS223": RuleDoc(
        "A ResourceSlice is malformed: it needs a driver and a pool (name, generation >= 0, resourceSliceCount >= 1), "
        "exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection, unique DNS-label device names, and "
        "devices or sharedCounters, not both; per-device node selection only under perDeviceNodeSelection.",
        _SLICE + "  nodeName: node-1\n  allNodes: true\n  devices: [{name: gpu-0}]\n",
        _SLICE + "  nodeName: node-1\n  devices: [{name: gpu-0}]\n",
        "Keep one node-selection field (and the rest as the message says).", _V),
    "WAS224": RuleDoc(
        "A device attribute or capacity name is not `identifier` or `domain/identifier` (identifier: a C identifier "
        "of at most 32 characters), or an attribute does not hold exactly one value of its type (strings and "
        "versions at most 64 characters, versions semantic versions).",
        _SLICE + "  nodeName: node-1\n  devices:\n  - name: gpu-0\n    attributes:\n"
        "      driverVersion: {version: '1.0'}\n",
        _SLICE + "  nodeName: node-1\n  devices:\n  - name: gpu-0\n    attributes:\n"
        "      driverVersion: {version: 1.0.0}\n",
        "Write the attribute as the message says.", _V),
    "WAS225": RuleDoc(
        "A device taint or toleration key is not a label key, or a toleration with operator Exists sets a value "
        "(Exists matches any value).",
        _claim("    - name: gpu\n      exactly:\n        deviceClassName: gpu.example.com\n        tolerations:\n"
               "        - {key: maintenance, operator: Exists, value: 'true'}\n"),
        _claim("    - name: gpu\n      exactly:\n        deviceClassName: gpu.example.com\n        tolerations:\n"
               "        - {key: maintenance, operator: Exists}\n"),
        "Drop the value, or use operator Equal.", _V),
    "WAS226": RuleDoc(
        "A consumable capacity's requestPolicy breaks the API server's rules: it needs allowMultipleAllocations: "
        "true; validValues must be sorted, at most the capacity and include the default; validRange needs min, "
        "min <= max <= the capacity, the default inside the range and a whole number of steps from min.",
        _SLICE + "  nodeName: node-1\n  devices:\n  - name: nic-0\n    allowMultipleAllocations: true\n"
        "    capacity:\n      bandwidth:\n        value: 100G\n        requestPolicy:\n          default: 1500M\n"
        "          validRange: {min: 1G, step: 1G}\n",
        _SLICE + "  nodeName: node-1\n  devices:\n  - name: nic-0\n    allowMultipleAllocations: true\n"
        "    capacity:\n      bandwidth:\n        value: 100G\n        requestPolicy:\n          default: 1G\n"
        "          validRange: {min: 1G, step: 1G}\n",
        "Make the default and the bounds fit the policy as the message says.", _V),
    "WAS227": RuleDoc(
        "A device selector of a DeviceClass or a request has no `cel`: the API server requires it. The usual cause "
        "is `expression:` written at the indentation of `cel:`, which makes `cel` empty (the schema then also "
        "reports `expression` as an unknown field).",
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.example.com\nspec:\n"
        "  selectors:\n  - cel:\n    expression: device.driver == 'gpu.example.com'\n",
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.example.com\nspec:\n"
        "  selectors:\n  - cel:\n      expression: device.driver == 'gpu.example.com'\n",
        "Indent `expression` under `cel:`.", _V),
    "WAS230": RuleDoc(
        "A CEL device selector does not parse. The finding points at the line and column inside the YAML (also "
        "inside a `|` block) and names the column inside the expression.",
        _class("device.driver = 'gpu.example.com'"), _class("device.driver == 'gpu.example.com'"),
        "Fix the expression; compare with `==`.", _V),
    "WAS231": RuleDoc(
        "A CEL device selector names a variable other than `device` (often a bare attribute name) or a field the "
        "device does not have (it has driver, attributes, capacity, allowMultipleAllocations).",
        _class("model == 'a100'"), _class("device.attributes['gpu.example.com'].model == 'a100'"),
        "Read attributes as device.attributes[\"<domain>\"].<name>.", _V),
    "WAS232": RuleDoc(
        "A CEL device selector calls a function that the Kubernetes CEL environment does not have; the hint "
        "suggests the closest known one.",
        _class("device.attributes['gpu.example.com'].model.strtsWith('a')"),
        _class("device.attributes['gpu.example.com'].model.startsWith('a')"),
        "Use the function the hint names.", _V),
    "WAS233": RuleDoc(
        "A CEL device selector applies an operator or function to values of the wrong type where the types are "
        "known (device.driver is a string, capacities are quantities, `device.attributes` is a map of domains), or "
        "does not evaluate to bool.",
        _class("device.driver == 3"), _class("device.driver == 'gpu.example.com'"),
        "Compare like with like; compare quantities with compareTo/isGreaterThan.", _V),
    "WAS234": RuleDoc(
        "A CEL device selector's estimated worst-case cost is above CELSelectorExpressionMaxCost (1,000,000), so "
        "the API server rejects it as too complex; nested comprehensions over attributes are the usual cause.",
        _class("device.attributes.all(a, device.attributes.all(b, device.attributes.all(c, "
               "device.attributes[c].all(k, k.size() > 1))))"),
        _class("device.attributes['gpu.example.com'].all(k, k.size() > 1)"),
        "Read the attributes you need by name instead of iterating them.", _V),
    "WAS235": RuleDoc(
        "A CEL device selector is longer than 10 KiB (CELSelectorExpressionMaxLength).",
        _class("device.driver == '" + "x" * 10300 + "'"), _class("device.driver == 'gpu.example.com'"),
        "Split the condition into several selectors; all must match.", _V),
    "WAS240": RuleDoc(
        "The object names a kueue.x-k8s.io version that Kueue v0.17.0 does not serve: its CRDs serve v1beta1 "
        "(deprecated) and v1beta2 (stored). v1alpha1 objects of older Kueue releases are not accepted.",
        "apiVersion: kueue.x-k8s.io/v1alpha1\nkind: ResourceFlavor\nmetadata: {name: default}\n",
        _kobj("ResourceFlavor", "default"),
        "Write apiVersion: kueue.x-k8s.io/v1beta2 and check the fields against it.", _V),
    "WAS241": RuleDoc(
        "A Kueue object breaks one of the CEL rules of Kueue v0.17.0's CRD (x-kubernetes-validations), which the "
        "API server evaluates on create: a flavor with fewer resources than coveredResources, a toleration with "
        "tolerationSeconds but no NoExecute effect, a Topology repeating a level, a flavor preference without "
        "TryNextFlavor, ... The message is the CRD's.",
        _kobj("Topology", "default", "spec:\n  levels:\n  - nodeLabel: rack\n  - nodeLabel: rack\n"),
        _kobj("Topology", "default", "spec:\n  levels:\n  - nodeLabel: block\n  - nodeLabel: rack\n"),
        "Change the field as the message says.", _V),
    "WAS242": RuleDoc(
        "A ClusterQueue's or Cohort's resource groups break Kueue's validating webhook: a resource covered by "
        "two groups, a flavor listed twice, resources out of coveredResources' order, a negative quota, a "
        "borrowingLimit or lendingLimit without a cohort (or, for a Cohort, without a parent), a lendingLimit "
        "above the nominalQuota, more than 256 flavors or covered resources, a fair-sharing weight at or below "
        "1n.",
        _cq("team-a", _rg("default", ", borrowingLimit: 4")),
        _cq("team-a", "  cohortName: all\n" + _rg("default", ", borrowingLimit: 4")),
        "Put the ClusterQueue in a cohort, or drop the limit; keep each resource and flavor in one group.", _V),
    "WAS243": RuleDoc(
        "A ResourceFlavor's nodeLabels, nodeTaints or tolerations break Kueue's validating webhook: a key that "
        "is not a label key, a value that is not a label value, two taints with the same key and effect.",
        _kobj("ResourceFlavor", "spot", "spec:\n  nodeLabels: {\"instance type\": spot}\n"),
        _kobj("ResourceFlavor", "spot", "spec:\n  nodeLabels: {instance-type: spot}\n"),
        "Use the node label keys and values as the nodes carry them.", _V),
    "WAS244": RuleDoc(
        "A Kueue Workload breaks Kueue's validating webhook: more than one podSet sets minCount (partial "
        "admission can shrink one podSet only), or a container requests the resource `pods`, which Kueue "
        "reserves for its own accounting.",
        _kobj("Workload", "train", "spec:\n  queueName: queue\n  podSets:\n"
              "  - {name: a, count: 4, minCount: 2, template: {spec: {containers: [{name: c, image: i}]}}}\n"
              "  - {name: b, count: 4, minCount: 2, template: {spec: {containers: [{name: c, image: i}]}}}\n",
              namespace="team-a"),
        _kobj("Workload", "train", "spec:\n  queueName: queue\n  podSets:\n"
              "  - {name: a, count: 4, minCount: 2, template: {spec: {containers: [{name: c, image: i}]}}}\n"
              "  - {name: b, count: 4, template: {spec: {containers: [{name: c, image: i}]}}}\n",
              namespace="team-a"),
        "Let one podSet use minCount.", _V),
    "WAS248": RuleDoc(
        "Kueue's Configuration (the file its manager reads, config.kueue.x-k8s.io) breaks Kueue v0.17.0's "
        "configuration validation: an enabled fairSharing without preemptionStrategies or with a list Kueue does "
        "not accept (only [LessThanOrEqualToFinalShare], [LessThanInitialShare] or both in that order), a "
        "negative or unparsable duration, waitForPodsReady without a timeout, a resource transformation with an "
        "unknown strategy or a repeated input. Kueue does not start with such a file.",
        _KCFG + "fairSharing:\n  preemptionStrategies: [LessThanInitialShare, LessThanOrEqualToFinalShare]\n",
        _KCFG + "fairSharing:\n  preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]\n",
        "Write the value the message names as accepted.", _V),
    "WAS249": RuleDoc(
        "The document names a config.kueue.x-k8s.io version of Kueue's Configuration that Kueue v0.17.0 cannot "
        "read: it reads v1beta1 (with fairSharing.enable) and v1beta2.",
        "apiVersion: config.kueue.x-k8s.io/v1alpha1\nkind: Configuration\n",
        _KCFG,
        "Write apiVersion: config.kueue.x-k8s.io/v1beta2 and check the fields against it.", _V),
    # --- WAS3xx: feature gates -------------------------------------------------------------------
    "WAS301": RuleDoc(
        "The field's feature gate is off in the cluster (as --feature-gates describes it): the API server "
        "accepts the object but silently drops the field, so the setting has no effect.",
        "# wasplan validate --feature-gates TopologyAwareWorkloadScheduling=false\n"
        + _pg("  schedulingPolicy: {gang: {minCount: 2}}\n  schedulingConstraints:\n    topology:\n"
              "    - key: topology.kubernetes.io/rack\n"),
        _pg("  schedulingPolicy: {gang: {minCount: 2}}\n"),
        "Enable the gate in the cluster (and say so with --feature-gates), or remove the field.",
        ("validate", "--feature-gates", "TopologyAwareWorkloadScheduling=false")),
    "WAS302": RuleDoc(
        "The kind's feature gate is off: the API server does not serve the kind at all.",
        "# wasplan validate --feature-gates CompositePodGroup=false\n"
        "apiVersion: scheduling.k8s.io/v1alpha3\nkind: CompositePodGroup\nmetadata:\n  name: region\nspec:\n"
        "  workloadRef: {workloadName: pipeline, templateName: region}\n  schedulingPolicy: {basic: {}}\n",
        _pg("  schedulingPolicy: {gang: {minCount: 2}}\n"),
        "Enable the gate in the cluster, or do without the kind.", ("validate", "--feature-gates", "CompositePodGroup=false")),
    # --- WAS4xx: cross-object lint ---------------------------------------------------------------
    "WAS401": RuleDoc(
        "A PodGroup's workloadRef names a Workload that is not among the inputs. It may exist in the cluster; "
        "if not, the group waits for it.",
        _pg("  workloadRef: {workloadName: train, templateName: workers}\n  schedulingPolicy: {gang: {minCount: 1}}\n"),
        _wl("  podGroupTemplates:\n  - name: workers\n    schedulingPolicy: {gang: {minCount: 1}}\n") + "---\n"
        + _pg("  workloadRef: {workloadName: train, templateName: workers}\n  schedulingPolicy: {gang: {minCount: 1}}\n"),
        "Add the Workload to the inputs, or check its name.", _L),
    "WAS402": RuleDoc(
        "A PodGroup's workloadRef.templateName is not a template of its Workload.",
        _wl("  podGroupTemplates:\n  - name: workers\n    schedulingPolicy: {gang: {minCount: 1}}\n") + "---\n"
        + _pg("  workloadRef: {workloadName: train, templateName: worker}\n  schedulingPolicy: {gang: {minCount: 1}}\n"),
        _wl("  podGroupTemplates:\n  - name: workers\n    schedulingPolicy: {gang: {minCount: 1}}\n") + "---\n"
        + _pg("  workloadRef: {workloadName: train, templateName: workers}\n  schedulingPolicy: {gang: {minCount: 1}}\n"),
        "Use one of the template names the hint lists.", _L),
    "WAS403": RuleDoc(
        "A PodGroup's scheduling policy differs from the policy of the template it references; controllers copy "
        "the template's policy, so a hand-written group that differs is a mistake.",
        _wl("  podGroupTemplates:\n  - name: workers\n    schedulingPolicy: {gang: {minCount: 2}}\n") + "---\n"
        + _pg("  workloadRef: {workloadName: train, templateName: workers}\n  schedulingPolicy: {basic: {}}\n"),
        _wl("  podGroupTemplates:\n  - name: workers\n    schedulingPolicy: {gang: {minCount: 2}}\n") + "---\n"
        + _pg("  workloadRef: {workloadName: train, templateName: workers}\n  schedulingPolicy: {gang: {minCount: 2}}\n"),
        "Copy the template's schedulingPolicy into the PodGroup.", _L),
    "WAS404": RuleDoc(
        "A Pod's schedulingGroup names a PodGroup that is not among the inputs. The pod stays Pending "
        "(scheduling-gated) until the PodGroup exists.",
        _POD, _GANG_PG + "---\n" + _POD,
        "Add the PodGroup, fix the name (the hint suggests close names), or suppress it where the group is "
        "created elsewhere: `podGroupName: trainers  # wasplan: ignore=WAS404`.", _L),
    "WAS405": RuleDoc(
        "A gang's minCount is greater than the number of its member pods in the inputs: the gang waits for its "
        "quorum and none of its pods is scheduled until more arrive.",
        _pg("  schedulingPolicy:\n    gang: {minCount: 2}\n") + "---\n" + _POD,
        _pg("  schedulingPolicy:\n    gang: {minCount: 1}\n") + "---\n" + _POD,
        "Lower minCount to the number of pods, or add the missing pods.", _L),
    "WAS406": RuleDoc(
        "The pods of one PodGroup name different schedulers; the scheduler rejects such a group.",
        _GANG_PG + "---\n" + _POD + "---\n"
        + _POD.replace("trainer-0", "trainer-1").replace("  containers", "  schedulerName: custom\n  containers"),
        _GANG_PG + "---\n" + _POD + "---\n" + _POD.replace("trainer-0", "trainer-1"),
        "Give every pod of the group the same schedulerName.", _L),
    "WAS407": RuleDoc(
        "In 1.37 a pod's priorityClassName must equal its PodGroup's; the API server rejects the pod otherwise.",
        _pg("  priorityClassName: high\n  schedulingPolicy:\n    gang: {minCount: 1}\n") + "---\n"
        + _POD.replace("  containers", "  priorityClassName: low\n  containers"),
        _pg("  priorityClassName: high\n  schedulingPolicy:\n    gang: {minCount: 1}\n") + "---\n"
        + _POD.replace("  containers", "  priorityClassName: high\n  containers"),
        "Use the group's priority class on every pod (or leave it off the pods).", _L),
    "WAS408": RuleDoc(
        "A topology constraint's key is carried by no node of the cluster given with `lint --cluster`, so the "
        "group can never be placed.",
        "# wasplan lint --cluster fixtures/messy-repo/clusters/lab.yaml (its nodes carry a rack label, no zone)\n"
        + _pg("  schedulingPolicy: {gang: {minCount: 2}}\n  schedulingConstraints:\n    topology:\n"
              "    - key: topology.kubernetes.io/zone\n"),
        _pg("  schedulingPolicy: {gang: {minCount: 2}}\n  schedulingConstraints:\n    topology:\n"
            "    - key: topology.kubernetes.io/rack\n"),
        "Use a label key the nodes carry (the message lists close ones), or label the nodes.",
        ("lint", "--cluster", "fixtures/messy-repo/clusters/lab.yaml")),
    "WAS409": RuleDoc(
        "parentCompositePodGroupName names a CompositePodGroup that is not among the inputs.",
        _pg("  parentCompositePodGroupName: region\n  workloadRef: {workloadName: pipeline, templateName: ranks}\n"
            "  schedulingPolicy: {gang: {minCount: 1}}\n"),
        _pg("  workloadRef: {workloadName: pipeline, templateName: ranks}\n  schedulingPolicy: {gang: {minCount: 1}}\n"),
        "Add the CompositePodGroup to the inputs, or fix its name.", _L),
    "WAS410": RuleDoc(
        "CompositePodGroup parent references form a cycle (a is b's parent and b is a's); the scheduler marks "
        "the hierarchy invalid and schedules none of it.",
        _cpg("region", "zone") + "---\n" + _cpg("zone", "region"),
        _cpg("region") + "---\n" + _cpg("zone", "region"),
        "Break the cycle: the root of the hierarchy has no parentCompositePodGroupName.", _L),
    "WAS411": RuleDoc(
        "The CompositePodGroup hierarchy is deeper than 4 levels counting the PodGroup level.",
        _cpg("world") + "---\n" + _cpg("region", "world") + "---\n" + _cpg("zone", "region") + "---\n"
        + _cpg("rack", "zone") + "---\n" + _child("rack"),
        _cpg("region") + "---\n" + _cpg("zone", "region") + "---\n" + _cpg("rack", "zone") + "---\n" + _child("rack"),
        "Remove a level of the hierarchy.", _L),
    "WAS412": RuleDoc(
        "parentCompositePodGroupName and CompositePodGroup are new in 1.37; Kubernetes 1.36 has neither.",
        _child("region").replace("v1beta1", "v1alpha2").replace("  workloadRef: {workloadName: pipeline, "
                                                                "templateName: ranks}\n", ""),
        _child("region").replace("v1beta1", "v1alpha2").replace("  workloadRef: {workloadName: pipeline, "
                                                                "templateName: ranks}\n", "").replace(
            "  parentCompositePodGroupName: region\n", ""),
        "Target 1.37, or drop the composite hierarchy for 1.36.", ("lint", "--k8s-version", "1.36")),
    "WAS413": RuleDoc(
        "A group and its parent CompositePodGroup reference different Workloads; a hierarchy lives inside one "
        "Workload, so the scheduler marks it invalid.",
        _cpg("region", workload="pipeline-b") + "---\n" + _child("region"),
        _cpg("region") + "---\n" + _child("region"),
        "Make the group and its parent reference the same Workload.", _L),
    "WAS420": RuleDoc(
        "A pod's, PodGroup's or Job's resourceClaims entry names a ResourceClaimTemplate that the inputs do not "
        "hold. Lint reports it only when a typo is likely (a close name, or the same name in another namespace) or "
        "when the --cluster snapshot holds ResourceClaimTemplates (then inputs and snapshot are all there is); a "
        "template applied from elsewhere is not a finding. The pod waits until the template exists.",
        _FOUR + "---\n" + _dra_pod("[{name: gpus, resourceClaimTemplateName: four-gpu}]"),
        _FOUR + "---\n" + _dra_pod("[{name: gpus, resourceClaimTemplateName: four-gpus}]"),
        "Fix the name (the hint names the close one), or create the template in the pod's namespace.", _L),
    "WAS421": RuleDoc(
        "A resourceClaims entry names a ResourceClaim that the inputs do not hold, while a close name (or the same "
        "name in another namespace) is there, or the --cluster snapshot holds ResourceClaims. The pod waits for it.",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: shared-gpu, namespace: ml}\n"
        "spec: {devices: {requests: [{name: gpus, exactly: {deviceClassName: gpu.example.com}}]}}\n---\n"
        + _dra_pod("[{name: gpus, resourceClaimName: shared-gpus}]"),
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: shared-gpu, namespace: ml}\n"
        "spec: {devices: {requests: [{name: gpus, exactly: {deviceClassName: gpu.example.com}}]}}\n---\n"
        + _dra_pod("[{name: gpus, resourceClaimName: shared-gpu}]"),
        "Fix the name, or create the claim in the pod's namespace.", _L),
    "WAS422": RuleDoc(
        "A ResourceClaim or template request names a DeviceClass that the inputs do not hold, while a close name is "
        "there (or the --cluster snapshot holds DeviceClasses). Pods using it stay Pending with `device class ... "
        "does not exist`.",
        _GPU_CLASS + "---\n" + _rct("four-gpus", "{deviceClassName: gpu.exmple.com, count: 4}"),
        _GPU_CLASS + "---\n" + _FOUR,
        "Use the DeviceClass the driver installs (`kubectl get deviceclasses`).", _L),
    "WAS423": RuleDoc(
        "A container's resources.claims names a claim that spec.resourceClaims of its pod does not declare; the "
        "API server rejects the pod (or the controller cannot create it).",
        _dra_pod("[{name: gpus, resourceClaimTemplateName: four-gpus}]", "[{name: gpu}]"),
        _dra_pod("[{name: gpus, resourceClaimTemplateName: four-gpus}]", "[{name: gpus}]"),
        "Use a name of spec.resourceClaims (the hint names the close one), or declare the claim.", _L),
    "WAS424": RuleDoc(
        "A container's resources.claims[].request names no request of the claim or template the entry uses (when "
        "the inputs or the --cluster snapshot hold it); the container would get no device from it.",
        _FOUR + "---\n" + _dra_pod("[{name: gpus, resourceClaimTemplateName: four-gpus}]",
                                   "[{name: gpus, request: gpu}]"),
        _FOUR + "---\n" + _dra_pod("[{name: gpus, resourceClaimTemplateName: four-gpus}]",
                                   "[{name: gpus, request: gpus}]"),
        "Name a request of the claim (or `request/subrequest` of a firstAvailable one), or leave `request` out.",
        _L),
    "WAS425": RuleDoc(
        "With DRAWorkloadResourceClaims on, a pod claim is a group claim (one ResourceClaim for the whole "
        "PodGroup, reserved for the PodGroup) only when its name and its template or claim name equal an entry of "
        "the PodGroup's resourceClaims; every other claim stays the pod's own. This note lists both, per group.",
        _group_with("[{name: fabric, resourceClaimTemplateName: four-gpus}]") + "---\n"
        + _dra_pod("[{name: fabric, resourceClaimTemplateName: four-gpus}]", "[{name: fabric}]", "train"),
        _group_with("[]") + "---\n"
        + _dra_pod("[{name: fabric, resourceClaimTemplateName: four-gpus}]", "[{name: fabric}]", "train"),
        "Nothing to fix: read it to check that the claims you mean to share are shared.", _GROUP_GATES),
    "WAS426": RuleDoc(
        "A member pod's claim has the name of a PodGroup claim but another template or claim, or the same template "
        "or claim under another name. It silently stays per pod: every pod gets its own claim from the template "
        "(for a claim by name: it is reserved for each pod, at most 256, instead of for the PodGroup).",
        _group_with("[{name: fabric, resourceClaimTemplateName: rack-fabric}]") + "---\n"
        + _dra_pod("[{name: fabric, resourceClaimTemplateName: rack-fabrics}]", "[{name: fabric}]", "train"),
        _group_with("[{name: fabric, resourceClaimTemplateName: rack-fabric}]") + "---\n"
        + _dra_pod("[{name: fabric, resourceClaimTemplateName: rack-fabric}]", "[{name: fabric}]", "train"),
        "Write the entry exactly as the PodGroup does (same name, same template or claim).", _GROUP_GATES),
    "WAS427": RuleDoc(
        "A PodGroup claim that none of the group's member pods in the inputs uses (with the same name and source): "
        "no pod gets its devices.",
        _group_with("[{name: fabric, resourceClaimTemplateName: rack-fabric}]") + "---\n"
        + _dra_pod("[{name: gpus, resourceClaimTemplateName: four-gpus}]", "[{name: gpus}]", "train"),
        _group_with("[{name: fabric, resourceClaimTemplateName: rack-fabric}]") + "---\n"
        + _dra_pod("[{name: gpus, resourceClaimTemplateName: four-gpus}, "
                   "{name: fabric, resourceClaimTemplateName: rack-fabric}]", "[{name: gpus}]", "train"),
        "Add the entry to the pods that need the shared devices, or remove it from the PodGroup.", _GROUP_GATES),
    "WAS428": RuleDoc(
        "With --cluster: the request's DeviceClass selectors and its own selectors together match no device of "
        "the snapshot's ResourceSlices (evaluated by the planner's allocator). The message names the selector after "
        "which no device remains and the values the devices reaching it have, closest first; when they publish no "
        "attribute or capacity of the name the selector reads, that name and the closest one they do publish (a wrong "
        "case, or `nvidia.com` for `gpu.nvidia.com`).",
        _rct("h100", "{deviceClassName: gpu.example.com, selectors: [{cel: {expression: "
             "'device.attributes[\"gpu.example.com\"].productName == \"NVIDIA H100\"'}}]}"),
        _rct("h100", "{deviceClassName: gpu.example.com, selectors: [{cel: {expression: "
             "'device.attributes[\"gpu.example.com\"].productName == \"NVIDIA H100 80GB HBM3\"'}}]}"),
        "Use a value (or an attribute name) the devices publish, as the message names it, or relax the selector.",
        _DRA_LAB),
    "WAS429": RuleDoc(
        "With --cluster: an ExactCount request asks for more devices than any node can reach among the matching "
        "ones (its node-local devices plus network-attached pools that select it), so the claim is never allocated.",
        _rct("eight-gpus", "{deviceClassName: gpu.example.com, count: 8}"),
        _rct("four-gpus", "{deviceClassName: gpu.example.com, count: 4}"),
        "Lower count to what a node offers (the hint says how many), or split the work across pods.", _DRA_LAB),
    "WAS430": RuleDoc(
        "With DRAWorkloadResourceClaims on: a PodGroup's resourceClaims differ from those of the Workload template "
        "it references. Pods share only the PodGroup's own entries, and controllers create PodGroups with the "
        "template's, so a hand-written PodGroup that leaves them out (or changes them) silently changes what its "
        "pods share.",
        _WL_CLAIMS + "---\n" + _group_ref("[]"),
        _WL_CLAIMS + "---\n" + _group_ref("[{name: fabric, resourceClaimTemplateName: rack-fabric}]"),
        "Copy the template's resourceClaims into the PodGroup (or change both).", _GROUP_GATES),
    "WAS431": RuleDoc(
        "A request sets adminAccess: true in a namespace (from the inputs or the --cluster snapshot) that lacks "
        "the label resource.kubernetes.io/admin-access: \"true\"; the API server rejects the claim or template.",
        _rct("debug", "{deviceClassName: gpu.example.com, adminAccess: true}"),
        _rct("debug", "{deviceClassName: gpu.example.com, adminAccess: true}", namespace="ops"),
        "Label the namespace (`kubectl label namespace ml resource.kubernetes.io/admin-access=true`), or drop "
        "adminAccess.", _DRA_LAB),
    "WAS432": RuleDoc(
        "A request sets adminAccess: true in a namespace that neither the inputs nor the snapshot hold, so whether "
        "it has the admin-access label cannot be checked.",
        _rct("debug", "{deviceClassName: gpu.example.com, adminAccess: true}", namespace="research"),
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: research\n  labels: "
        "{resource.kubernetes.io/admin-access: \"true\"}\n---\n"
        + _rct("debug", "{deviceClassName: gpu.example.com, adminAccess: true}", namespace="research"),
        "Add the Namespace to the inputs (or --cluster), labelled resource.kubernetes.io/admin-access: \"true\".",
        _L),
    "WAS433": RuleDoc(
        "A pod, or the pod template of a Job, Deployment, JobSet, ..., names a PriorityClass that exists nowhere: "
        "not among the inputs, not one of the two system classes, and (with --cluster) not in the snapshot. The "
        "API server's Priority admission refuses each such pod (`pods \"...\" is forbidden: no PriorityClass "
        "with name ... was found`), so a Job never gets its pods; `plan` lists them as Refused. Without --cluster "
        "the class may exist in the cluster, so lint reports it only when a close name is known (a typo).",
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\n"
        "apiVersion: v1\nkind: Pod\nmetadata: {name: trainer}\nspec:\n  priorityClassName: hihg\n"
        "  containers: [{name: main, image: trainer:1}]\n",
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\n"
        "apiVersion: v1\nkind: Pod\nmetadata: {name: trainer}\nspec:\n  priorityClassName: high\n"
        "  containers: [{name: main, image: trainer:1}]\n",
        "Name a PriorityClass that exists (the hint suggests the closest), or add it to the inputs.", _L),
    "WAS450": RuleDoc(
        "Two Kueue Configurations among the inputs. A Kueue install reads one configuration file; the plan reads "
        "the first one given and says which.",
        _KCFG + "---\n" + _KCFG,
        _KCFG,
        "Give the plan the one Configuration the cluster's Kueue reads.", _L),
    "WAS451": RuleDoc(
        "A ClusterQueue or Cohort sets spec.fairSharing.weight, but the Kueue Configuration among the inputs "
        "leaves fair sharing off (v1beta2 without fairSharing, v1beta1 without fairSharing.enable: true): "
        "Kueue's scheduler then orders and preempts classically and never reads the weight.",
        _KCFG + "---\n" + _cq("team-a", "  cohortName: all\n  fairSharing: {weight: 2}\n" + _rg("default", "")),
        _KCFG + "fairSharing:\n  preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]\n"
        "---\n" + _cq("team-a", "  cohortName: all\n  fairSharing: {weight: 2}\n" + _rg("default", "")),
        "Enable fair sharing in the Configuration, or drop the weights.", _L),
    "WAS440": RuleDoc(
        "A LocalQueue's spec.clusterQueue names a ClusterQueue that the inputs do not hold, while they hold other "
        "ClusterQueues (or a close name): Kueue keeps the LocalQueue inactive and every workload sent to it "
        "pending. Without any ClusterQueue in the inputs the queues are taken to live in the cluster and nothing "
        "is said.",
        _cq("team-a", _rg("default", "")) + "---\n" + _kobj("LocalQueue", "queue", "spec: {clusterQueue: team-b}\n",
                                                             namespace="team-a"),
        _cq("team-a", _rg("default", "")) + "---\n" + _kobj("LocalQueue", "queue", "spec: {clusterQueue: team-a}\n",
                                                             namespace="team-a"),
        "Name a ClusterQueue that exists, or add it to the inputs.", _L),
    "WAS441": RuleDoc(
        "A ClusterQueue's (or Cohort's) resource group names a ResourceFlavor the inputs do not hold, while they "
        "hold others (or a close name): Kueue marks the ClusterQueue inactive (FlavorNotFound) and admits "
        "nothing through it.",
        _kobj("ResourceFlavor", "on-demand") + "---\n" + _cq("team-a", _rg("on-demmand", "")),
        _kobj("ResourceFlavor", "on-demand") + "---\n" + _cq("team-a", _rg("on-demand", "")),
        "Name a ResourceFlavor that exists (the hint suggests the closest), or add it.", _L),
    "WAS442": RuleDoc(
        "Cohorts' spec.parentName chain comes back to where it started: Kueue refuses a cyclic cohort tree and "
        "every ClusterQueue in it stays inactive.",
        _kobj("Cohort", "a", "spec: {parentName: b}\n") + "---\n" + _kobj("Cohort", "b", "spec: {parentName: a}\n"),
        _kobj("Cohort", "a", "spec: {parentName: b}\n") + "---\n" + _kobj("Cohort", "b"),
        "Break the cycle: one Cohort of the chain is the root and has no parentName.", _L),
    "WAS443": RuleDoc(
        "A ResourceFlavor's spec.topologyName names a Topology the inputs do not hold, while they hold others "
        "(or a close name): Kueue's topology-aware scheduling cannot use the flavor and the ClusterQueues "
        "naming it are inactive.",
        _kobj("Topology", "default", "spec:\n  levels: [{nodeLabel: kubernetes.io/hostname}]\n") + "---\n"
        + _kobj("ResourceFlavor", "tas", "spec:\n  nodeLabels: {pool: tas}\n  topologyName: defualt\n"),
        _kobj("Topology", "default", "spec:\n  levels: [{nodeLabel: kubernetes.io/hostname}]\n") + "---\n"
        + _kobj("ResourceFlavor", "tas", "spec:\n  nodeLabels: {pool: tas}\n  topologyName: default\n"),
        "Name a Topology that exists, or add it.", _L),
    "WAS444": RuleDoc(
        "A ClusterQueue's admissionChecksStrategy (v1beta1 also spec.admissionChecks) names an AdmissionCheck "
        "the inputs do not hold, while they hold others (or a close name): Kueue keeps the ClusterQueue "
        "inactive.",
        _kobj("AdmissionCheck", "prov", "spec: {controllerName: kueue.x-k8s.io/provisioning-request}\n") + "---\n"
        + _cq("team-a", "  admissionChecksStrategy:\n    admissionChecks: [{name: provv}]\n" + _rg("default", "")),
        _kobj("AdmissionCheck", "prov", "spec: {controllerName: kueue.x-k8s.io/provisioning-request}\n") + "---\n"
        + _cq("team-a", "  admissionChecksStrategy:\n    admissionChecks: [{name: prov}]\n" + _rg("default", "")),
        "Name an AdmissionCheck that exists, or add it.", _L),
    "WAS445": RuleDoc(
        "An object's kueue.x-k8s.io/queue-name label (or a Kueue Workload's spec.queueName) names no LocalQueue "
        "of the object's namespace, while the inputs hold LocalQueues: Kueue leaves the workload pending "
        "(`LocalQueue ... doesn't exist`) and its pods never start. LocalQueues are namespaced: one of the same "
        "name in another namespace does not count.",
        _kobj("LocalQueue", "queue", "spec: {clusterQueue: team-a}\n", namespace="team-a") + "---\n"
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n  namespace: team-b\n  labels:\n"
        "    kueue.x-k8s.io/queue-name: queue\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n"
        "      containers: [{name: main, image: trainer:1}]\n",
        _kobj("LocalQueue", "queue", "spec: {clusterQueue: team-a}\n", namespace="team-a") + "---\n"
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n  namespace: team-a\n  labels:\n"
        "    kueue.x-k8s.io/queue-name: queue\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n"
        "      containers: [{name: main, image: trainer:1}]\n",
        "Name a LocalQueue of the object's namespace, or create one there.", _L),
    "WAS447": RuleDoc(
        "A kueue.x-k8s.io/queue-name label on an object of a kind Kueue v0.17.0 has no integration for (Kueue's "
        "integrations: batch Job, JobSet, Pod, Deployment, StatefulSet, LeaderWorkerSet, the Kubeflow training "
        "jobs and TrainJob, MPIJob, RayJob, RayCluster, RayService, AppWrapper, SparkApplication). Kueue reads the "
        "label on nothing else: a ReplicaSet, CronJob or DaemonSet so labelled is not queued, and its pods start "
        "without admission (a CronJob's Jobs carry the labels of its jobTemplate; a ReplicaSet's pods those of "
        "its pod template, which Kueue's pod integration reads).",
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web\n  labels:\n"
        "    kueue.x-k8s.io/queue-name: queue\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n"
        "    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: nginx}]\n",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n"
        "    kueue.x-k8s.io/queue-name: queue\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n"
        "    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: nginx}]\n",
        "Queue a kind Kueue integrates (a Deployment instead of a ReplicaSet), or put the label where Kueue reads "
        "it: a CronJob's spec.jobTemplate.metadata.labels, a pod template's labels.", _L),
    "WAS446": RuleDoc(
        "A kueue.x-k8s.io/priority-class label (or a Kueue Workload's priorityClassRef to a "
        "WorkloadPriorityClass) names a class the inputs do not hold, while they hold others (or a close name): "
        "Kueue refuses to create the workload for the job.",
        _kobj("WorkloadPriorityClass", "high", "value: 1000\n") + "---\n"
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n  labels:\n"
        "    kueue.x-k8s.io/priority-class: hihg\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n"
        "      containers: [{name: main, image: trainer:1}]\n",
        _kobj("WorkloadPriorityClass", "high", "value: 1000\n") + "---\n"
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n  labels:\n"
        "    kueue.x-k8s.io/priority-class: high\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n"
        "      containers: [{name: main, image: trainer:1}]\n",
        "Name a WorkloadPriorityClass that exists, or add it.", _L),
    # --- WAS5xx: migrate -------------------------------------------------------------------------
    "WAS434": RuleDoc(
        "kubernetes-sigs/scheduler-plugins' PodGroup (scheduling.x-k8s.io/v1alpha1, `minMember`) belongs to its "
        "out-of-tree Coscheduling plugin. The stock kube-scheduler does not read it, and wasplan does not model "
        "Coscheduling: pods that name it (label scheduling.x-k8s.io/pod-group) are planned one by one, as the "
        "stock scheduler would. The document is not validated either.",
        "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\nmetadata: {name: trainers}\n"
        "spec: {minMember: 4}\n",
        "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: trainers}\n"
        "spec:\n  schedulingPolicy:\n    gang: {minCount: 4}\n",
        "Write the gang for kube-scheduler's workload-aware scheduling (a scheduling.k8s.io PodGroup or Workload "
        "named in the pods' spec.schedulingGroup), or plan it with the scheduler that runs Coscheduling.",
        ("validate",)),
    "WAS501": RuleDoc(
        "The object uses something the target version cannot hold (e.g. a composite tree when migrating to "
        "1.36); it is not migrated, and neither is the rest of its file.",
        "# wasplan migrate --to-k8s 1.36\n" + _COMPOSITE_WL + "    podGroupTemplates:\n    - name: ranks\n"
        "      schedulingPolicy: {gang: {minCount: 2}}\n",
        _wl("  podGroupTemplates:\n  - name: ranks\n    schedulingPolicy: {gang: {minCount: 2}}\n"),
        "Stay on a release that has the feature, or rewrite the object without it.", ("migrate", "--to-k8s", "1.36")),
    "WAS502": RuleDoc(
        "With --allow-lossy, a field the target version cannot hold was dropped (a warning, so you see it).",
        "# wasplan migrate --to-k8s 1.36 --allow-lossy\n" + _wl(_TEMPLATE_PREEMPT),
        _wl(_TEMPLATE_PREEMPT.replace("    preemptionPolicy: PreemptLowerPriority\n", "")),
        "Check that the cluster works without the field, or migrate to a release that has it.",
        ("migrate", "--to-k8s", "1.36", "--allow-lossy")),
    "WAS503": RuleDoc(
        "The migrated object would be rejected by the target release (here: 1.37 wants one priority class for "
        "all templates of a Workload); the file is left unchanged.",
        "# wasplan migrate --to-k8s 1.37\n" + _wl(_TWO_PRIORITIES).replace("v1beta1", "v1alpha2"),
        _wl(_TWO_PRIORITIES.replace("priorityClassName: low", "priorityClassName: high")).replace("v1beta1", "v1alpha2"),
        "Fix the object so that it is valid in the target release, then migrate.", ("migrate", "--to-k8s", "1.37")),
    "WAS504": RuleDoc(
        "Internal error: the edited manifest differs from the typed conversion (or the migration raised). The "
        "document is left unchanged. This is a wasplan bug.",
        "wasplan migrate --to-k8s 1.37 workload.yaml  # reports WAS504", "# after the fix: the same command migrates it",
        "Please report it with the document (it is left exactly as it was)."),
    "WAS505": RuleDoc(
        "The document is invalid for its own version (or has duplicate keys), so it is not migrated: a "
        "migration would carry the mistake along.",
        "# wasplan migrate --to-k8s 1.37\n" + _V1ALPHA2_PG.format(mode="Gang"),
        _V1ALPHA2_PG.format(mode="PodGroup"),
        "Fix what `wasplan validate` reports at the source release, then migrate.", ("migrate", "--to-k8s", "1.37")),
    "WAS510": RuleDoc(
        "A Job that 1.36 gang-scheduled implicitly (Indexed, completions equal to parallelism > 1) gets an "
        "explicit gang policy in 1.37, so it keeps behaving the same. Information only.",
        "# wasplan migrate --to-k8s 1.37\n" + _job(""),
        _job("  scheduling:\n    schedulingPolicy:\n      gang: {}\n"),
        "Nothing to fix; review the added spec.scheduling.", ("migrate", "--to-k8s", "1.37")),
    "WAS511": RuleDoc(
        "With --allow-lossy, removing spec.scheduling for 1.36 dropped something 1.36 cannot hold: a gang 1.36 "
        "would not form (a NonIndexed Job), a minCount other than parallelism, schedulingConstraints, "
        "disruptionMode or resourceClaims. Without --allow-lossy the Job is refused instead (WAS501).",
        "# wasplan migrate --to-k8s 1.36 --allow-lossy\n" + _job("  scheduling:\n    schedulingPolicy:\n      gang: {minCount: 4}\n")
        .replace("  completionMode: Indexed\n", ""),
        _job("  scheduling:\n    schedulingPolicy:\n      gang: {}\n"),
        "Check that the Job works without what was dropped in 1.36, or stay on 1.37.",
        ("migrate", "--to-k8s", "1.36", "--allow-lossy")),
    "WAS512": RuleDoc(
        "spec.scheduling was removed for 1.36 without changing how the Job is scheduled (1.36 gangs an Indexed "
        "Job implicitly). Information only.",
        "# wasplan migrate --to-k8s 1.36\n" + _job("  scheduling:\n    schedulingPolicy:\n      gang: {}\n"),
        _job(""),
        "Nothing to fix.", ("migrate", "--to-k8s", "1.36")),
    "WAS513": RuleDoc(
        "1.36's Job controller gang-schedules every Indexed Job with parallelism == completions > 1 on its own. "
        "A 1.37 Job of that shape without a gang policy (no spec.scheduling, or basic) has its pods scheduled one "
        "by one; in 1.36 none of them starts until all fit at once. 1.36 has no field to opt out.",
        "# wasplan migrate --to-k8s 1.36\n" + _job(""),
        _job("", parallelism=2),
        "Make sure the cluster can hold all of the Job's pods at once, or make parallelism differ from "
        "completions (or the Job NonIndexed) to keep pod-by-pod scheduling in 1.36.",
        ("migrate", "--to-k8s", "1.36")),
    "WAS514": RuleDoc(
        "A manifest sets a feature gate the target release removed because its feature is always on (1.38: "
        "PodGroupPreemptionPolicy, DynamicResourceAllocation): a kind Cluster's or a component config's "
        "featureGates, kubeadm's extraArgs, or a --feature-gates flag of a container such as the kube-scheduler "
        "static pod. The release's components refuse to start with it (`unrecognized feature gate`). `migrate "
        "--check --to-k8s 1.38` lists each one so the repository can be fixed before the upgrade; wasplan does not "
        "remove it itself.",
        "apiVersion: kind.x-k8s.io/v1alpha4\nkind: Cluster\nfeatureGates:\n  GenericWorkload: true\n"
        "  PodGroupPreemptionPolicy: true\n",
        "apiVersion: kind.x-k8s.io/v1alpha4\nkind: Cluster\nfeatureGates:\n  GenericWorkload: true\n",
        "Remove the gate from the setting; its feature is on in the new release without it.",
        ("migrate", "--to-k8s", "1.38")),
    # --- WAS6xx: cluster snapshots and plan input ------------------------------------------------
    "WAS601": RuleDoc(
        "A resource quantity is malformed (`1.5.5`, `10 Gi`, `1Gib`) or negative; the API server rejects it and "
        "the planner cannot count it.",
        "resources:\n  requests: {cpu: \"2\", memory: 10 Gi}\n", "resources:\n  requests: {cpu: \"2\", memory: 10Gi}\n",
        "Write quantities as Kubernetes does: a number and a suffix without a space (`500m`, `10Gi`, `1e3`)."),
    "WAS602": RuleDoc(
        "A field the planner reads has the wrong type or an impossible value in a snapshot or plan input; it "
        "was ignored, so the plan may differ from the cluster.",
        "# a Node in the snapshot\nspec:\n  unschedulable: maybe\n", "spec:\n  unschedulable: true\n",
        "Fix the value in the snapshot (or re-export it with kubectl)."),
    "WAS603": RuleDoc(
        "An object has no metadata.name (and no generateName), so the planner cannot refer to it; it was "
        "skipped.",
        "apiVersion: v1\nkind: Node\nmetadata: {labels: {pool: gpu}}\n", "apiVersion: v1\nkind: Node\nmetadata: {name: gpu-0}\n",
        "Give the object a name."),
    "WAS604": RuleDoc(
        "metadata.creationTimestamp is not RFC 3339; the object is ordered as if it had none (input order).",
        "metadata:\n  creationTimestamp: 2026-11-02 10:00\n", "metadata:\n  creationTimestamp: '2026-11-02T10:00:00Z'\n",
        "Write the timestamp as RFC 3339 (`2026-11-02T10:00:00Z`)."),
    "WAS605": RuleDoc(
        "A Cluster kind template (`{index // 4}`) or a pool or pod entry cannot be expanded (an unknown "
        "variable, a bad count).",
        "namePattern: \"gpu-{rack}\"  # rack is no template variable", "namePattern: \"gpu-{index // 4}-{index % 4}\"",
        "Use the variables docs/cluster-kind.md lists (index, index1) and integer arithmetic."),
    "WAS606": RuleDoc(
        "Two inputs define the same object (kind, namespace, name); the later one was ignored. `plan` reports "
        "every such pair (the cluster would hold one object); `lint` those within one directory, and checks "
        "same-named objects of different directories (per-environment copies, overlays, examples) apart, "
        "each with its own directory's objects.",
        "wasplan plan a.yaml a-copy.yaml --cluster cluster.yaml", "wasplan plan a.yaml --cluster cluster.yaml",
        "Keep one definition (or rename one of the objects)."),
    "WAS607": RuleDoc(
        "A Job creates no pods in the plan: it is managed by another controller (spec.managedBy), suspended, or "
        "has zero parallelism. Information only.",
        "spec:\n  suspend: true\n", "spec:\n  suspend: false\n",
        "Nothing to fix if intended; otherwise unsuspend the Job or give it parallelism."),
    "WAS608": RuleDoc(
        "A Workload, PodGroup or CompositePodGroup could not be read into the planner's model: a field holds a "
        "value of the wrong type (most often in a hand-edited `--cluster` snapshot, whose objects are not "
        "schema-validated). The message names the field in the manifest's spelling and its value.",
        "wasplan plan broken.yaml --cluster cluster.yaml", "wasplan validate broken.yaml  # fix what it reports",
        "Fix what `wasplan validate` reports for the object."),
    "WAS609": RuleDoc(
        "The pods bound to a node in the snapshot request more of a resource than the node has allocatable "
        "(pods bound with spec.nodeName, a shrunken node, a hand-edited file). The plan starts from a node with "
        "negative free room; the warning names node and resource.",
        "# snapshot: node small (cpu 1) runs a pod requesting cpu 1500m",
        "# snapshot: the pod's requests fit its node",
        "Re-export the snapshot, or fix the node's allocatable or the pod's requests."),
    "WAS610": RuleDoc(
        "A Job would start more than 10,000 pods (upstream's threshold for Indexed Jobs with many "
        "completions); the planner does not expand it, since such a plan would take minutes mostly to prove "
        "the cluster full.",
        "apiVersion: batch/v1\nkind: Job\nspec:\n  completionMode: Indexed\n  parallelism: 100000\n",
        "apiVersion: batch/v1\nkind: Job\nspec:\n  completionMode: Indexed\n  parallelism: 1000\n",
        "Plan a scaled-down copy of the Job: its pods are alike, so the plan shows the same behaviour."),
    "WAS611": RuleDoc(
        "The cluster snapshot has no nodes, so every pod stays pending (\"no nodes available to schedule pods\").",
        "wasplan plan manifests/ --cluster empty-cluster.yaml",
        "wasplan plan manifests/ --cluster snapshot.json   # kubectl get nodes,pods,... -o json",
        "Include the nodes in the snapshot (`kubectl get nodes ...`)."),
    "WAS620": RuleDoc(
        "The object has only `metadata.generateName`. The API server would append a random suffix; the plan uses a "
        "deterministic name (docs/workload-expansion.md) so that plans are reproducible, and every message names it.",
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: train-\n...",
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\n...",
        "Nothing to fix for a plan; give the object a `metadata.name` if you want the plan to use its real name."),
    "WAS621": RuleDoc(
        "A JobSet, LeaderWorkerSet, Deployment, ReplicaSet or StatefulSet creates no pods in the plan: it is "
        "suspended or paused, has zero replicas, or is managed by another controller.",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: infer}\nspec:\n  replicas: 0\n...",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: infer}\nspec:\n  replicas: 2\n...",
        "Resume the object or set replicas if the plan should include its pods."),
    "WAS622": RuleDoc(
        "The object runs pods through a controller wasplan does not model (a TrainJob, PyTorchJob, MPIJob, Argo "
        "Workflow, RayJob, RayCluster, CronJob, DaemonSet, any custom resource with a pod template). It is listed "
        "with its file and line under \"Not planned\" (`unplanned` in the plan JSON) and under \"Not looked at\" "
        "in `explain`; while such an object is present neither command exits 0. The rule: an object with a pod "
        "spec or container anywhere in its `spec`, or a kind known to run pods built elsewhere (TrainJob, a "
        "Workflow from `workflowTemplateRef`, InferenceService, SparkApplication, RayJob); objects that only "
        "hold templates or configuration (PodTemplate, ConfigMap, any kind named `...Template`, `...Runtime` "
        "or `...Policy`, such as ClusterTrainingRuntime or WorkflowTemplate) run nothing and are not listed.",
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: bert}\n...",
        "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: bert}\n...",
        "Express the workload as a kind the plan expands (Job, JobSet, LeaderWorkerSet, Deployment, ReplicaSet, "
        "StatefulSet, Pod), or plan its pods as plain Pod manifests."),
    "WAS623": RuleDoc(
        "A JobSet's Job template sets `spec.scheduling`. In 1.37 the Job controller creates no Workload or PodGroup "
        "for a Job that has a controller owner, so the field has no effect on the JobSet's child Jobs.",
        "kind: JobSet\nspec:\n  replicatedJobs:\n  - template:\n      spec:\n        scheduling: {...}",
        "kind: JobSet\nspec:\n  replicatedJobs:\n  - template:\n      spec: {...}  # no scheduling",
        "Remove `spec.scheduling` from the Job template, or pair the JobSet with a Workload and PodGroups of its own."),
    "WAS624": RuleDoc(
        "The object carries the label `kueue.x-k8s.io/queue-name` and is of a kind Kueue integrates (Job, JobSet, "
        "LeaderWorkerSet, Deployment, StatefulSet, Pod; a plain pod's Kueue pod group is named by "
        "`kueue.x-k8s.io/pod-group-name`), or the pods of a Deployment, ReplicaSet, StatefulSet or LeaderWorkerSet "
        "carry the label from their template (Kueue's pod-based integrations). Kueue keeps a Job or JobSet suspended, and gates the pods of the others "
        "with `kueue.x-k8s.io/admission`, until the LocalQueue's ClusterQueue admits the workload. The plan does "
        "not model Kueue's quotas, so it cannot say when that happens: the pods are `WaitingForAdmission` (their "
        "PodGroup too) and the plan exits 1. `--assume-admitted` plans them as if Kueue admitted the object now.",
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: sample\n  labels:\n    kueue.x-k8s.io/queue-name: "
        "user-queue\nspec:\n  suspend: true\n...",
        "wasplan plan --assume-admitted job.yaml --cluster cluster.yaml",
        "Nothing to fix if Kueue should decide; pass `--assume-admitted` to plan the pods as admitted, or plan the "
        "object without the queue label."),
    "WAS625": RuleDoc(
        "With `--assume-admitted`, an object Kueue manages (WAS624) is planned as if Kueue admitted it now: a "
        "suspended Job or JobSet is resumed, and pods are not gated. Whether Kueue's ClusterQueue has the quota "
        "for it is not checked.",
        "wasplan plan --assume-admitted job.yaml --cluster cluster.yaml",
        "wasplan plan job.yaml --cluster cluster.yaml  # the pods wait for Kueue instead (WAS624)",
        "Nothing to fix: a note that the plan assumed the admission; check the ClusterQueue's quota yourself."),
    "WAS626": RuleDoc(
        "Kueue's Topology Aware Scheduling: a pod template annotated `kueue.x-k8s.io/podset-required-topology` "
        "(or `podset-preferred-topology`, `podset-unconstrained-topology`, `podset-slice-required-topology`, "
        "`podset-slice-size`, `podset-group-name`, `podset-topology-spreading`) has Kueue choose a topology domain "
        "when it admits the workload, and pin the pods to it with node selectors behind the "
        "`kueue.x-k8s.io/topology` scheduling gate. wasplan reads no Kueue Topology or ResourceFlavor and does not "
        "make that choice: with `--assume-admitted` the pods go wherever kube-scheduler alone puts them, which can "
        "spread a gang Kueue would keep in one rack. The finding points at each such annotation.",
        "# wasplan plan --assume-admitted job.yaml\nspec:\n  template:\n    metadata:\n      annotations:\n"
        "        kueue.x-k8s.io/podset-required-topology: cloud.provider.com/topology-rack",
        "# without --assume-admitted the pods wait for Kueue (WAS624); or keep the gang in one domain with\n"
        "# kube-scheduler's own topology-aware scheduling (a PodGroup's schedulingConstraints.topology, 1.37)",
        "Read the placement as kube-scheduler's alone: the rack or block Kueue would choose is not in the plan."),
    "WAS663": RuleDoc(
        "A ResourceClaim in the snapshot is reserved (`status.reservedFor`) for a pod that is not in the inputs: "
        "it finished, was deleted, or was left out of the snapshot. The resourceclaim controller "
        "(pkg/controller/resourceclaim/controller.go) removes such entries and deallocates the claim once no "
        "consumer is left; the plan does the same before scheduling, so the claim's devices are free.",
        "kind: ResourceClaim\nmetadata: {name: gpu}\nstatus:\n  allocation: {...}\n  reservedFor:\n  - {resource: "
        "pods, name: trainer-0}   # no such pod",
        "kind: ResourceClaim\nmetadata: {name: gpu}\nstatus: {}   # or add the pod trainer-0 to the snapshot",
        "Nothing to fix: take the snapshot again, or include the pod if it still runs."),
    "WAS690": RuleDoc(
        "The inputs hold a ClusterQueue, so `plan` runs Kueue v0.17.0's admission (the `kueue` block of the plan, "
        "docs/plan.md \"Kueue\"), and Kueue admits the Workload built from this object: it is planned unsuspended, each "
        "PodSet's pod template carrying its flavors' nodeLabels as nodeSelector and their tolerations, as "
        "Kueue's job framework sets them on admission. An information, naming the ClusterQueue and flavors.",
        "# the Job's LocalQueue leads to a ClusterQueue with room for it\nwasplan plan job.yaml kueue-setup.yaml "
        "--cluster cluster.yaml",
        "# the same; nothing to change", "Nothing to fix."),
    "WAS691": RuleDoc(
        "Kueue does not admit the Workload built from this object: it stays Pending (not enough quota left: "
        "`couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 2 more "
        "needed`), is Inadmissible (its LocalQueue or ClusterQueue does not exist or is stopped, its namespace is "
        "not selected), is Preempted, or holds quota while its admission checks are not Ready (QuotaReserved). "
        "Its pods are `WaitingForAdmission` with Kueue's status, reason and message, and `--fail-on pending` "
        "counts it.",
        "# a Job asking for 10 CPUs from a ClusterQueue of 8\nwasplan plan job.yaml kueue-setup.yaml --cluster "
        "cluster.yaml",
        "# the ClusterQueue's nominalQuota raised to 10 (or borrowing from a cohort)\nwasplan plan job.yaml "
        "kueue-setup.yaml --cluster cluster.yaml",
        "`wasplan explain` on the object names what admits it: more quota, a borrowing limit, a priority, another "
        "LocalQueue."),
    "WAS692": RuleDoc(
        "The inputs use something of Kueue that wasplan's admission model does not model yet (the message names "
        "it: topology-aware scheduling's domains, fair sharing, partial admission). The plan shows what the model decides without it, names it, and counts "
        "as incomplete, so `--fail-on pending` exits 1.",
        "# a ResourceFlavor with topologyName, and Jobs requesting a topology\nwasplan plan tas-setup.yaml "
        "jobs.yaml",
        "# the same inputs without topology-aware scheduling\nwasplan plan setup.yaml jobs.yaml",
        "Read the plan's Kueue decisions as approximate for what the message names."),
    "WAS693": RuleDoc(
        "Kueue evicts a Workload that holds quota in the snapshot (preempted to admit a higher-priority one or to "
        "reclaim quota its cohort lent, or drained by a HoldAndDrain queue), and Kueue then stops its job. The plan "
        "takes the job's running pods off their nodes (status Evicted, reason WorkloadEvictedDueTo...) when it can "
        "find them: through the Workload's controller ownerReference to its job, and the job's pods (a Job's "
        "through their controller or the batch.kubernetes.io/job-name label, a JobSet's through its child Jobs or "
        "the jobset.sigs.k8s.io/jobset-name label, a pod group's by kueue.x-k8s.io/pod-group-name). This warning "
        "is for a Workload whose pods it cannot find: they keep their nodes in the plan though Kueue stops them, "
        "and the plan counts as incomplete, so `--fail-on pending` exits 1.",
        "# a snapshot Workload with no ownerReference, its pods with no job label\n"
        "wasplan plan urgent-job.yaml setup.yaml --cluster snapshot.yaml",
        "# the snapshot as kubectl gives it: the Workload names its Job, the pods their Job\n"
        "kubectl get nodes,workloads,jobs,jobsets,pods -A -o yaml > snapshot.yaml\n"
        "wasplan plan urgent-job.yaml setup.yaml --cluster snapshot.yaml",
        "Take the snapshot with the Workloads' jobs and pods, unedited, so the plan can stop the right pods."),
    "WAS694": RuleDoc(
        "Kueue's job framework cannot build a Workload for the object, most often because its "
        "kueue.x-k8s.io/priority-class label (or its pod template's priorityClassName) names a class that does "
        "not exist: the job stays suspended with no Workload at all.",
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: sample\n  labels:\n    kueue.x-k8s.io/queue-name: "
        "user-queue\n    kueue.x-k8s.io/priority-class: missing\n...",
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: sample\n  labels:\n    kueue.x-k8s.io/queue-name: "
        "user-queue\n...",
        "Name a WorkloadPriorityClass (or PriorityClass) that exists."),
    "WAS695": RuleDoc(
        "Kueue admits the object (its ClusterQueue has the quota), but kube-scheduler leaves some of its pods "
        "pending: quota is an accounting of the ClusterQueue, not nodes. The flavor's nodeLabels may match no "
        "node, its taints may be untolerated, or the nodes simply hold less than the quota promises.",
        "# a flavor with nodeLabels {pool: gpu} and no node labelled so\nwasplan plan job.yaml kueue-setup.yaml "
        "--cluster cluster.yaml",
        "# the flavor's nodeLabels as the nodes carry them\nwasplan plan job.yaml kueue-setup.yaml --cluster "
        "cluster.yaml",
        "Match the ResourceFlavor's nodeLabels and tolerations to the nodes, and keep quotas within what the "
        "nodes hold."),
    "WAS696": RuleDoc(
        "The object asks Kueue for topology-aware scheduling (a `kueue.x-k8s.io/podset-required-topology` or "
        "similar annotation on a TAS flavor), and its pods' PodGroup (from the Job's `spec.scheduling` or the "
        "Workload) carries a scheduling.k8s.io `schedulingConstraints.topology` as well. Kueue picks the domains "
        "and pins the pods there without knowing the PodGroup's constraint; kube-scheduler then applies the "
        "constraint within what Kueue left. The plan follows both, and says so.",
        "# a Job with kueue.x-k8s.io/podset-required-topology: rack and spec.scheduling topology on zone\n"
        "wasplan plan job.yaml tas-setup.yaml --cluster cluster.yaml",
        "# only one of the two topology requests\nwasplan plan job.yaml tas-setup.yaml --cluster cluster.yaml",
        "Keep one of the two topology requests."),
    "WAS698": RuleDoc(
        "Kueue's Configuration among the inputs sets something that changes which workloads Kueue admits, or "
        "how, and that wasplan's admission model does not follow: waitForPodsReady, admissionFairSharing, "
        "resources.excludeResourcePrefixes or transformations, manageJobsWithoutQueueName, feature gates, or "
        "integrations.frameworks without an integration the inputs use. The plan names it and counts as "
        "incomplete, so `--fail-on pending` exits 1.",
        "# a Configuration with waitForPodsReady\nwasplan plan jobs.yaml kueue-setup.yaml --cluster "
        "kueue-config.yaml",
        "# the Configuration without it\nwasplan plan jobs.yaml kueue-setup.yaml --cluster kueue-config.yaml",
        "Read the plan's Kueue decisions as approximate for what the message names."),
    "WAS710": RuleDoc(
        "kube-scheduler 1.36.3 binds a pod to a node where the devices of one of its ResourceClaims are not: when "
        "members of a PodGroup share a claim, the first member's cycle allocates it, and DynamicResources' PreFilter "
        "reuses that pending allocation for the later members without recording the nodes it is available on "
        "(pkg/scheduler/framework/plugins/dynamicresources, kubernetes/kubernetes#140087), so their Filter never "
        "checks the allocation's nodeSelector and they may land elsewhere. The plan shows what the release does; "
        "in a real cluster the kubelet cannot prepare the claim there and the pod does not start. Fixed in 1.37 by "
        "kubernetes/kubernetes#140089. The warning names the pod, its node and the claim; `--strict` makes it "
        "exit 1.",
        "wasplan plan gang-sharing-one-claim.yaml --cluster two-gpu-nodes.yaml --k8s-version 1.36",
        "wasplan plan gang-sharing-one-claim.yaml --cluster two-gpu-nodes.yaml --k8s-version 1.37",
        "Plan against 1.37, or keep the members on the claim's node (a nodeSelector or a topology constraint), or "
        "give each member its own claim."),
    "WAS730": RuleDoc(
        "With TopologyAwareWorkloadScheduling on, kube-scheduler 1.38 samples placements: unless "
        "`percentageOfPlacementsToScore` is set, it stops after max(1, N x pct / 100) feasible placements, with pct "
        "= max(5, 100 - nodes x 9 / 500) over the placements' summed node counts, and shuffles them first when it "
        "will not try them all (pkg/scheduler/algorithm_podgroup.go numFeasiblePlacementsToFind, "
        "randShufflePlacements). wasplan tries every placement and keeps the best, which is what "
        "`percentageOfPlacementsToScore: 100` gives; on a cluster with the default the group may land in another "
        "feasible domain. The warning names the group, how many placements it has and after how many upstream "
        "would stop. It is a deliberate difference, like evaluating every node (no percentageOfNodesToScore).",
        "wasplan plan gang-with-rack-constraint.yaml --cluster sixty-racks.yaml --k8s-version 1.38",
        "wasplan plan gang-with-rack-constraint.yaml --cluster sixty-racks.yaml --k8s-version 1.37",
        "Set `percentageOfPlacementsToScore: 100` in the KubeSchedulerConfiguration to make the cluster choose as "
        "the plan does, or accept that the domain may differ."),
    "WAS680": RuleDoc(
        "The file given to `plan --baseline` is not one wasplan Plan document: another kind or apiVersion (a "
        "ValidationReport, a manifest), or several documents. The finding points at the kind, apiVersion or second "
        "document; the run exits 2.",
        "wasplan validate -o json manifests/ > base.json\nwasplan plan manifests/ --cluster c.yaml --baseline base.json",
        "wasplan plan manifests/ --cluster c.yaml -o json > base.json\n"
        "wasplan plan manifests/ --cluster c.yaml --baseline base.json",
        "Save the baseline with `wasplan plan ... -o json` (or `-o yaml`) and pass that file (docs/plan-diff.md)."),
    "WAS681": RuleDoc(
        "A section of the baseline Plan that the diff reads has the wrong shape: `pods`, `podGroups`, "
        "`preemptions` or `resourceClaims` is not a list, or an entry lacks a string `name` or `status`. The "
        "finding points at the first such entry; the run exits 2.",
        '{"apiVersion": "wasplan.io/v1alpha1", "kind": "Plan", "pods": [{"name": 3}]}',
        '{"apiVersion": "wasplan.io/v1alpha1", "kind": "Plan", "pods": [{"name": "w-0", "status": "Bound"}]}',
        "Regenerate the baseline with `wasplan plan ... -o json` instead of editing it by hand."),
    "WAS682": RuleDoc(
        "The baseline Plan was made for another Kubernetes release (`k8sVersion`) than the plan it is compared "
        "with; the diff is still reported, but some differences may come from the release rather than the change.",
        "wasplan plan m/ --cluster c.yaml --k8s-version 1.36 -o json > base.json\n"
        "wasplan plan m/ --cluster c.yaml --k8s-version 1.37 --baseline base.json",
        "wasplan plan m/ --cluster c.yaml --k8s-version 1.37 -o json > base.json\n"
        "wasplan plan m/ --cluster c.yaml --k8s-version 1.37 --baseline base.json",
        "Plan the baseline with the same --k8s-version as the head."),
    # --- WAS8xx: explain -------------------------------------------------------------------------
    "WAS630": RuleDoc(
        "The API server would refuse to create the pod: its priorityClassName names a PriorityClass that neither "
        "the manifests nor the snapshot hold and that is not a system class, or it writes a spec.priority or "
        "spec.preemptionPolicy other than its class gives (Priority admission, plugin/pkg/admission/priority). "
        "The scheduler never sees such a pod, so the plan lists it with status Refused, reason Forbidden and the "
        "server's message, places nothing for it, and fails (exit 1); a Job's pods are refused one by one. "
        "PodGroups are checked the same way (1.36 with WorkloadAwarePreemption, 1.37 with GenericWorkload; 1.37 "
        "CompositePodGroups with CompositePodGroup): a refused PodGroup is never created, its pods wait for it, "
        "and a 1.37 Job whose PodGroup carries the missing class creates no pods at all. Workloads are not "
        "checked. A pod without priorityClassName gets the globalDefault class (the lowest-valued one, should "
        "several claim it): its value and preemptionPolicy.",
        "wasplan plan job.yaml --cluster cluster.yaml   # job.yaml: template.spec.priorityClassName: hihg",
        "wasplan plan job.yaml --cluster cluster.yaml   # priorityClassName: high, a class of the snapshot",
        "Name a PriorityClass that exists (`wasplan lint --cluster` reports the same, WAS433), or add the "
        "PriorityClass to the manifests."),
    "WAS640": RuleDoc(
        "A ResourceSlice has no driver, or its pool has no name or an impossible generation or resourceSliceCount. "
        "The slice is left out of the plan, so its devices cannot be allocated.",
        "kind: ResourceSlice\nspec:\n  driver: gpu.example.com\n  pool: {generation: 1, resourceSliceCount: 1}\n...",
        "kind: ResourceSlice\nspec:\n  driver: gpu.example.com\n  pool: {name: node-a, generation: 1, "
        "resourceSliceCount: 1}\n...",
        "Give the slice its driver and a pool with a name, a generation and resourceSliceCount >= 1."),
    "WAS641": RuleDoc(
        "A ResourceSlice (or a device under perDeviceNodeSelection) must set exactly one of nodeName, nodeSelector, "
        "allNodes and perDeviceNodeSelection; this one sets none or several and is left out.",
        "kind: ResourceSlice\nspec:\n  nodeName: node-a\n  allNodes: true\n...",
        "kind: ResourceSlice\nspec:\n  nodeName: node-a\n...",
        "Keep exactly one node-selection field."),
    "WAS642": RuleDoc(
        "A ResourceSlice device or counter set has no name; that entry is left out.",
        "devices:\n- attributes: {model: {string: a100}}", "devices:\n- name: gpu-0\n  attributes: {model: {string: a100}}",
        "Name every device and counter set."),
    "WAS643": RuleDoc(
        "A device capacity, counter, request policy value or capacity request is not a valid non-negative quantity; "
        "that entry is left out.",
        "capacity:\n  memory: {value: 80 Gi}", "capacity:\n  memory: {value: 80Gi}",
        "Write a Kubernetes quantity (`80Gi`, `500m`)."),
    "WAS644": RuleDoc(
        "A ResourceClaim (or template) request names no device class, sets both or neither of exactly and "
        "firstAvailable, or has an impossible allocationMode or count. The claim cannot be allocated.",
        "requests:\n- name: gpu\n  exactly: {count: 1}", "requests:\n- name: gpu\n  exactly: {deviceClassName: "
        "gpu.example.com, count: 1}",
        "Give each request exactly one of exactly/firstAvailable with a deviceClassName."),
    "WAS645": RuleDoc(
        "A claim constraint sets neither or both of matchAttribute and distinctAttribute, uses an unqualified "
        "attribute name, or names a request the claim does not have. The claim cannot be allocated.",
        "constraints:\n- requests: [gpus]\n  matchAttribute: pcieRoot",
        "constraints:\n- requests: [gpus]\n  matchAttribute: gpu.example.com/pcieRoot",
        "Name the attribute with its domain and only requests of the claim."),
    "WAS646": RuleDoc(
        "A device selector has no CEL expression, or the expression does not compile; the message gives the line "
        "and column inside the expression.",
        "selectors:\n- cel: {expression: 'device.driver == '}",
        "selectors:\n- cel: {expression: 'device.driver == \"gpu.example.com\"'}",
        "Fix the expression (docs/dra-allocation.md lists the CEL environment)."),
    "WAS647": RuleDoc(
        "A ResourceClaim's status.allocation or a status.reservedFor entry cannot be read; the claim is treated as "
        "unallocated (or the entry dropped).",
        "status:\n  reservedFor:\n  - {name: trainer-0}", "status:\n  reservedFor:\n  - {resource: pods, name: "
        "trainer-0, uid: 1234}",
        "Take the claim's status as the API server wrote it (`kubectl get resourceclaims -o yaml`)."),
    "WAS648": RuleDoc(
        "A DRA object's field has the wrong type or an impossible value (a taint effect, a toleration operator, an "
        "owner reference without kind); it is ignored.",
        "taints:\n- {key: maintenance, effect: Sometimes}", "taints:\n- {key: maintenance, effect: NoSchedule}",
        "Use the values resource.k8s.io/v1 allows."),
    "WAS649": RuleDoc(
        "A device attribute does not have exactly one of int, bool, string and version, or its version is not "
        "semver; the attribute is left out.",
        "attributes:\n  driverVersion: {version: '1.2'}", "attributes:\n  driverVersion: {version: 1.2.0}",
        "Give each attribute one typed value; versions are semver (`1.2.0`)."),
    "WAS650": RuleDoc(
        "A DRA object uses a resource.k8s.io version the planner does not read for its kind (v1alpha3, or "
        "DeviceTaintRule in v1beta1; v1beta1 DeviceClass, ResourceClaim, ResourceClaimTemplate and ResourceSlice "
        "are read as the API server converts them); it is left out.",
        "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceClaim\n...",
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n...",
        "Write resource.k8s.io/v1 (served by every release wasplan plans)."),
    "WAS651": RuleDoc(
        "A device selector is valid Kubernetes CEL but calls a function wasplan does not evaluate: timestamps and "
        "durations (a device has none), `format.named` and `validate`. The API server accepts it, the planner "
        "cannot say which devices it selects, so the allocation that depends on it is not trusted.",
        "selectors:\n- cel: {expression: 'timestamp(\"2026-01-01T00:00:00Z\").getFullYear() == 2026'}",
        "selectors:\n- cel: {expression: 'device.attributes[\"gpu.example.com\"].model.lowerAscii() == \"a100\"'}",
        "Write the condition with the functions docs/cel.md lists as modelled."),
    "WAS660": RuleDoc(
        "A pod's or PodGroup's resourceClaims entry names a ResourceClaimTemplate the inputs do not hold. No claim "
        "is generated, so the pod waits (`pod \"ns/name\": ResourceClaim not created yet`).",
        "resourceClaims:\n- {name: gpu, resourceClaimTemplateName: one-gpu}  # no such template",
        "resourceClaims:\n- {name: gpu, resourceClaimTemplateName: one-gpu}  # with the template in the inputs",
        "Add the ResourceClaimTemplate to the manifests or the snapshot, or fix the name."),
    "WAS661": RuleDoc(
        "A resourceClaims entry names a ResourceClaim the inputs do not hold; the pod waits for it.",
        "resourceClaims:\n- {name: gpu, resourceClaimName: shared-gpu}  # no such claim",
        "resourceClaims:\n- {name: gpu, resourceClaimName: shared-gpu}  # with the claim in the inputs",
        "Add the ResourceClaim (the snapshot's `kubectl get resourceclaims -A -o yaml`), or fix the name."),
    "WAS662": RuleDoc(
        "A ResourceClaim or template request names a DeviceClass the inputs do not hold; pods using it stay pending "
        "with `request <req>: device class <class> does not exist`.",
        "exactly: {deviceClassName: gpu.example.com}  # no such DeviceClass",
        "exactly: {deviceClassName: gpu.example.com}  # with the DeviceClass in the snapshot",
        "Add the DeviceClass the driver installs (`kubectl get deviceclasses -o yaml`), or fix the name."),
    "WAS801": RuleDoc(
        "The explain TARGET is malformed or names no object of the inputs; the message suggests close names.",
        "wasplan explain podgroup/trainer manifests/ --cluster cluster.yaml",
        "wasplan explain podgroup/trainers manifests/ --cluster cluster.yaml",
        "Use KIND/NAME (or KIND/NAMESPACE/NAME) of an object in the inputs."),
    "WAS802": RuleDoc(
        "The explain TARGET's name exists in several namespaces.",
        "wasplan explain podgroup/trainers manifests/ --cluster cluster.yaml",
        "wasplan explain podgroup/ml/trainers manifests/ --cluster cluster.yaml",
        "Give the namespace with -n or as KIND/NAMESPACE/NAME."),
    "WAS803": RuleDoc(
        "The --node-shape file holds no Node object or Cluster node pool, so there is no shape to suggest.",
        "wasplan explain manifests/ --cluster cluster.yaml --node-shape values.yaml",
        "wasplan explain manifests/ --cluster cluster.yaml --node-shape shapes/h100-node.yaml",
        "Point --node-shape at a Node manifest or a Cluster kind file."),
    # --- WAS9xx: configuration -------------------------------------------------------------------
    "WAS901": RuleDoc(
        "The config file (.wasplan.yaml, .wasplan.yml, [tool.wasplan] in pyproject.toml, or --config FILE) could "
        "not be read or parsed, or is not a mapping. Exit code 2.",
        "# .wasplan.yaml\nexclude: [charts/\n", "# .wasplan.yaml\nexclude: [charts/]\n",
        "Fix the syntax at the line shown, or run with --no-config."),
    "WAS902": RuleDoc(
        "The config file has a key wasplan does not know. Keys are the long command-line option names; a typo "
        "would otherwise silently do nothing. Exit code 2.",
        "# .wasplan.yaml\nk8s_version: '1.36'\n", "# .wasplan.yaml\nk8s-version: '1.36'\n",
        "Use one of the keys the message lists; `wasplan config` prints them with their values."),
    "WAS903": RuleDoc(
        "A config value has the wrong type or an impossible value (an unsupported release, a non-boolean "
        "strict, an unknown fail-on). Exit code 2.",
        "# .wasplan.yaml\nstrict: yes please\n", "# .wasplan.yaml\nstrict: true\n",
        "Write the value the message asks for."),
    "WAS904": RuleDoc(
        "--select, --ignore or a per-file-ignores entry names something that is no diagnostic code or code "
        "prefix, so it would select or ignore nothing. Exit code 2.",
        "wasplan lint . --ignore WAS4O4", "wasplan lint . --ignore WAS404",
        "Use a code or prefix that `wasplan rules` lists."),
    "WAS905": RuleDoc(
        "A KubeSchedulerConfiguration given with --scheduler-config names a plugin (enabled, disabled or in "
        "pluginConfig) that the release's in-tree registry does not hold but that is close to one that it does. "
        "kube-scheduler refuses to start with an unknown enabled plugin and ignores an unknown disabled one or its "
        "args, so the plugin meant stays as it was. Exit code 2, with the file, line and the likely name.",
        "plugins:\n  score:\n    enabled:\n    - name: ImageLocalty\n",
        "plugins:\n  score:\n    enabled:\n    - name: ImageLocality\n",
        "Spell the plugin as kube-scheduler's registry does (the suggestion)."),
    "WAS906": RuleDoc(
        "A KubeSchedulerConfiguration given with --scheduler-config names an out-of-tree plugin (for instance "
        "kubernetes-sigs/scheduler-plugins' Coscheduling): the stock kube-scheduler of the release does not start "
        "with it, and wasplan, which models the in-tree plugins only, cannot plan what that scheduler would do. "
        "Exit code 2.",
        "plugins:\n  multiPoint:\n    enabled:\n    - name: Coscheduling\n",
        "plugins:\n  multiPoint:\n    enabled:\n    - name: GangScheduling\n",
        "Plan with an in-tree profile (the workload-aware GangScheduling plugin and scheduling.k8s.io PodGroups "
        "are modelled), or leave the out-of-tree plugin out of the configuration given to wasplan."),
    "WAS907": RuleDoc(
        "The configuration file's (or WASPLAN_FEATURE_GATES') feature-gates names a gate the release removed "
        "because its feature is always on (1.38: PodGroupPreemptionPolicy, DynamicResourceAllocation). Kube "
        "components refuse it with `unrecognized feature gate`, and so does wasplan, at the file and line. "
        "Exit code 2.",
        "k8s-version: '1.38'\nfeature-gates:\n  PodGroupPreemptionPolicy: true\n",
        "k8s-version: '1.38'\nfeature-gates:\n  GenericWorkload: true\n",
        "Remove the gate; its feature is on in that release."),
}
