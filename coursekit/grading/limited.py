"""Run a command under resource limits: ``python limited.py MEMORY_MB FILE_MB -- cmd ...``.

With ``--unsafe-no-sandbox`` the grader starts each submission's kernel through this script,
so that a notebook that allocates without end gets a ``MemoryError`` (or its kernel dies)
instead of taking the machine, and one that writes without end gets an error instead of
filling the disk. (In the sandbox the same limits are set by the sandbox's own launcher:
:mod:`coursekit.grading.sandbox`.) It is a
standalone script (no coursekit import) and replaces itself with the command (``os.execv``).
"""

import os
import resource
import sys


def limit(memory_mb: int, file_mb: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb << 20, file_mb << 20))


if __name__ == "__main__":
    memory, files, dashes, *command = sys.argv[1:]
    if dashes != "--" or not command:
        raise SystemExit("usage: limited.py MEMORY_MB FILE_MB -- command ...")
    limit(int(memory), int(files))
    os.execv(command[0], command)
