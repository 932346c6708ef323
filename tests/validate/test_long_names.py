"""`validate` on names at the API server's limits (apimachinery objectmeta.go ValidateObjectMeta with each kind's
name rule, ValidateLabels, ValidateAnnotations, generic.go maskTrailingDash): a 64-character Pod name from a kind
cluster is valid, 254 characters is not; label keys and values and generateName prefixes are checked."""

from pathlib import Path

from tests.cli.helpers import run

STATIC_POD = "kube-controller-manager-dra-example-driver-cluster-control-plane"


def _pod(name_field: str, extra_meta: str = "") -> str:
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  {name_field}\n  namespace: kube-system\n{extra_meta}"
            "spec:\n  containers:\n  - name: c\n    image: x\n")


def _validate(tmp_path: Path, text: str) -> tuple[int, str]:
    path = tmp_path / "pod.yaml"
    path.write_text(text)
    result = run("validate", str(path))
    return result.exit_code, result.output


def test_a_kubeadm_static_pod_name_of_64_characters_is_valid(tmp_path):
    assert len(STATIC_POD) == 64
    code, out = _validate(tmp_path, _pod(f"name: {STATIC_POD}"))
    assert code == 0, out


def test_a_253_character_name_is_valid_and_254_is_not(tmp_path):
    name = ".".join(["a" * 100, "b" * 100, "c" * 51])
    assert _validate(tmp_path, _pod(f"name: {name}"))[0] == 0
    code, out = _validate(tmp_path, _pod(f"name: {name}c"))
    assert code == 1 and "WAS107" in out and "pod.yaml:4:" in out


def test_label_keys_and_values_are_checked(tmp_path):
    meta = "  labels:\n    app: " + "v" * 64 + "\n    bad/key/x: ok\n    fine.example.com/x: \"\"\n"
    code, out = _validate(tmp_path, _pod("name: p", meta))
    assert code == 1
    assert out.count("WAS107") == 2
    assert "label key 'bad/key/x'" in out and "label app=" in out


def test_generate_name_is_a_prefix_with_one_trailing_dash(tmp_path):
    assert _validate(tmp_path, _pod("generateName: worker-"))[0] == 0
    code, out = _validate(tmp_path, _pod("generateName: Worker-"))
    assert code == 1 and "metadata.generateName 'Worker-'" in out


def test_a_generate_name_whose_generated_names_are_invalid(tmp_path):
    """`a.-` passes the prefix check (maskTrailingDash makes it `aa`) but `a.-7jvs7` is not a name (oracle
    validate 1.36 reports metadata.name)."""
    code, out = _validate(tmp_path, _pod("generateName: a.-"))
    assert code == 1 and "metadata.generateName 'a.-' gives names that are not DNS subdomains" in out
