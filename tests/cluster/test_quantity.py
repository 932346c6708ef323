"""Quantities against the cases of upstream's table tests.

Model: k8s.io/apimachinery/pkg/api/resource/quantity_test.go (TestQuantityParse, TestQuantityParseZero,
TestQuantityString / canonical forms, the `invalid` list) — values re-derived here, not copied.
"""

from fractions import Fraction

import pytest

from wasplan.api.quantity import (
    BINARY_SI, DECIMAL_EXPONENT, DECIMAL_SI, QuantityError, format_amount, format_milli_cpu, parse_quantity,
)

# text, exact amount, format, canonical string
PARSE_CASES = [
    ("0", 0, DECIMAL_SI, "0"),
    ("0n", 0, DECIMAL_SI, "0"),
    ("0Ki", 0, BINARY_SI, "0"),
    ("-0", 0, DECIMAL_SI, "0"),
    ("1", 1, DECIMAL_SI, "1"),
    ("+1", 1, DECIMAL_SI, "1"),
    ("-1", -1, DECIMAL_SI, "-1"),
    ("1.5", Fraction(3, 2), DECIMAL_SI, "1500m"),
    (".5", Fraction(1, 2), DECIMAL_SI, "500m"),
    ("1.", 1, DECIMAL_SI, "1"),
    ("100m", Fraction(1, 10), DECIMAL_SI, "100m"),
    ("0.1m", Fraction(1, 10000), DECIMAL_SI, "100u"),
    ("1n", Fraction(1, 10**9), DECIMAL_SI, "1n"),
    ("0.0001n", Fraction(1, 10**9), DECIMAL_SI, "1n"),  # rounded up to the smallest unit, never to zero
    ("1u", Fraction(1, 10**6), DECIMAL_SI, "1u"),
    ("1k", 1000, DECIMAL_SI, "1k"),
    ("1000k", 10**6, DECIMAL_SI, "1M"),
    ("1M", 10**6, DECIMAL_SI, "1M"),
    ("1G", 10**9, DECIMAL_SI, "1G"),
    ("1T", 10**12, DECIMAL_SI, "1T"),
    ("1P", 10**15, DECIMAL_SI, "1P"),
    ("1E", 10**18, DECIMAL_SI, "1E"),
    ("1Ki", 1024, BINARY_SI, "1Ki"),
    ("1Mi", 2**20, BINARY_SI, "1Mi"),
    ("1Gi", 2**30, BINARY_SI, "1Gi"),
    ("1Ti", 2**40, BINARY_SI, "1Ti"),
    ("1Pi", 2**50, BINARY_SI, "1Pi"),
    ("1Ei", 2**60, BINARY_SI, "1Ei"),
    ("1.5Gi", 3 * 2**29, BINARY_SI, "1536Mi"),
    ("1024Mi", 2**30, BINARY_SI, "1Gi"),
    ("0.5Ki", 512, BINARY_SI, "512"),  # under 1024 a binary amount is shown in decimal
    ("12Mi", 12 * 2**20, BINARY_SI, "12Mi"),
    ("15896020Ki", 15896020 * 1024, BINARY_SI, "15896020Ki"),
    ("2097152Ki", 2 * 2**30, BINARY_SI, "2Gi"),
    ("1e3", 1000, DECIMAL_EXPONENT, "1e3"),
    ("1E3", 1000, DECIMAL_EXPONENT, "1e3"),
    ("1e+3", 1000, DECIMAL_EXPONENT, "1e3"),
    ("1.5e-3", Fraction(3, 2000), DECIMAL_EXPONENT, "1500e-6"),
    ("2e0", 2, DECIMAL_EXPONENT, "2"),
    ("8Ei", 2**63 - 1, BINARY_SI, "9223372036854775807"),  # binary amounts are capped at 2^63-1
    ("9Ei", 2**63 - 1, BINARY_SI, "9223372036854775807"),
    ("0.5", Fraction(1, 2), DECIMAL_SI, "500m"),
]


@pytest.mark.parametrize("text,amount,fmt,canonical", PARSE_CASES)
def test_parse_and_canonical_form(text, amount, fmt, canonical):
    q = parse_quantity(text)
    assert q.amount == amount
    assert q.format == fmt
    assert str(q) == canonical
    # the canonical spelling parses back to the same amount
    assert parse_quantity(canonical).amount == amount


INVALID = [
    "", " 1", "1 ", "10 Gi", "1Gib", "1.5.5", "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i",
    "-3.01e-", "1e", "1e+", "1e3k", "1E3Ki", "1e+-3", "1..5", "1K", "1ki", "1KI", "1KiB", "1Zi", "1Z", "1µ", "1,5",
    "1_000", "0x10", "1/2", "Inf", "NaN", "-", ".", "Ki", "1e99999",
]


@pytest.mark.parametrize("text", INVALID)
def test_malformed_quantities_are_rejected(text):
    with pytest.raises(QuantityError):
        parse_quantity(text)


@pytest.mark.parametrize("raw", [True, None, [1], {"a": 1}, float("inf"), float("nan")])
def test_non_quantity_values_are_rejected(raw):
    with pytest.raises(QuantityError):
        parse_quantity(raw)


@pytest.mark.parametrize("text,milli,value", [
    ("1", 1000, 1), ("100m", 100, 1), ("0.1m", 1, 1), ("1.5", 1500, 2), ("1500m", 1500, 2),
    ("1n", 1, 1), ("2Gi", 2 * 2**30 * 1000, 2 * 2**30), ("1001m", 1001, 2), ("1000001u", 1001, 2),
    ("-1.5", -1500, -2), ("0", 0, 0),
])
def test_milli_value_and_value_round_up(text, milli, value):
    q = parse_quantity(text)
    assert q.milli_value() == milli
    assert q.value() == value


def test_yaml_numbers_are_quantities():
    """`cpu: 2` and `cpu: 0.5` arrive as int and float from YAML and mean what they say."""
    assert parse_quantity(2).milli_value() == 2000
    assert parse_quantity(0.5).milli_value() == 500
    assert parse_quantity(1e-05).amount == Fraction(1, 100000)


def test_output_formatters():
    assert format_milli_cpu(1500) == "1500m"
    assert format_milli_cpu(2000) == "2"
    assert format_amount(2**30, binary=True) == "1Gi"
    assert format_amount(1000) == "1k"
    assert format_amount(0) == "0"
