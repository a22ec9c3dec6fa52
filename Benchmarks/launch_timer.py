"""Times a command from spawn to exit, as a user's shell would, from a small process.

The bench's own process is hundreds of MiB by the time the start-up rows run, and spawning from it adds
tens of milliseconds that are not the command's. Usage: launch_timer.py RUNS COMMAND [ARGUMENT...]
Prints one JSON object: the median and IQR in ms of RUNS runs after the warm-up, and the last exit status.
"""
import json
import subprocess
import sys

from timing import quantile, samples_ms

runs, command = int(sys.argv[1]), sys.argv[2:]
statuses = []


def launch():
    statuses.append(subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode)


samples = samples_ms(launch, runs)
print(json.dumps({"median": quantile(samples, 0.5), "iqr": quantile(samples, 0.75) - quantile(samples, 0.25),
                  "status": statuses[-1]}))
