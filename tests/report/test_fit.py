"""Text that fits: wrapping only between words, and node lists folded (`gpu-r1-[0-3]`, `+12 more`)."""

from __future__ import annotations

from wasplan.report.fit import compress, summarize, wrap


def test_wrap_never_breaks_a_token_and_keeps_hyphenated_words_whole():
    text = "Feature gates, e.g. GenericWorkload=true,CompositePodGroup=false. Verified by re-planning."
    assert wrap(text, 30, "  ", "    ") == [
        "  Feature gates, e.g.",
        "    GenericWorkload=true,CompositePodGroup=false.",
        "    Verified by re-planning.",
    ]


def test_consecutive_numbered_names_fold_into_ranges_in_natural_order():
    names = ["gpu-r1-3", "gpu-r1-0", "gpu-r1-2", "gpu-r1-1", "gpu-r2-0", "cpu-a", "n-9", "n-10", "n-11"]
    assert compress(names) == [("cpu-a", 1), ("gpu-r1-[0-3]", 4), ("gpu-r2-0", 1), ("n-[9-11]", 3)]


def test_two_names_in_a_row_stay_names_and_zero_padding_is_kept_apart():
    assert compress(["a-1", "a-2"]) == [("a-1", 1), ("a-2", 1)]
    assert compress(["n08", "n09", "n10", "n11"]) == [("n[08-11]", 4)]
    assert compress(["n8", "n9", "n010"]) == [("n8", 1), ("n9", 1), ("n010", 1)]


def test_summary_cuts_to_the_width_and_counts_the_names_left_out():
    names = [f"gpu-{i}" for i in range(0, 40, 2)]  # no runs: every other node
    assert summarize(names, 40) == "gpu-0, gpu-2, gpu-4, gpu-6, +16 more"
    assert summarize([f"gpu-r1-{i}" for i in range(16)] + ["cpu-a", "cpu-b"], 80) == "cpu-a, cpu-b, gpu-r1-[0-15]"
    assert summarize([f"gpu-r1-{i}" for i in range(16)] + ["cpu-a", "cpu-b"], 20) == "cpu-a, +17 more"
