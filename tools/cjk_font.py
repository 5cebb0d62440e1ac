"""Make the CJK font report.html carries inside itself (checker/conform/fonts/): the glyphs of every Chinese
character the shipped rulesets' names use (patterns and win shapes) and report.html's template, cut from Noto
Sans CJK SC Regular (SIL Open Font License 1.1, kept beside it as OFL.txt), renamed, as WOFF.

    python tools/cjk_font.py [--source /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc]

Needs fontTools (`pip install fonttools`), a tool of the spec authors only: the font it writes is checked in, and
its characters listed in cjk.chars, which tests/test_report_html.py compares with the shipped specs' names (a
name with a character the font lacks fails there: run this again). Debian: apt install fonts-noto-cjk.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

from checker.spec import available_rulesets, load_ruleset

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "checker" / "conform" / "fonts"
SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
FAMILY = "Noto Sans CJK SC"
RENAMED = "mjcheck CJK subset"  # report.html's @font-face family


def is_cjk(ch: str) -> bool:
    """A character drawn from the CJK font: ideographs, CJK punctuation and full-width forms."""
    return 0x2E80 <= ord(ch) <= 0x9FFF or 0xF900 <= ord(ch) <= 0xFAFF or 0xFF00 <= ord(ch) <= 0xFFEF


def wanted() -> str:
    """Every CJK character of the shipped rulesets' pattern and shape names and of report.html's template."""
    found: set[str] = set()
    for ruleset_id in available_rulesets():
        rs = load_ruleset(ruleset_id)
        for text in [p.name_zh or "" for p in rs.patterns] + [getattr(s, "name_zh", "") or "" for s in rs.win.shapes]:
            found.update(ch for ch in text if is_cjk(ch))
    template = (ROOT / "checker" / "conform" / "templates" / "report.html.j2").read_text(encoding="utf-8")
    found.update(ch for ch in template if is_cjk(ch))
    return "".join(sorted(found))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=SOURCE)
    args = parser.parse_args()
    collection = TTCollection(args.source)
    font = next(f for f in collection.fonts if f["name"].getDebugName(1) == FAMILY)
    chars = wanted()
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)
    for record in font["name"].names:  # a modified font under its own name (the OFL's condition 3)
        if record.nameID in (1, 4, 16):
            record.string = RENAMED
        elif record.nameID == 6:
            record.string = RENAMED.replace(" ", "")
    font.flavor = "woff"
    OUT.mkdir(parents=True, exist_ok=True)
    font.save(str(OUT / "cjk.woff"))
    (OUT / "cjk.chars").write_text(chars + "\n", encoding="utf-8")
    print(f"{len(chars)} characters, {(OUT / 'cjk.woff').stat().st_size:,} bytes: {OUT / 'cjk.woff'}")


if __name__ == "__main__":
    main()
