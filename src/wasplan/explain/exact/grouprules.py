"""Rules of the program that count the group's own pods across nodes: pods sharing a node-local claim on one
node (`together`, devices.py), network-attached devices taken once for the whole group (`totals`, devices.py),
required anti-affinity between the group's own pods on a key other than the hostname (`apart`),
required pod affinity among them that keeps them in one domain (`close`), hard topology spread among them
(`spread`; all three from domainrules.py).

A pattern says how many pods of each shape a node *may* take (every subset of it fits too), so these rules
cannot count patterns: they count placed pods. Per (class, shape) an integer `w` holds the pods of that shape
the class's nodes take, at most what its patterns allow; the shape's supply becomes the sum of `w` (and of the
pooled classes' pods), and the rules bound `w`. A real assignment sets `w` to what it places, so each rule is
still a necessary condition and "no assignment" stays a proof. Pooled classes cannot say which node or domain
a pod is in; there the rules count what they can (totals) and leave the rest to the replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from wasplan.explain.exact.classes import Program


def add(m: "cp_model.CpModel", program: "Program", y: dict, x: dict) -> list[list]:
    """The placed-pod variables and the rules on them; returns each shape's new supply."""
    w = _placed(m, program, y)
    supply: list[list] = [[] for _ in program.counts]
    for (k, s), v in sorted(w.items()):
        supply[s].append(v)
    for (k, s), v in x.items():
        supply[s].append(v)
    _together(m, program, w)
    _totals(m, program, w, x)
    _apart(m, program, w, x)
    _close(m, program, w, x)
    _spread(m, program, w, x)
    return supply


def _placed(m: "cp_model.CpModel", program: "Program", y: dict) -> dict[tuple[int, int], "cp_model.IntVar"]:
    w = {}
    for k, c in enumerate(program.classes):
        for s, count in enumerate(program.counts):
            room = [pattern[s] * y[(k, p)] for p, pattern in enumerate(c.patterns) if pattern[s]]
            if room:
                most = min(count, c.count * max(pattern[s] for pattern in c.patterns))
                w[(k, s)] = m.new_int_var(0, most, f"w{k}_{s}")
                m.add(w[(k, s)] <= sum(room))
    return w


def _together(m: "cp_model.CpModel", program: "Program", w: dict) -> None:
    """Pods sharing a node-local claim use one node: one class at most holds them, and no more than one of its
    nodes does."""
    for group in program.together:
        holds = []
        for k, c in enumerate(program.classes):
            terms = [w[(k, s)] for s in group if (k, s) in w]
            if not terms:
                continue
            h = m.new_bool_var(f"t{k}_{group[0]}")
            m.add(sum(terms) <= max(sum(pattern[s] for s in group) for pattern in c.patterns) * h)
            holds.append(h)
        if holds:
            m.add(sum(holds) <= 1)


def _totals(m: "cp_model.CpModel", program: "Program", w: dict, x: dict) -> None:
    """Columns the whole group shares (network-attached devices): what all its pods take stays within the
    cluster's free amount."""
    for col, total in program.totals:
        per = program.requests[:, col]
        used = [int(per[s]) * v for (_, s), v in sorted(w.items()) if per[s]]
        used += [int(per[s]) * v for (_, s), v in x.items() if per[s]]
        if used:
            m.add(sum(used) <= total)


def _apart(m: "cp_model.CpModel", program: "Program", w: dict, x: dict) -> None:
    """Shapes kept in different domains of a key: per domain, one pod of a shape kept apart from itself, and
    never pods of both shapes of a pair."""
    for column, pairs in program.apart:
        pods: dict[tuple[int, int], list] = {}  # (domain code, shape) -> its placed-pod variables there
        for (k, s), v in sorted(w.items()):
            code = program.classes[k].tags[column]
            if code >= 0:
                pods.setdefault((code, s), []).append(v)
        for (k, s), v in x.items():
            if program.pooled[k].tags[column] >= 0:
                pods.setdefault((program.pooled[k].tags[column], s), []).append(v)
        used = {}
        for (code, s), terms in sorted(pods.items()):
            used[(code, s)] = m.new_bool_var(f"a{column}_{code}_{s}")
            m.add(sum(terms) <= program.counts[s] * used[(code, s)])
        for code in sorted({c for c, _ in pods}):
            for i, j in pairs:
                if i == j and (code, i) in pods:
                    m.add(sum(pods[(code, i)]) <= 1)
                elif (code, i) in used and (code, j) in used:
                    m.add(used[(code, i)] + used[(code, j)] <= 1)


def _close(m: "cp_model.CpModel", program: "Program", w: dict, x: dict) -> None:
    """Shapes whose pods share one domain of a key (the group's own required pod affinity): one domain at most
    holds any of them, and none goes to a node without the key."""
    for column, group in program.close:
        pods = _per_code(program, w, x, column, group)
        if -1 in pods:
            m.add(sum(pods.pop(-1)) == 0)
        most = sum(program.counts[s] for s in group)
        used = []
        for code, terms in sorted(pods.items()):
            used.append(m.new_bool_var(f"c{column}_{code}"))
            m.add(sum(terms) <= most * used[-1])
        if used:
            m.add(sum(used) <= 1)


def _per_code(program: "Program", w: dict, x: dict, column: int, shapes: tuple[int, ...]) -> dict[int, list]:
    """Domain code of the tag column -> the placed-pod variables of `shapes` there."""
    pods: dict[int, list] = {}
    for (k, s), v in sorted(w.items()):
        if s in shapes:
            pods.setdefault(program.classes[k].tags[column], []).append(v)
    for (k, s), v in x.items():
        if s in shapes:
            pods.setdefault(program.pooled[k].tags[column], []).append(v)
    return pods


def _spread(m: "cp_model.CpModel", program: "Program", w: dict, x: dict) -> None:
    """Hard spread among the group's pods: every counted domain that receives one holds at most maxSkew more
    matching pods than the fewest in a counted domain, all placed (topology_spread.exact_domains says why that is
    necessary). Pods in a domain the engine does not count are left to the replay."""
    for rule in program.spread:
        pods = _per_code(program, w, x, rule.column, rule.shapes)
        most = sum(program.counts[s] for s in rule.shapes) + max(rule.running, default=0)
        final = {}
        for code in rule.counted:
            final[code] = m.new_int_var(0, most, f"f{rule.column}_{code}")
            m.add(final[code] == rule.running[code] + sum(pods.get(code, [])))
        if not final:
            continue
        low = m.new_int_var(0, 0 if rule.min_zero else most, f"low{rule.column}")
        if not rule.min_zero:
            m.add_min_equality(low, list(final.values()))
        for code, terms in sorted(pods.items()):
            if code in final:
                used = m.new_bool_var(f"s{rule.column}_{code}")
                m.add(sum(terms) <= most * used)
                m.add(final[code] - low <= rule.max_skew + most * (1 - used))
