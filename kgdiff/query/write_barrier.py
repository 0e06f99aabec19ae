"""Forbid the calling process, for the rest of its life, to change any file or to open a TCP
connection (Linux Landlock). The last wall of kgdiff/query/safe_sql.py.

DuckDB's own guards do not keep a query from writing into the store: with the store's
folder in ``allowed_directories`` (so that the views can read it), ``COPY ... TO`` and
``EXPORT DATABASE`` may write there too, on a read-only connection. Only the parser checks
refuse those statements; this makes the kernel refuse the writes themselves, whatever
reaches DuckDB. Reading stays allowed (DuckDB confines it to the store), so do the pipe
and the files the process opened before.

Landlock needs Linux 5.13 (TCP rules: 6.7) and a kernel that enables it; elsewhere
:func:`forbid_writes` does nothing and says so, and the other walls stand alone.
"""

from __future__ import annotations

import ctypes
import os

CREATE_RULESET, RESTRICT_SELF = 444, 446  # the same number on every architecture
CREATE_RULESET_VERSION = 1
PR_SET_NO_NEW_PRIVS = 38

# LANDLOCK_ACCESS_FS_*: every right that changes the file system. Execute, read file and
# read dir are left out, so they stay allowed.
WRITE_RIGHTS_V1 = sum(1 << bit for bit in (1, *range(4, 13)))  # write, remove, make *
REFER = 1 << 13  # ABI 2: link or rename across folders
TRUNCATE = 1 << 14  # ABI 3
TCP_BIND_AND_CONNECT = 0b11  # ABI 4: LANDLOCK_ACCESS_NET_BIND_TCP | _CONNECT_TCP


class _Ruleset(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64)]


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when it has none (or it is disabled)."""
    libc = ctypes.CDLL(None, use_errno=True)
    version = int(libc.syscall(CREATE_RULESET, None, ctypes.c_size_t(0), CREATE_RULESET_VERSION))
    return max(version, 0)


def forbid_writes() -> bool:
    """Deny this process and its children every file-system change and TCP connection;
    False (and nothing done) when the kernel has no Landlock."""
    abi = landlock_abi()
    if abi < 1:
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    fs_rights = WRITE_RIGHTS_V1 | (REFER if abi >= 2 else 0) | (TRUNCATE if abi >= 3 else 0)
    ruleset = _Ruleset(fs_rights, TCP_BIND_AND_CONNECT if abi >= 4 else 0)
    # an ABI-1..3 kernel knows only the first field; a larger size with it set is refused
    size = ctypes.sizeof(ruleset) if abi >= 4 else ctypes.sizeof(ctypes.c_uint64)
    fd = int(libc.syscall(CREATE_RULESET, ctypes.byref(ruleset), ctypes.c_size_t(size), 0))
    if fd < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        # without no_new_privs the kernel lets only a privileged process restrict itself
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        if libc.syscall(RESTRICT_SELF, fd, 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(fd)
    return True
