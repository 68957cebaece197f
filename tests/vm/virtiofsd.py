#!/usr/bin/env python3
"""virtiofsd.py SOCKET DIR CACHE LOG: serve DIR to one QEMU over virtio-fs, at SOCKET.

Binds and listens on SOCKET before anything else, then starts QEMU's virtiofsd on that
listening socket (--fd) in the background and prints its pid. So once this returns, QEMU
can connect at once: no waiting for a socket file to appear. virtiofsd exits when QEMU
disconnects; the caller kills it by the pid if QEMU never came. Its messages go to LOG.

The debug lane needs it: its kernel has no networking, which 9p runs on (debug.config).
sandbox=chroot: make check-fresh runs in a chroot, where the default sandbox's pivot_root
fails; the tests run as root and the guest is ours, so the sandbox protects nothing here.
"""
import os
import socket
import sys

VIRTIOFSD = "/usr/lib/qemu/virtiofsd"  # qemu-system-common (QEMU 7.2's C virtiofsd)


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: virtiofsd.py SOCKET DIR CACHE LOG")
    path, source, cache, log = sys.argv[1:]
    if not os.access(VIRTIOFSD, os.X_OK):
        sys.exit(f"virtiofsd.py: {VIRTIOFSD} is missing (package qemu-system-common)")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    sock.listen(1)
    pid = os.fork()
    if pid:
        print(pid)
        return
    os.setsid()
    out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.set_inheritable(sock.fileno(), True)
    os.execv(VIRTIOFSD, [VIRTIOFSD, f"--fd={sock.fileno()}",
                         "-o", f"source={source},cache={cache},sandbox=chroot"])


if __name__ == "__main__":
    main()
