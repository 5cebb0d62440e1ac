"""`count_case_lines`: the count a conformance run tells its progress before it streams a corpus must be the
number of lines `read_cases` then gives (checker.conform.runner), whatever the lines hold."""
from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.case import count_case_lines, read_cases
from checker.inputs import MAX_CASE_LINE_BYTES

A_CASE = b'{"id": "x", "ruleset": "mcr", "kind": "score", "input": {}}'
PIECES = [A_CASE, b"", b"   ", b"\t\r", b"# a comment", b"  # indented comment", b"{not json", b"\xff\xfe bad utf-8",
          "\u3000".encode(), "\u3000# after an ideographic space".encode(), b"\xef\xbb\xbf#", b"\xc2\xa0",
          b"x" * (MAX_CASE_LINE_BYTES + 10), b" " * (MAX_CASE_LINE_BYTES + 10),
          b"\x1c", b"\x1f# a comment after a separator str.strip() strips", b"# a comment \xff not UTF-8"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12), st.sampled_from([b"\n", b"\r\n"]), st.booleans())
def test_the_count_is_what_read_cases_gives(pieces, ending, final_ending):
    data = ending.join(pieces) + (ending if final_ending and pieces else b"")
    given_lines = list(read_cases(io.BytesIO(data), "corpus"))
    assert count_case_lines(io.BytesIO(data)) == len(given_lines)


def test_lines_a_resumed_run_has_are_not_counted_and_numbers_follow_the_lines_before():
    data = b"\n".join([A_CASE, b"", A_CASE, b"# c", A_CASE]) + b"\n"  # cases on lines 1, 3 and 5
    assert count_case_lines(io.BytesIO(data)) == 3
    assert count_case_lines(io.BytesIO(data), leaving={1, 5}) == 1
    assert count_case_lines(io.BytesIO(data), lines_before=10, leaving={13}) == 2  # a shard from line 11
