"""The plan's consequential ties as the reports say them (docs/plan-json.md "Ties"): one sentence per tie, shared
by the text, Markdown and HTML reports so they word it alike, and the rows the HTML table shows.

A tie is listed by the engine only when its choices evict different pods (engine/preemption/ties.py); the
sentence names how many equally scored choices kube-scheduler draws from, what each evicts (the victims' names
when there are a few), which one the plan carries out, and what `--fail-on preemption` makes of it: it fails
when any of the choices preempts, since any of them may be the one drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.plan import Alternative, Plan
from wasplan.words import plural

NAMED_VICTIMS = 3  # up to this many victims are named; more are counted
LISTED = 5  # choices a sentence spells out (the plan's own always among them); the JSON lists more


@dataclass(frozen=True, slots=True)
class TieView:
    kind: str  # PodGroup | Pod
    key: str  # ns/name of the group or the preemptor
    sentence: str
    rows: tuple[tuple[str, str, int, str, bool], ...]  # (label, nodes, victim count, victims named, chosen)


def _what(kind: str, count: int) -> str:
    return f"{count} equally scored placements" if kind == "PodGroup" else f"{count} equally ranked preemption nodes"


def _evicts(alt: Alternative) -> str:
    if not alt.victims:
        return f"{alt.label} evicts nothing"
    named = f": {', '.join(alt.victims)}" if len(alt.victims) <= NAMED_VICTIMS else ""
    return f"{alt.label} evicts {plural(len(alt.victims), 'pod')}{named}"


def fail_on_note(alternatives: tuple[Alternative, ...]) -> str:
    preempting = sum(1 for a in alternatives if a.victims)
    if preempting == len(alternatives):
        return "--fail-on preemption fails whichever is drawn"
    return f"--fail-on preemption fails: {preempting} of {len(alternatives)} preempt"


def tie_sentence(kind: str, key: str, alternatives: tuple[Alternative, ...], tied: int = 0) -> str:
    """`tie: PodGroup ml/train: kube-scheduler picks one of 3 equally scored placements at random: block-0
    evicts 16 pods (the plan's choice); block-1 evicts 1 pod: research/notebook; ...`."""
    shown = _listed(alternatives)
    tied = max(tied, len(alternatives))
    parts = [_evicts(a) + (" (the plan's choice)" if a.chosen else "") for a in shown]
    if len(shown) < tied:
        parts.append(f"{tied - len(shown)} more (see the JSON plan)")
    return (f"tie: {kind} {key}: kube-scheduler picks one of {_what(kind, tied)} at random: "
            + "; ".join(parts) + f" ({fail_on_note(alternatives)})")


def _listed(alternatives: tuple[Alternative, ...]) -> tuple[Alternative, ...]:
    """The first LISTED choices by name, the plan's own in place of the last when it comes later."""
    if len(alternatives) <= LISTED:
        return alternatives
    head = alternatives[:LISTED]
    chosen = next((a for a in alternatives if a.chosen), None)
    return head if chosen is None or chosen in head else (*head[:-1], chosen)


def tie_views(plan: Plan) -> tuple[TieView, ...]:
    return tuple(TieView(kind, key, tie_sentence(kind, key, alts, tied),
                         tuple((a.label, ", ".join(a.nodes), len(a.victims),
                                ", ".join(a.victims) if len(a.victims) <= NAMED_VICTIMS else "", a.chosen)
                               for a in alts))
                 for kind, key, alts, tied in plan.ties())
