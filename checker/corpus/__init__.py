"""Coverage-directed test corpora (issue 10, items 1-2): cases in DESIGN.md's case format that together
exercise every rule of a spec, with expectations from the reference engine (checker.engine, through
checker.case: no second scorer).

One concept per module: `candidates` (seeded candidate hands as case inputs, per ruleset), `witnesses`
(a hand for each pattern, exclusion pair, boundary and settlement path), `readings` (a hand where the
readings of an option part), `invalid` (bad inputs and hands that may not win, with their `error`),
`generate` (assembling a corpus), `coverage_table` (rule id → cases, and what no case covers).

The shipped corpora: `shipped` (by name: `--corpus mcr` from any directory), `manifest` (each corpus's version,
and every case id frozen to the content it names), `canonical` (a case's tile fields in canonical form, as the
corpora hold them and as every case is sent to an engine under test).
"""
