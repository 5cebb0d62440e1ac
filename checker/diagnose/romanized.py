"""The documents' Chinese words as an engine may write them in pinyin (无花果: `wu_hua_guo`, `wuhuaguo`, `wu hua
guo`, `Wu Hua Guo`): a name an engine gives a scoring step or a cap is read against the document's sentences about
it in these forms too (checker.diagnose.notation), and a fan's Chinese name stands for its pattern in them
(checker.diagnose.answers `FanNames`). Tone marks are dropped; the romanization is pypinyin's."""
from __future__ import annotations

import re
from functools import lru_cache

from pypinyin import lazy_pinyin

_HAN = re.compile(r"[\u4e00-\u9fff]+")
_SEPARATORS = re.compile(r"[\s_\-]+")


@lru_cache(maxsize=None)
def romanized(words: str) -> frozenset[str]:
    """Every run of Chinese characters in `words` (and each of its sub-runs of two or more characters) in pinyin,
    its syllables joined by `_` and run together, lower case."""
    out: set[str] = set()
    for run in _HAN.findall(words):
        syllables = lazy_pinyin(run)
        for start in range(len(syllables)):
            for stop in range(start + 2, len(syllables) + 1):
                part = syllables[start:stop]
                out.update(("_".join(part), "".join(part)))
    return frozenset(out)


def in_pinyin(name: str, words: str) -> bool:
    """Whether an engine's `name` is a run of the Chinese words in `words` in pinyin (any case; syllables joined by
    `_`, `-`, spaces or nothing)."""
    key = _SEPARATORS.sub("_", name.strip().lower())
    return bool(key) and (key in romanized(words) or key.replace("_", "") in romanized(words))


def spelled(name: str) -> tuple[str, ...]:
    """A Chinese name (all of it Chinese characters, two or more) in pinyin: its syllables joined by `_` and run
    together (清一色: `qing_yi_se`, `qingyise`); none for any other name."""
    if len(name) < 2 or _HAN.fullmatch(name) is None:
        return ()
    syllables = lazy_pinyin(name)
    return ("_".join(syllables), "".join(syllables))
