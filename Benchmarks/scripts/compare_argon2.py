#!/usr/bin/env python3
# Fresh-process Argon2 timings: ours (kdbx-bench --derive, the CLI's path) vs the argon2 CLI vs argon2-cffi,
# alternating, medians of N rounds. Usage: compare_argon2.py BENCH_BINARY [ROUNDS] [IDLE_SECONDS]
# IDLE_SECONDS (default 0) sleeps before every run, ours and theirs alike: after a few idle seconds a virtual
# machine may have handed its free memory back to the host, as before a first unlock; back to back, the memory
# the previous process freed is still at hand, as in a script that runs several commands.
import subprocess, sys, time, statistics, re
bench = sys.argv[1]; rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
idle = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
configs = [('d',64,2,1),('d',64,2,2),('d',256,4,2),('d',1024,1,2),('id',64,2,1),('id',64,2,2),('id',256,4,2),('id',1024,1,2)]
def wall(cmd, stdin=None):
    time.sleep(idle)
    t = time.perf_counter(); subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True); return time.perf_counter() - t
cffi = '''import time,sys
t=time.perf_counter()
import argon2.low_level as l
t0=time.perf_counter()
l.hash_secret_raw(b"password", b"somesalt", time_cost=%d, memory_cost=%d, parallelism=%d, hash_len=32, type=l.Type.%s)
t1=time.perf_counter()
print(t1-t0)'''
print("config\tours_ms\tcli_ms\tcffi_ms\tours/cli\tours/cffi")
for (v,m,t,p) in configs:
    ours=[];cli=[];cf=[]
    for r in range(rounds):
        ours.append(wall([bench,'--derive',v,str(m),str(t),str(p)]))
        cli.append(wall(['argon2','somesalt','-'+v,'-t',str(t),'-k',str(m*1024),'-p',str(p),'-l','32','-r'], stdin=b'password'))
        time.sleep(idle)
        out = subprocess.run(['python3','-c', cffi % (t, m*1024, p, 'D' if v=='d' else 'ID')], capture_output=True, check=True).stdout
        cf.append(float(out))
    o,c,f = statistics.median(ours)*1e3, statistics.median(cli)*1e3, statistics.median(cf)*1e3
    print(f"argon2{v} m={m}MiB t={t} p={p}\t{o:.0f}\t{c:.0f}\t{f:.0f}\t{o/c:.2f}\t{o/f:.2f}", flush=True)
