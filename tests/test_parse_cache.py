"""The parse cache (checker.parse_cache): a spec's text parsed once, what it gave read back at the next load;
it changes how fast a spec loads, never what the load gives."""
from __future__ import annotations

import datetime
import json

import pytest
import yaml

from checker import parse_cache, spec
from checker.engine import load_ruleset, load_ruleset_file
from checker.spec import SpecError, read_yaml, ruleset_path


@pytest.fixture
def cache(tmp_path, monkeypatch):
    where = tmp_path / "cache"
    monkeypatch.setenv("MJCHECK_CACHE_DIR", str(where))
    return where


def entries(where):
    return sorted((where / "specs").glob("*.json")) if (where / "specs").is_dir() else []


def parsing_fails(monkeypatch):
    """From here on, parsing YAML raises: a load that still succeeds read the cache."""
    def refuse(*args, **kwargs):
        raise AssertionError("the text was parsed again")

    monkeypatch.setattr(yaml, "CSafeLoader", refuse)
    monkeypatch.setattr(spec, "_NoAliasLoader", refuse)


def test_a_spec_is_parsed_once_and_read_back_the_same(cache, monkeypatch):
    first = load_ruleset("mcr")
    data, lines = read_yaml(ruleset_path("mcr"))
    assert len(entries(cache)) == 1
    parsing_fails(monkeypatch)
    again = load_ruleset("mcr")
    data_again, lines_again = read_yaml(ruleset_path("mcr"))
    assert data_again == data and lines_again.by_pointer == lines.by_pointer
    assert again.warnings == first.warnings and all(w.line for w in again.warnings)  # lines kept too
    assert [p.id for p in again.patterns] == [p.id for p in first.patterns] and again.options == first.options


def test_a_changed_text_is_parsed_again_and_a_bad_entry_is_a_miss(cache, tmp_path, monkeypatch):
    path = tmp_path / "tiny.yaml"
    path.write_text("id: one\n", encoding="utf-8")
    assert read_yaml(path)[0] == {"id": "one"}
    path.write_text("id: two\n", encoding="utf-8")  # another text: another entry, not the first one's data
    assert read_yaml(path)[0] == {"id": "two"} and len(entries(cache)) == 2
    for entry in entries(cache):
        entry.write_bytes(b'{"format": 1, "data": {"id": "forged"}, "lines": {"": "one"}}')  # not lines
    assert read_yaml(path)[0] == {"id": "two"}
    stored = json.loads([e for e in entries(cache) if b"two" in e.read_bytes()][0].read_bytes())
    assert stored["data"] == {"id": "two"} and stored["lines"] == {"": 1, "/id": 1}  # written again, whole
    for damage in (b"", b"{not json", b"[]", b'{"format": 0, "data": 1, "lines": {}}'):
        for entry in entries(cache):
            entry.write_bytes(damage)
        assert read_yaml(path)[0] == {"id": "two"}


def test_what_json_cannot_hold_exactly_is_not_kept(cache):
    for data in ({"when": datetime.date(2026, 12, 2)}, {1: "a key that is not a string"}, {"nan": float("nan")},
                 {"big": 2 ** 70}):
        parse_cache.store(f"text for {data!r}", data, {"": 1})
    assert not entries(cache)
    parse_cache.store("a text", {"fine": [1, 2.5, True, None, "text"]}, {"": 1})
    assert len(entries(cache)) == 1 and parse_cache.cached("a text") == ({"fine": [1, 2.5, True, None, "text"]}, {"": 1})


