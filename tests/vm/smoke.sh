#!/bin/bash
# Guest-side smoke test for the VM harness: tests/vm/run.sh LANE tests/vm/smoke.sh
# Checks what kstats tests rely on: host tools through 9p (virtio-fs on the debug lane),
# debugfs/tracefs, loopback TCP where the kernel has IPv4 (the debug kernel has no networking),
# the writable output share.
set -euo pipefail
[[ ${KSTATS_IN_VM:-} == 1 ]] || { echo "run me through tests/vm/run.sh" >&2; exit 1; }

echo "uname -r: $(uname -r) (lane $KSTATS_LANE, expected $KSTATS_KVER)"
[[ $(uname -r) == "$KSTATS_KVER" ]]
echo "cwd: $PWD, cpus: $(nproc)"
python3 -c 'print(1)'
ls /sys/kernel/debug | head -n 5
test -e /sys/kernel/tracing/available_events
# Loopback TCP, both ends in this guest.
[[ -e /proc/net/tcp ]] || echo "no IPv4 in this kernel"
[[ ! -e /proc/net/tcp ]] || python3 - <<'EOF'
import socket
srv = socket.create_server(("127.0.0.1", 0))
cli = socket.create_connection(srv.getsockname())
conn, _ = srv.accept()
cli.sendall(b"ping")
assert conn.recv(4) == b"ping"
print("loopback tcp ok")
EOF
echo "written in the guest" >"$KSTATS_VM_OUT/smoke-$KSTATS_LANE.txt"
cat /sys/kernel/security/lockdown 2>/dev/null || echo "no /sys/kernel/security/lockdown"
