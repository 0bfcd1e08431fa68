import pytest

from core.solver.errors import ScenarioError
from handoff.solver.hostlist import hostlist, hostlist_expand, node_pattern, number_ranges


def test_consecutive_numbers_make_one_range_and_gaps_split_it():
    assert list(number_ranges([5, 1, 2, 3, 7, 8])) == [(1, 3), (5, 5), (7, 8)]
    assert hostlist("gpu", [1, 2, 3, 5, 7, 8], 4) == "gpu[0001-0003,0005,0007-0008]"


def test_one_name_is_not_bracketed_and_no_names_is_empty():
    assert hostlist("gpu", [42], 4) == "gpu0042"
    assert hostlist("gpu", [], 4) == ""


def test_a_suffix_follows_the_brackets_and_expansion_gives_back_every_name():
    expression = hostlist("dgx", [1, 2, 10], 3, "-ib")
    assert expression == "dgx[001-002,010]-ib"
    assert hostlist_expand(expression) == ["dgx001-ib", "dgx002-ib", "dgx010-ib"]
    assert hostlist_expand("su[01-02],spines") == ["su01", "su02", "spines"]


def test_the_default_pattern_is_gpu_with_at_least_four_digits():
    assert node_pattern(None, 128).name(0) == "gpu0001"
    assert node_pattern("", 20_000).name(19_999) == "gpu20000"


def test_a_stated_pattern_numbers_from_one_with_its_padding():
    pattern = node_pattern("dgx-###.ib", 128)
    assert (pattern.name(0), pattern.name(127)) == ("dgx-001.ib", "dgx-128.ib")
    assert pattern.hostlist(range(32)) == "dgx-[001-032].ib"


@pytest.mark.parametrize("text", ["gpu", "gpu##x##", "#gpu", "gpu ##", "gpu[##]"])
def test_a_pattern_without_one_run_of_hashes_is_refused_at_node_pattern(text):
    with pytest.raises(ScenarioError) as raised:
        node_pattern(text, 10)
    assert raised.value.errors[0].path == "node_pattern"


def test_too_few_digits_for_the_nodes_are_refused():
    with pytest.raises(ScenarioError, match="2 digits cannot number 128 nodes"):
        node_pattern("gpu##", 128)
