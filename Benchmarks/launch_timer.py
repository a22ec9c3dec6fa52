"""Times a command from spawn to exit, as a user's shell would, from a small process.

The bench's own process is hundreds of MiB by the time the start-up rows run, and spawning from it adds
tens of milliseconds that are not the command's. Usage: launch_timer.py RUNS COMMAND [ARGUMENT...]
Prints one JSON object: the median and IQR in ms of RUNS runs after the warm-up, the largest peak resident
memory of the runs in MiB (the kernel's maximum RSS of the largest child, as GNU time reports it), and the
last exit status with the last line the command wrote on standard error.
"""
import json
import resource
import subprocess
import sys

from timing import quantile, samples_ms

runs, command = int(sys.argv[1]), sys.argv[2:]
finished = []


def launch():
    finished.append(subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))


samples = samples_ms(launch, runs)
last = finished[-1]
print(json.dumps({"median": quantile(samples, 0.5), "iqr": quantile(samples, 0.75) - quantile(samples, 0.25),
                  "peak_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                  "status": last.returncode,
                  "error": (last.stderr.decode(errors="replace").strip().splitlines() or [""])[-1]}))