def test_no_cache_when_turned_off_or_not_writable(tmp_path, monkeypatch):
    monkeypatch.setenv("MJCHECK_CACHE_DIR", "off")
    assert parse_cache.cache_dir() is None
    assert load_ruleset("shanghai-classic").id == "shanghai-classic"
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("MJCHECK_CACHE_DIR", str(blocked))
    assert load_ruleset("shanghai-classic").id == "shanghai-classic"  # nothing written, nothing raised
    monkeypatch.delenv("MJCHECK_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert parse_cache.cache_dir() == tmp_path / "xdg" / "mjcheck"


def test_issues_found_on_a_cached_text_still_name_their_lines(cache, tmp_path, monkeypatch):
    # a spec that parses but does not validate: its issue names line 3 (`patterns:` holds a string)
    path = tmp_path / "broken.yaml"
    path.write_text("id: broken\ntitle: x\npatterns: not a list\n", encoding="utf-8")
    with pytest.raises(SpecError) as first:
        load_ruleset_file(path)
    parsing_fails(monkeypatch)
    with pytest.raises(SpecError) as again:
        load_ruleset_file(path)
    assert [(i.pointer, i.line) for i in again.value.issues] == [(i.pointer, i.line) for i in first.value.issues]
    assert ("/patterns", 3) in [(i.pointer, i.line) for i in again.value.issues]


def test_lines_are_where_each_node_starts_the_first_of_a_repeated_key(cache, tmp_path):
    path = tmp_path / "lines.yaml"
    path.write_text("a:\n  - x\n  - y: 1\n    z: 2\nb/c: 3\na: again\n", encoding="utf-8")
    data, lines = read_yaml(path)
    assert data == {"a": "again", "b/c": 3}  # the loader keeps the last of a repeated key
    # lines: the document 1, /a 2 (the first `a`, as a reader finds it), /a/0 2, /a/1 3, /a/1/z 4, /b~1c 5
    assert [lines.line(p) for p in ("", "/a", "/a/0", "/a/1", "/a/1/y", "/a/1/z", "/b~1c")] == [1, 2, 2, 3, 3, 4, 5]
    assert lines.line("/a/1/missing/deeper") == 3 and lines.line("/nowhere") == 1  # the deepest node that exists


def test_an_entry_is_read_only_from_a_directory_of_ones_own_and_only_from_a_regular_file(cache, tmp_path):
    import os

    path = tmp_path / "tiny.yaml"
    path.write_text("id: mine\n", encoding="utf-8")
    assert read_yaml(path)[0] == {"id": "mine"}
    (entry,) = entries(cache)
    written = entry.read_bytes()
    os.chmod(cache / "specs", 0o777)
    try:
        assert read_yaml(path)[0] == {"id": "mine"}  # a directory others may write: parsed again, nothing kept
        assert entry.read_bytes() == written
    finally:
        os.chmod(cache / "specs", 0o700)
    entry.unlink()
    os.mkfifo(entry)  # a named pipe where an entry should be: passed over at once, never waited on
    assert read_yaml(path)[0] == {"id": "mine"}


def test_writing_keeps_the_most_recent_entries_and_clears_what_a_cut_write_left(cache):
    import os
    import time

    specs = cache / "specs"
    specs.mkdir(parents=True, mode=0o700)
    cut = "." + "ab" * 32 + ".json."
    stale, fresh = specs / f"{cut}stale123.tmp", specs / f"{cut}fresh123.tmp"  # left by writes cut short
    for path in (stale, fresh):
        path.write_bytes(b"{")
    os.utime(stale, (time.time() - 7200, time.time() - 7200))
    for n in range(parse_cache.MAX_ENTRIES + 6):
        parse_cache.store(f"text {n}", {"n": n}, {"": 1})
    assert len(entries(cache)) == parse_cache.MAX_ENTRIES
    last = parse_cache.MAX_ENTRIES + 5
    assert parse_cache.cached(f"text {last}") == ({"n": last}, {"": 1})  # the one just written is kept
    assert not stale.exists() and fresh.exists()


# ---------------------------------------------------------------- entries carry a keyed checksum (issue 24)

def key_file(where):
    return where / "specs" / parse_cache.KEY_NAME


def test_a_planted_entry_with_other_valid_data_is_not_used(cache):
    title = load_ruleset("mcr").title
    (entry,) = entries(cache)
    planted = json.loads(entry.read_bytes())  # well formed, under the right name, every field kept
    planted["data"]["title"]["en"] = "Planted title"
    entry.write_bytes(json.dumps(planted).encode())
    assert load_ruleset("mcr").title == title  # the spec loads as its YAML says...
    assert json.loads(entry.read_bytes())["data"]["title"]["en"] == title  # ...and the entry is written again


def test_an_entry_moved_under_another_texts_name_is_not_used(cache):
    parse_cache.store("text one", {"id": "one"}, {"": 1})
    parse_cache.store("text two", {"id": "two"}, {"": 1})
    one, two = (parse_cache._entry(text) for text in ("text one", "text two"))
    two.write_bytes(one.read_bytes())  # verified where it was written, not where it was put
    assert parse_cache.cached("text two") is None and parse_cache.cached("text one") == ({"id": "one"}, {"": 1})


def test_a_damaged_entry_never_blocks_a_ruleset(cache, monkeypatch):
    load_ruleset("mcr")
    (entry,) = entries(cache)
    shape = json.loads(entry.read_bytes())
    shape["data"] = {"id": "mcr"}  # the right outer shape, data the schema refuses
    entry.write_bytes(json.dumps(shape).encode())
    assert load_ruleset("mcr").id == "mcr"
    # an entry whose checksum verifies but whose content does not load is a miss too
    secret = key_file(cache).read_bytes()
    name = entry.name.removesuffix(".json")
    for body in (b'"format": 2, "data": {', b'"format": 2, "data": 1, "lines": []}',
                 b'"format": 2, "data": 1, "lines": {"": "one"}}', b'"format": 0, "data": 1, "lines": {}}'):
        entry.write_bytes(parse_cache._seal(secret, name, body))
        assert load_ruleset("mcr").id == "mcr"


def test_pruning_removes_only_the_caches_own_entries_and_follows_no_link(cache, tmp_path):
    import os
    import time

    specs = cache / "specs"
    specs.mkdir(parents=True, mode=0o700)
    notes, outside, elsewhere = specs / "notes.json", tmp_path / "outside.json", tmp_path / "elsewhere.json"
    for path in (notes, outside, elsewhere):
        path.write_text('{"kept": true}')
    linked, entry_named = specs / "linked.json", specs / ("cd" * 32 + ".json")
    linked.symlink_to(outside)
    entry_named.symlink_to(elsewhere)
    long_ago = time.time() - 86400
    for path in (notes, linked, entry_named):
        os.utime(path, (long_ago, long_ago), follow_symlinks=False)
    for n in range(parse_cache.MAX_ENTRIES + 6):
        parse_cache.store(f"text {n}", {"n": n}, {"": 1})
    own = [p for p in entries(cache) if p.is_file() and not p.is_symlink() and p.name != "notes.json"]
    assert len(own) == parse_cache.MAX_ENTRIES
    assert notes.read_text() == '{"kept": true}' and linked.is_symlink()  # not the cache's: left alone
    assert outside.read_text() == '{"kept": true}' and elsewhere.read_text() == '{"kept": true}'


def test_a_key_file_that_is_a_link_has_the_wrong_size_or_is_not_private_is_not_trusted(cache, tmp_path):
    import os

    path = tmp_path / "tiny.yaml"
    path.write_text("id: mine\n", encoding="utf-8")
    assert read_yaml(path)[0] == {"id": "mine"}
    key, (entry,) = key_file(cache), entries(cache)
    assert len(key.read_bytes()) == parse_cache.KEY_BYTES and key.stat().st_mode & 0o777 == 0o600
    name = entry.name.removesuffix(".json")
    body = b'"format": 2, "data": {"id": "planted"}, "lines": {"": 1}}'
    known = tmp_path / "known-key"
    known.write_bytes(b"k" * parse_cache.KEY_BYTES)
    os.chmod(known, 0o600)

    def planted_with(secret, make_key):
        key.unlink()
        make_key()
        entry.write_bytes(parse_cache._seal(secret, name, body))
        return read_yaml(path)[0]

    assert planted_with(b"k" * parse_cache.KEY_BYTES, lambda: key.symlink_to(known)) == {"id": "mine"}
    assert known.read_bytes() == b"k" * parse_cache.KEY_BYTES  # the link's target left alone
    assert not key.is_symlink() and key.read_bytes() != b"k" * parse_cache.KEY_BYTES  # a new key of its own
    assert planted_with(b"short", lambda: key.write_bytes(b"short")) == {"id": "mine"}
    assert len(key.read_bytes()) == parse_cache.KEY_BYTES

    def readable_by_others():
        key.write_bytes(b"k" * parse_cache.KEY_BYTES)
        os.chmod(key, 0o644)

    assert planted_with(b"k" * parse_cache.KEY_BYTES, readable_by_others) == {"id": "mine"}
    assert key.stat().st_mode & 0o777 == 0o600
    # the entry written again under the new key is read back, the text not parsed again
    assert parse_cache.cached("id: mine\n") == ({"id": "mine"}, {"": 1, "/id": 1})


def test_no_cache_when_no_key_can_be_made(cache, tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text("id: mine\n", encoding="utf-8")
    key_file(cache).mkdir(parents=True)  # a directory where the key file goes: no key, so no entry
    assert read_yaml(path)[0] == {"id": "mine"} and not entries(cache)
    assert key_file(cache).is_dir() and sorted(p.name for p in (cache / "specs").iterdir()) == [parse_cache.KEY_NAME]
