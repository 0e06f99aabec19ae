"""Huge pages are off inside the sort's block, restored after it, also on errors."""

from __future__ import annotations

import sys

import pytest

from kgdiff.store.hugepages import huge_pages_disabled, without_huge_pages

switchable = pytest.mark.skipif(
    huge_pages_disabled() is None, reason="the kernel cannot switch transparent huge pages"
)


@switchable
def test_the_block_runs_without_huge_pages_and_restores_the_setting() -> None:
    before = huge_pages_disabled()
    with without_huge_pages():
        assert huge_pages_disabled() is True
    assert huge_pages_disabled() is before


@switchable
def test_the_setting_is_restored_when_the_block_fails() -> None:
    before = huge_pages_disabled()
    with pytest.raises(RuntimeError), without_huge_pages():
        raise RuntimeError("a bucket failed")
    assert huge_pages_disabled() is before


@switchable
def test_a_process_that_had_them_off_keeps_them_off() -> None:
    with without_huge_pages():
        with without_huge_pages():
            pass
        assert huge_pages_disabled() is True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_linux_can_always_tell() -> None:
    assert huge_pages_disabled() is not None
