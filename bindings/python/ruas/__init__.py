# SPDX-License-Identifier: ISC
"""ruas - run agents as their own Unix users, safely, with subprocess's interface.

    import ruas
    cfg = ruas.Config.load("/etc/ruas/ruas.conf")
    report = cfg.preflight()
    if report.fatal:
        raise SystemExit("\\n".join(i.text for p in report.projects for i in p.items))
    with cfg.spawn("claude", ["--print", prompt], stdout=ruas.PIPE) as child:
        out, _ = child.communicate(timeout=600)

A thin layer over libruas.so.0 (ctypes): the C handles hold all state, the
GIL is released around every blocking call, and what libruas guarantees
(thread safety, the helper's checks, the tree ended on terminate) holds
unchanged. See docs/bindings.md.
"""
from ._child import DEVNULL, PIPE, STDOUT, Child, TimeoutExpired
from ._config import Config, Credential, Item, ProjectReport, Report, Unjudged
from ._errors import (ConfigError, EscapeError, Error, InvalidError, NoMemoryError,
                      NotFoundError, StartError, SystemCallError, TooLongError)

__all__ = ["Config", "Credential", "Child", "Report", "ProjectReport", "Item", "Unjudged", "PIPE", "DEVNULL", "STDOUT",
           "TimeoutExpired", "Error", "ConfigError", "NotFoundError", "SystemCallError",
           "InvalidError", "NoMemoryError", "TooLongError", "EscapeError", "StartError"]
__version__ = "0.1"
__license__ = "ISC"
