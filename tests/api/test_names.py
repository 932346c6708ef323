"""The name formats against apimachinery's `pkg/api/validate/content` (dns.go IsDNS1123Label / IsDNS1123Subdomain,
kube.go IsLabelKey / IsLabelValue), at the boundary lengths, and through `validate` on real manifests: a kubeadm
static pod named after a 40-character kind node (issue 30) is a valid Pod name."""

import pytest

from wasplan.api.names import is_dns_label, is_dns_subdomain, is_label_value, is_qualified_name

L63, L64 = "a" * 63, "a" * 64


@pytest.mark.parametrize("value,ok", [
    ("a", True), ("0", True), (L63, True), (L64, False), ("", False), ("a-b", True), ("-a", False), ("a-", False),
    ("a.b", False), ("A", False), ("a_b", False), ("a\n", False), ("é", False), (None, False), (5, False)])
def test_dns_label(value, ok):
    assert is_dns_label(value) is ok


@pytest.mark.parametrize("value,ok", [
    ("a", True), ("a.b", True), ("a" * 253, True), ("a" * 254, False), (L64, True), (f"{L64}.{L64}.{L63}", True),
    ("kube-controller-manager-dra-example-driver-cluster-control-plane", True), ("", False), ("a..b", False),
    (".a", False), ("a.", False), ("a-.b", False), ("a.-b", False), ("A.b", False), ("a_b", False), ("a\n", False),
    ("x" * 126 + "." + "y" * 126, True), ("x" * 127 + "." + "y" * 126, False)])
def test_dns_subdomain_bounds_the_whole_name_only(value, ok):
    assert is_dns_subdomain(value) is ok


@pytest.mark.parametrize("value,ok", [
    ("app", True), ("App.Name_1", True), (L63, True), (L64, False), ("example.com/" + L63, True),
    ("example.com/" + L64, False), (L64 + "/x", True), ("a" * 253 + "/x", True), ("a" * 254 + "/x", False),
    ("/x", False), ("x/", False), ("a/b/c", False), ("-x", False), ("x_", False), ("", False), ("x\n", False),
    ("Example.com/x", False)])
def test_qualified_name(value, ok):
    assert is_qualified_name(value) is ok


@pytest.mark.parametrize("value,ok", [
    ("", True), ("v", True), ("V1.2_3-x", True), (L63, True), (L64, False), ("-v", False), ("v.", False),
    ("a/b", False), ("v\n", False), (None, False)])
def test_label_value(value, ok):
    assert is_label_value(value) is ok
