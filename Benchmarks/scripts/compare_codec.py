#!/usr/bin/env python3
# Whole-process codec figures on large_5000.kdbx: ours vs keepassxc-cli (and pykeepass open), alternating,
# medians of N rounds; peak RSS from /usr/bin/time. Usage: compare_codec.py KDBX_BINARY [ROUNDS]
import subprocess, sys, time, statistics, shutil, os, re
kdbx = sys.argv[1]; rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../shared/corpus/generated/large_5000.kdbx')
def timed(cmd, stdin=b'bench\n'):
    t = time.perf_counter()
    r = subprocess.run(['/usr/bin/time','-f','%M'] + cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    el = time.perf_counter() - t
    rss = int(r.stderr.decode().strip().splitlines()[-1])
    return el, rss
def fresh(name):
    dst = '/dev/shm/' + name; shutil.copy(src, dst); os.chmod(dst, 0o644); return dst
py_open = "import time; t=time.perf_counter(); from pykeepass import PyKeePass; k=PyKeePass('%s', password='bench'); n=len(k.entries); print(time.perf_counter()-t)" % src
res = {k: [] for k in ['ours_ls','kpxc_ls','ours_rss','kpxc_rss','ours_edit','kpxc_edit','py_open']}
for r in range(rounds):
    e, m = timed([kdbx, 'ls', '-R', src]); res['ours_ls'].append(e); res['ours_rss'].append(m)
    e, m = timed(['keepassxc-cli', 'ls', '-R', src]); res['kpxc_ls'].append(e); res['kpxc_rss'].append(m)
    f = fresh('m_ours.kdbx'); e, _ = timed([kdbx, 'mkdir', f, 'Added%d' % r]); res['ours_edit'].append(e)
    f = fresh('m_kpxc.kdbx'); e, _ = timed(['keepassxc-cli', 'mkdir', f, 'Added%d' % r]); res['kpxc_edit'].append(e)
    t = time.perf_counter(); subprocess.run(['python3', '-c', py_open], check=True, stdout=subprocess.DEVNULL); res['py_open'].append(time.perf_counter() - t)
med = {k: statistics.median(v) for k, v in res.items()}
print(f"open+list: ours {med['ours_ls']*1e3:.0f} ms, keepassxc-cli ls -R {med['kpxc_ls']*1e3:.0f} ms, ratio {med['ours_ls']/med['kpxc_ls']:.2f}; pykeepass open (whole process) {med['py_open']*1e3:.0f} ms, ratio {med['ours_ls']/med['py_open']:.2f}")
print(f"open+change+save: ours mkdir {med['ours_edit']*1e3:.0f} ms, keepassxc-cli mkdir {med['kpxc_edit']*1e3:.0f} ms, ratio {med['ours_edit']/med['kpxc_edit']:.2f}")
print(f"peak RSS ls -R: ours {med['ours_rss']/1024:.1f} MiB, keepassxc-cli {med['kpxc_rss']/1024:.1f} MiB, ratio {med['ours_rss']/med['kpxc_rss']:.2f}")
print("raw:", {k: [round(x, 3) for x in v] for k, v in res.items()})
