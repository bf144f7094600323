#!/usr/bin/env python3
"""Write a staging directory as a newc cpio archive (the initramfs format),
reproducibly and without root: entries sorted by name, owner 0:0, one
mtime for all, inode numbers in order, plus device nodes given on the
command line (which an unprivileged build cannot create in the directory).

    newc.py STAGE OUT [--mtime N] [--node PATH:c|b:MAJOR:MINOR:MODE]...
"""
import argparse
import os
import stat
import sys


def header(ino, mode, nlink, size, mtime, rmaj=0, rmin=0, namesize=0):
    fields = [ino, mode, 0, 0, nlink, mtime, size, 0, 0, rmaj, rmin, namesize, 0]
    return b"070701" + b"".join(b"%08X" % f for f in fields)


def pad4(n):
    return b"\0" * ((4 - n % 4) % 4)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("stage")
    ap.add_argument("out")
    ap.add_argument("--mtime", type=int, default=0)
    ap.add_argument("--node", action="append", default=[])
    a = ap.parse_args()
    entries = []
    for top, dirs, files in os.walk(a.stage):
        for n in dirs + files:
            full = os.path.join(top, n)
            entries.append((os.path.relpath(full, a.stage), full))
    nodes = {}
    for spec in a.node:
        path, kind, maj, mnr, mode = spec.split(":")
        nodes[path.lstrip("/")] = (kind, int(maj), int(mnr), int(mode, 8))
    names = sorted(set([e[0] for e in entries]) | set(nodes))
    full = dict(entries)
    out = bytearray()
    for ino, name in enumerate(names, start=1):
        bname = name.encode() + b"\0"
        data = b""
        if name in nodes:
            kind, maj, mnr, perm = nodes[name]
            mode = (stat.S_IFCHR if kind == "c" else stat.S_IFBLK) | perm
            h = header(ino, mode, 1, 0, a.mtime, maj, mnr, len(bname))
        else:
            st = os.lstat(full[name])
            if stat.S_ISLNK(st.st_mode):
                data = os.readlink(full[name]).encode()
                mode = stat.S_IFLNK | 0o777
            elif stat.S_ISDIR(st.st_mode):
                mode = stat.S_IFDIR | 0o755
            else:
                with open(full[name], "rb") as f:
                    data = f.read()
                mode = stat.S_IFREG | (0o755 if st.st_mode & 0o111 else 0o644)
            h = header(ino, mode, 2 if stat.S_ISDIR(mode) else 1, len(data), a.mtime,
                       namesize=len(bname))
        out += h + bname + pad4(len(h) + len(bname)) + data + pad4(len(data))
    trailer = b"TRAILER!!!\0"
    h = header(0, 0, 1, 0, 0, namesize=len(trailer))
    out += h + trailer + pad4(len(h) + len(trailer))
    out += b"\0" * ((512 - len(out) % 512) % 512)
    with open(a.out + ".tmp", "wb") as f:
        f.write(out)
    os.replace(a.out + ".tmp", a.out)


if __name__ == "__main__":
    sys.exit(main())
