# SPDX-License-Identifier: ISC
"""startspawn.py - tests/consumer/startspawn.c's supervisor in Python, through
the binding (bindings/python): how a start went, as a bridge would tell its
user, the agent's stderr thrown away (stderr=DEVNULL).

    startspawn.py [--asyncio] CONF PROJECT WORK_DIR [ARG...]

WORK_DIR "-" is the project's own; an ARG "@big:N" is N bytes of 'x'. On a
failed spawn it prints

    error code=CODE stage=STAGE errno=ERRNO file=FILE
    message=MESSAGE
    py: StartError=B Error=B OSError=B SubprocessError=B FileNotFoundError=B
        PermissionError=B stage=NAME filename=FILE

(on one line) and exits 3; otherwise it waits and prints "exit=N".
"""
import asyncio
import subprocess
import sys

import ruas
import ruas.asyncio

STAGES = {"sudo": 1, "work_dir": 2, "exec": 3, "login": 4, "helper": 5}


def report(e):
    print("error code=%d stage=%d errno=%d file=%s" % (e.code, STAGES.get(getattr(e, "stage", ""), 0),
                                                      e.errno or 0, e.file or ""))
    print("message=%s" % e.message)
    kinds = [("StartError", ruas.StartError), ("Error", ruas.Error), ("OSError", OSError),
             ("SubprocessError", subprocess.SubprocessError),
             ("FileNotFoundError", FileNotFoundError), ("PermissionError", PermissionError)]
    print("py: " + " ".join("%s=%s" % (n, isinstance(e, k)) for n, k in kinds) +
          " stage=%s filename=%s" % (getattr(e, "stage", ""), getattr(e, "filename", "")))
    return 3


def arguments(argv):
    return ["x" * int(a[5:]) if a.startswith("@big:") else a for a in argv]


def blocking(conf, project, work_dir, args):
    cfg = ruas.Config.load(conf)
    try:
        child = cfg.spawn(project, args, stdout=None, stderr=ruas.DEVNULL,
                          stdin=ruas.DEVNULL, work_dir=work_dir, pty=False)
    except ruas.Error as e:
        return report(e)
    print("exit=%d" % child.wait(), flush=True)
    return 0


async def with_asyncio(conf, project, work_dir, args):
    cfg = ruas.Config.load(conf)
    try:
        child = await ruas.asyncio.spawn(cfg, project, args, stdout=None, stderr=ruas.DEVNULL,
                                         stdin=ruas.DEVNULL, work_dir=work_dir, pty=False)
    except ruas.Error as e:
        return report(e)
    print("exit=%d" % await child.wait(), flush=True)
    return 0


def main(argv):
    aio = argv[:1] == ["--asyncio"]
    if aio:
        argv = argv[1:]
    conf, project, work_dir = argv[:3]
    work_dir = None if work_dir == "-" else work_dir
    args = arguments(argv[3:])
    if aio:
        return asyncio.run(with_asyncio(conf, project, work_dir, args))
    return blocking(conf, project, work_dir, args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
