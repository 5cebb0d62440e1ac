"""The hunt: searches for contradictions, ambiguities and gaps in the rulesets (mjcheck hunt)."""
