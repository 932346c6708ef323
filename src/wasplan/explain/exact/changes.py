"""Changes that let the real engine find an assignment the exact check proved to exist, each verified by
re-running the whole plan (explain/rerun.py's Verifier) before it is shown.

* `scoringStrategy`: NodeResourcesFit scoring by MostAllocated instead of LeastAllocated. kube-scheduler spreads
  a gang's first pods over the emptiest nodes, and a later, bigger member then finds no node with room for it;
  bin packing keeps whole nodes free. Written as the KubeSchedulerConfiguration to pass with
  `--scheduler-config` (upstream pkg/scheduler/apis/config/v1 types: pluginConfig[].args.scoringStrategy).
* `move`: when the group does not fit as the pods run now but does with some running pods on other nodes
  (moves.py), those pods' nodes in the files that bind them.
* `firstAvailable`: the claim templates' `firstAvailable` lists with the subrequest the witness's pods use
  first (devicechanges.py). The allocator takes the first subrequest that fits for each pod alone and never
  revisits it (kubernetes/kubernetes issue 138765: "whole" before "half" leaves no half for the next member);
  re-planned, on its own and, when neither it nor bin packing does it, together with MostAllocated.
* `pinNodes`: each pending pod's `spec.nodeSelector` names its node in the witness
  (`kubernetes.io/hostname`), for pods written in the user's own files; heavy-handed, offered when the
  scoring change does not do it.
"""

from __future__ import annotations

import dataclasses

from wasplan.cluster.model import PlanInputs
from wasplan.engine.facade import DEFAULT_SCHEDULER, ScoringStrategy
from wasplan.explain import manifest, rerun
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.exact import devicechanges
from wasplan.explain.exact.result import Answer, Choice, MovesAnswer, TreeAnswer
from wasplan.explain.model import Change, Suggestion
from wasplan.words import plural

HOSTNAME = "kubernetes.io/hostname"
NEW_CONFIG = "kube-scheduler-config.yaml"
API = "kubescheduler.config.k8s.io/v1"


def suggestions(ctx: Context, subj: Subject, answer: Answer, config_path: str | None) -> tuple[Suggestion, ...]:
    """The first change whose re-planned run places the group: the firstAvailable order when the witness's pods
    use other subrequests than the allocator tries first (the devices, not the nodes, are what it misses), then
    bin packing, then pins."""
    return _first_verified((lambda: reorder(ctx, subj, answer.subrequests), lambda: scoring(ctx, subj, config_path),
                            lambda: reorder(ctx, subj, answer.subrequests, True, config_path),
                            lambda: pin(ctx, subj, answer)))


def for_tree(ctx: Context, subj: Subject, whole: TreeAnswer, config_path: str | None) -> tuple[Suggestion, ...]:
    """The same for a CompositePodGroup tree's assignment (no pins: the tree's pods are many groups')."""
    return _first_verified((lambda: reorder(ctx, subj, whole.subrequests), lambda: scoring(ctx, subj, config_path),
                            lambda: reorder(ctx, subj, whole.subrequests, True, config_path)))


def _first_verified(tries) -> tuple[Suggestion, ...]:
    for attempt in tries:
        found = attempt()
        if found is not None:
            return (found,)
    return ()


def reorder(ctx: Context, subj: Subject, choices: tuple[Choice, ...], pack: bool = False,
            config_path: str | None = None) -> Suggestion | None:
    """The claim templates' firstAvailable lists with the witness's subrequests first (devicechanges.py), verified
    by re-planning; with `pack`, together with MostAllocated scoring (when the nodes are what the order misses
    as well as the devices)."""
    found = devicechanges.reordered(ctx.inputs, choices)
    if found is None:
        return None
    variant, edits = found
    if not pack:
        if not ctx.verifier.places(subj.unit, variant):
            return None
        return Suggestion("firstAvailable", "offer first the subrequest the assignment uses", devicechanges.WHY,
                          edits)
    packed = _packed(ctx, subj)
    if packed is None or not replan_with(ctx, packed[0], subj.unit, variant):
        return None
    change = _config_change(config_path, subj.pending[0].scheduler_name, packed[1])
    return Suggestion("firstAvailable", "offer first the subrequest the assignment uses, and score nodes by "
                      "MostAllocated", devicechanges.WHY + "; bin packing keeps whole nodes free for the later "
                      "members, which the order alone does not", (*edits, change))


def _strategy_value(strategy: ScoringStrategy) -> dict:
    return {"type": "MostAllocated", "resources": [{"name": n, "weight": w} for n, w in strategy.resources]}


