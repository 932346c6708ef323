"""CEL device selectors in `wasplan validate`: each finding at the file line and column of the fault.

A literal block (`|`) maps expression line N to the N-th line of the block; plain and quoted one-line scalars
add the column inside the expression to the scalar's column. Codes: WAS230 syntax, WAS231 undeclared names,
WAS232 unknown functions, WAS233 types, WAS234 cost, WAS235 length.
"""

from __future__ import annotations

from _manifests import docs, gates

from wasplan.validate.checker import check_document

CLASS = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
"""


def findings(text: str, release: str = "1.37"):
    (doc,) = docs(text)
    return [(d.code, d.location.line, d.location.col, d.message, d.hint)
            for d in check_document(doc, gates(release)).diagnostics]


def test_syntax_error_on_the_third_line_of_a_block_scalar():
    found = findings(CLASS + """\
  - cel:
      expression: |
        device.driver == "gpu.example.com" &&
          device.attributes["gpu.example.com"].cores >= 64 &&
          device.attributes["gpu.example.com"].model = "a100"
""")
    assert found == [("WAS230", 10, 54, "CEL syntax error: unexpected character '=' (expression line 3, column 46)",
                      "compare with `==`; a single `=` is not a CEL operator")]


def test_unknown_function_with_did_you_mean_in_a_block_scalar():
    found = findings(CLASS + """\
  - cel:
      expression: |-
        device.driver == "gpu.example.com" &&
          device.attributes["gpu.example.com"].model.strtsWith("a1")
""")
    assert found == [("WAS232", 9, 54, "CEL undeclared reference to 'strtsWith' (in container '') (expression line 2, "
                      "column 46)", "did you mean startsWith()?")]


def test_type_error_in_a_double_quoted_scalar():
    found = findings(CLASS + """\
  - cel: {expression: "device.driver == 3"}
""")
    assert found == [("WAS233", 6, 38, "CEL found no matching overload for '_==_' applied to '(string, int)' "
                      "(column 15)", "a string compares only with a string: quote the number, or convert with "
                      "int()/string()")]


def test_bare_attribute_name_in_a_claim_template_selector():
    found = findings("""\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        firstAvailable:
        - name: big
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: device.driver == "gpu.example.com" && productName == "H100"
""", "1.36")
    assert found == [("WAS231", 14, 65, "CEL undeclared reference to 'productName' (in container '') (column 39)",
                      'attributes are read through the device and their domain: write device.attributes["<driver '
                      'domain>"].productName (e.g. device.attributes["gpu.example.com"].productName)')]


def test_cost_over_the_limit_points_at_the_expression():
    found = findings(CLASS + """\
  - cel:
      expression: >-
        device.attributes.all(a, device.attributes.all(b, device.attributes.all(c,
        device.attributes[c].all(k, k.size() > 1))))
""")
    assert found == [("WAS234", 8, 9, "CEL too complex, exceeds cost limit: estimated worst-case cost 6,559,939 is "
                      "above 1,000,000", "avoid nested comprehensions (all/exists/map/filter) over attributes and "
                      "lists; read the attributes you need by name")]


def test_a_folded_scalar_is_pointed_at_with_the_column_in_the_message():
    found = findings(CLASS + """\
  - cel:
      expression: >
        device.driver == "a" &&
        device.drivr == "b"
""")
    assert found == [("WAS231", 9, 16, "CEL undefined field 'drivr' (column 32)", "did you mean device.driver?")]


def test_result_must_be_bool_and_length_is_limited():
    long = "device.driver == '" + "x" * 10240 + "'"
    found = findings(CLASS + "  - cel: {expression: device.driver}\n  - cel:\n      expression: \"" + long + "\"\n")
    assert [f[:3] for f in found] == [("WAS233", 6, 23), ("WAS235", 8, 7)]
    assert found[0][3] == "CEL must evaluate to bool or the unknown type, not string"
    assert found[1][3] == "CEL expression is 10,259 bytes long, more than the limit of 10,240"


def test_valid_selectors_in_every_place_are_clean():
    assert findings(CLASS + """\
  - cel:
      expression: |
        device.driver == "gpu.example.com" &&
        device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0
  - cel: {expression: 'cel.bind(g, device.attributes["gpu.example.com"], g.model in ["a100", "h100"])'}
""") == []


def test_a_block_scalar_starting_with_a_blank_line_keeps_its_columns():
    found = findings(CLASS + """\
  - cel:
      expression: |

        device.driver == "gpu.example.com" &&
        device.drivr == "x"
""")
    assert [f[:4] for f in found] == [("WAS231", 10, 16, "CEL undefined field 'drivr' (expression line 3, column 8)")]


def test_expression_indented_beside_cel_as_in_the_published_website_example():
    """kubernetes/website content/en/examples/dra/resourceclaim.yaml (commit 36162b11) as published: `expression`
    sits at the level of `cel:`, so the selector has no CEL at all."""
    found = findings("""\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: example-resource-claim
spec:
  devices:
    requests:
    - name: single-gpu-claim
      exactly:
        deviceClassName: example-device-class
        allocationMode: All
        selectors:
        - cel:
          expression: |-
              device.attributes["driver.example.com"].type == "gpu" &&
              device.capacity["driver.example.com"].memory == quantity("64Gi")
""")
    assert [f[:3] for f in found] == [("WAS227", 13, 11), ("WAS101", 14, 11)]
    assert found[0][3:] == ("device selector has no cel expression (the API server requires selectors[].cel)",
                            "`expression` belongs under `cel:`: indent it one level deeper")
