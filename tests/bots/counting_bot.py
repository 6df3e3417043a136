"""The packaged random bot, noting each start of its process, for the tests of bot process reuse.

Usage: counting_bot.py NAME SALT. Each start appends ``NAME PID CPUS`` (the CPUs it may run on) to the
file named by the environment variable ROOKARENA_TEST_STARTS. With ROOKARENA_TEST_LINGER set, the
process stays on for a minute after its input ends instead of exiting (the referee has to stop it,
which is a fault of its own).
"""

import os
import runpy
import sys
import time

name, salt = sys.argv[1], sys.argv[2]
with open(os.environ["ROOKARENA_TEST_STARTS"], "a", encoding="utf-8") as starts:
    cpus = ",".join(map(str, sorted(os.sched_getaffinity(0))))
    starts.write(f"{name} {os.getpid()} {cpus}\n")
sys.argv = ["randombot", salt]
runpy.run_module("rookarena.randombot", run_name="__main__")
if os.environ.get("ROOKARENA_TEST_LINGER"):
    time.sleep(60)