def _packed(ctx: Context, subj: Subject) -> tuple | None:
    """(the engine options with the pods' profile scoring by MostAllocated, the scoringStrategy value), or None
    when the profile already does."""
    options = ctx.verifier.options
    name = subj.pending[0].scheduler_name
    profile = options.profiles.get(name)
    if profile is None or profile.fit_strategy.type == "MostAllocated":
        return None
    packed = dataclasses.replace(profile, fit_strategy=ScoringStrategy("MostAllocated", profile.fit_strategy.resources))
    return (dataclasses.replace(options, profiles={**options.profiles, name: packed}),
            _strategy_value(profile.fit_strategy))


def scoring(ctx: Context, subj: Subject, config_path: str | None) -> Suggestion | None:
    packed = _packed(ctx, subj)
    if packed is None or not replan_with(ctx, packed[0], subj.unit):
        return None
    change = _config_change(config_path, subj.pending[0].scheduler_name, packed[1])
    return Suggestion("scoringStrategy", "score nodes by MostAllocated (bin packing)",
                      "the default LeastAllocated scoring spreads the group's pods over the emptiest nodes, so a "
                      "later member finds no node with room; packing them keeps whole nodes free, and the re-planned "
                      "run places the group (the profile scores every other pod the same way: plan with it to see "
                      "them)", (change,))


def replan_with(ctx: Context, options, unit, inputs: PlanInputs | None = None) -> bool:
    """Whether the plan re-run with other engine options (and `inputs`, default the command's) places `unit`; the
    run counts against the command's verification budget like every other re-run (and does not happen once it
    is spent)."""
    own = ctx.verifier
    other = rerun.Verifier(ctx.inputs, options, own.base, own.budget)
    other.runs, other.seconds = own.runs, own.seconds
    placed = other.places(unit, inputs if inputs is not None else ctx.inputs)
    own.runs, own.seconds, own.skipped = other.runs, other.seconds, own.skipped + other.skipped
    return placed


def _config_change(path: str | None, scheduler: str, strategy: dict) -> Change:
    args = {"name": "NodeResourcesFit", "args": {"scoringStrategy": strategy}}
    if path is None:
        doc = {"apiVersion": API, "kind": "KubeSchedulerConfiguration",
               "profiles": [{"schedulerName": scheduler, "pluginConfig": [args]}]}
        return Change("add", NEW_CONFIG, "KubeSchedulerConfiguration", "", doc)
    from wasplan.documents.reader import read_paths

    doc = next(iter(read_paths([path]).documents), None)
    profiles = (doc.obj.get("profiles") if doc is not None else None) or []
    i = next((k for k, p in enumerate(profiles) if (p.get("schedulerName") or DEFAULT_SCHEDULER) == scheduler), 0)
    entries = (profiles[i].get("pluginConfig") if profiles else None) or []
    j = next((k for k, e in enumerate(entries) if e.get("name") == "NodeResourcesFit"), None)
    if j is None:
        return manifest.change("add", doc, ("profiles", i, "pluginConfig", len(entries)), args)
    return manifest.change("set", doc, ("profiles", i, "pluginConfig", j, "args", "scoringStrategy"), strategy)


def move(ctx: Context, answer: MovesAnswer) -> Suggestion | None:
    """The verified moves as edits: each moved pod's node in the file that binds it, when every one has its own
    place in the files."""
    if not answer.verified or not answer.moves:
        return None
    world = ctx.sim.world
    edits = [manifest.pod_move(world.pods[m.pod].pod, m.target) for m in answer.moves]
    if any(e is None for e in edits):
        return None
    listed = ", ".join(f"{m.pod} {m.source} -> {m.target}" for m in answer.moves)
    return Suggestion("move", f"move {plural(len(answer.moves), 'running pod')}: {listed}",
                      "the free room is split across nodes so that no node holds a pod of the group; these pods "
                      "fit elsewhere, and the re-planned run with them moved places the group", tuple(edits))


def pin(ctx: Context, subj: Subject, answer: Answer) -> Suggestion | None:
    """Each witness pod's nodeSelector names its node; only for pods in the user's own Pod documents."""
    where = {key: n.node for n in answer.witness for key in n.pods}
    pods = [p for p in subj.pending if p.key in where]
    nodes = {n.name: n for n in ctx.sim.state.nodes}
    if not pods or any(p.source is None or p.owner is not None for p in pods):
        return None
    if any(nodes[where[p.key]].labels.get(HOSTNAME) != where[p.key] for p in pods):
        return None
    variant = rerun.with_pods(ctx.inputs, set(where), lambda p: dataclasses.replace(
        p, node_selector={**p.node_selector, HOSTNAME: where[p.key]}))
    if not ctx.verifier.places(subj.unit, variant):
        return None
    changes = tuple(manifest.pod_change(ctx.documents, p, ("nodeSelector", HOSTNAME), where[p.key]) for p in pods)
    return Suggestion("pinNodes", "pin each pod to its node in the assignment",
                      "the exact check found an assignment the scheduler's order misses; a nodeSelector per pod "
                      "leaves it one choice, and the re-planned run places the group", changes)
