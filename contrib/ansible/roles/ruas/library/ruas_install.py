#!/usr/bin/python
# SPDX-License-Identifier: ISC
# ruas_install.py - installs ruas from Debian packages or a source tree, or finds it installed.
"""Ansible module ruas_install: ruas under a prefix, changed only when a file changes."""

import filecmp
import glob
import os
import re
import shutil
import stat
import sys

from ansible.module_utils.basic import AnsibleModule
try:
    from ansible.module_utils.ruas_common import run, run_or_fail
except ImportError:  # ansible-lint loads a module alone, without the role's module_utils
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'module_utils'))
    from ruas_common import run, run_or_fail  # pylint: disable=import-error

DOCUMENTATION = r'''
module: ruas_install
short_description: Install ruas (apt, deb, source or none) and report where it is
description:
  - I(method=apt) - the packages I(deb_packages) from the host's configured apt
    repositories, C(apt-get install -y --no-install-recommends NAME...) run without a
    shell, only when one of them is not installed; names are Debian package names of
    lower-case letters, digits and inner hyphens, which apt-get reads as exactly that
    package (never an option, a removal C(NAME-), or a pattern with C(.) or C(+)). Check mode predicts from
    C(dpkg-query) alone. It does not update the package lists.
  - I(method=deb) - the packages I(deb_packages) from I(deb_dir) (one C(NAME_*.deb) each),
    installed with apt-get when a package is missing or of another version.
  - I(method=source) - in I(source_dir), C(./configure --prefix=PREFIX) when there is no
    Makefile yet, C(make), then C(make install DESTDIR=) into a temporary directory; only
    when a staged file differs from the installed one does the real C(make install) run
    (then C(ldconfig)). The tree must be configured for I(prefix). Not compared in check
    mode (that would build).
  - I(method=none) - ruas must already be installed under I(prefix).
  - Returns C(ruas), C(ruas_setup) and C(config_path), the default configuration of the
    installed ruas (from C(ruas --help)), or C(missing) in check mode before an install.
options:
  method:
    description: How to install.
    type: str
    choices: [apt, deb, source, none]
    required: true
  prefix:
    description: The prefix ruas is (to be) installed under (apt and deb need /usr).
    type: str
    default: /usr
  deb_dir:
    description: "deb: the directory of the .deb files."
    type: str
  deb_packages:
    description: "apt and deb: the packages to install, in order."
    type: list
    elements: str
    default: [libruas0, ruas]
  source_dir:
    description: "source: the source or build tree."
    type: str
  configure_args:
    description: "source: more arguments for ./configure."
    type: list
    elements: str
    default: []
  apt_get:
    description: "apt: the apt-get program (the role never sets it; tests point it elsewhere)."
    type: str
    default: apt-get
'''

EXAMPLES = r'''
- name: ruas from the host's apt repositories
  ruas_install:
    method: apt
    deb_packages: [libruas0, ruas]

- name: ruas from .deb files on the host
  ruas_install:
    method: deb
    deb_dir: /var/cache/ruas-debs

- name: ruas from a source tree, under /usr/local
  ruas_install:
    method: source
    source_dir: /usr/src/ruas
    prefix: /usr/local
'''

RETURN = r'''
missing:
  description: True in check mode when ruas is not installed yet (nothing else is returned).
  returned: always
  type: bool
messages:
  description: What was (or would be) installed.
  returned: always
  type: list
  elements: str
ruas:
  description: The ruas program.
  returned: when ruas is installed
  type: str
  sample: /usr/bin/ruas
ruas_setup:
  description: The ruas-setup program.
  returned: when ruas is installed
  type: str
  sample: /usr/sbin/ruas-setup
config_path:
  description: The installed ruas's default configuration.
  returned: when ruas is installed
  type: str
  sample: /etc/ruas/ruas.conf
'''

# A Debian package name (Debian Policy 5.6.1) that apt-get reads as that one name: not an
# option (-), not a removal (a final -) or an install (a final +) modifier, not a pattern
# ('.', '+': apt-get matches a name with them as a regex when no package has it).
PACKAGE = re.compile(r'^[a-z0-9][a-z0-9-]*[a-z0-9]\Z')


def paths(prefix):
    return os.path.join(prefix, 'bin', 'ruas'), os.path.join(prefix, 'sbin', 'ruas-setup')


def installed(prefix):
    return all(os.access(f, os.X_OK) for f in paths(prefix))


def deb(module, p):
    if os.path.normpath(p['prefix']) != '/usr':
        module.fail_json(msg='ruas_install=deb installs under /usr; ruas_prefix is %s'
                         % p['prefix'])
    if not p['deb_dir'] or not os.path.isdir(p['deb_dir']):
        module.fail_json(msg='ruas_install=deb needs ruas_deb_dir, a directory of .deb files: %r'
                         % p['deb_dir'])
    todo = []
    for pkg in p['deb_packages']:
        # Absolute: apt-get takes a name without a '/' for a package of the archive.
        pattern = os.path.join(glob.escape(os.path.abspath(p['deb_dir'])),
                               glob.escape(pkg) + '_*.deb')
        files = glob.glob(pattern)
        if len(files) != 1:
            module.fail_json(msg='ruas_deb_dir %s: expected one %s_*.deb, found %d'
                             % (p['deb_dir'], pkg, len(files)))
        want, _ = run_or_fail(module, ['dpkg-deb', '--field', files[0], 'Version'], 'dpkg-deb')
        rc, have, _ = run(module, ['dpkg-query', '--show', '--showformat',
                                   '${db:Status-Abbrev}${Version}', pkg])
        if rc != 0 or have.strip() != 'ii ' + want.strip():
            todo.append(files[0])
    if todo and not module.check_mode:
        run_or_fail(module, ['apt-get', 'install', '-y', '--no-install-recommends'] + todo,
                    'apt-get install', env={'DEBIAN_FRONTEND': 'noninteractive'})
    return bool(todo), ['installed ' + os.path.basename(f) for f in todo]


def apt(module, p):
    """The packages from the configured repositories, when one is not installed."""
    if os.path.normpath(p['prefix']) != '/usr':
        module.fail_json(msg='ruas_install=apt installs under /usr; ruas_prefix is %s'
                         % p['prefix'])
    bad = [n for n in p['deb_packages'] if not PACKAGE.match(n)]
    if bad or not p['deb_packages']:
        module.fail_json(msg='ruas_deb_packages must be Debian package names '
                         'of letters, digits and inner hyphens (no option, no final - or +, '
                         'no . or + that apt-get reads as a pattern): %r'
                         % (bad or p['deb_packages']))
    todo = []
    for pkg in p['deb_packages']:
        rc, have, _ = run(module, ['dpkg-query', '--show', '--showformat',
                                   '${db:Status-Abbrev}', pkg])
        if rc != 0 or have.strip() != 'ii':
            todo.append(pkg)
    if todo and not module.check_mode:
        run_or_fail(module, [p['apt_get'], 'install', '-y', '--no-install-recommends'] + todo,
                    'apt-get install', env={'DEBIAN_FRONTEND': 'noninteractive'})
    verb = 'would install ' if module.check_mode else 'installed '
    return bool(todo), [verb + n for n in todo]


def same_tree(stage, root):
    """True when every file make install staged under stage is already so under root."""
    for d, dirs, files in os.walk(stage):
        for f in dirs + files:
            s = os.path.join(d, f)
            live = os.path.join(root, os.path.relpath(s, stage))
            if f.endswith('.pyc'):
                continue  # compiled with the install's time stamps: never the same bytes
            try:
                a, b = os.lstat(s), os.lstat(live)
            except FileNotFoundError:
                return False
            if stat.S_IFMT(a.st_mode) != stat.S_IFMT(b.st_mode):
                return False
            # A directory's mode is make install's to keep (mkdir -p leaves an existing one).
            if not stat.S_ISDIR(a.st_mode) and stat.S_IMODE(a.st_mode) != stat.S_IMODE(b.st_mode):
                return False
            if stat.S_ISLNK(a.st_mode) and os.readlink(s) != os.readlink(live):
                return False
            if stat.S_ISREG(a.st_mode) and not filecmp.cmp(s, live, shallow=False):
                return False
    return True


def source(module, p):
    tree = p['source_dir']
    if not tree or not os.path.isdir(tree):
        module.fail_json(msg='ruas_install=source needs ruas_source_dir, a source tree: %r' % tree)
    makefile = os.path.join(tree, 'Makefile')
    if module.check_mode:
        if installed(p['prefix']):
            module.warn('ruas_install=source is not compared in check mode (it would build)')
            return False, []
        return True, ['would build and install from ' + tree]
    if not os.path.exists(makefile):
        run_or_fail(module, ['./configure', '--prefix=' + p['prefix']] + p['configure_args'],
                    'configure', cwd=tree)
    with open(makefile, encoding='utf-8', errors='replace') as f:
        m = re.search(r'^prefix = (.*)$', f.read(), re.M)
    if not m or os.path.normpath(m.group(1)) != os.path.normpath(p['prefix']):
        module.fail_json(msg='%s is configured for prefix %s, but ruas_prefix is %s'
                         % (tree, m.group(1) if m else '(none)', p['prefix']))
    run_or_fail(module, ['make', '-C', tree, '-s'], 'make')
    stage = os.path.join(module.tmpdir, 'stage')
    try:
        run_or_fail(module, ['make', '-C', tree, '-s', 'install', 'DESTDIR=' + stage],
                    'make install (staged)')
        if same_tree(stage, '/'):
            return False, []
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    run_or_fail(module, ['make', '-C', tree, '-s', 'install'], 'make install')
    run_or_fail(module, ['ldconfig'], 'ldconfig')
    return True, ['make install in ' + tree]


def config_path(module, ruas):
    """The installed ruas's default configuration, as its usage says it."""
    _, out, err = run(module, [ruas, '--help'])
    m = re.search(r'configuration \(default (/[^)]*)\)', out + err)
    if not m:
        module.fail_json(msg='%s --help does not name its default configuration' % ruas)
    return m.group(1)


def main():
    module = AnsibleModule(argument_spec=dict(
        method=dict(type='str', required=True, choices=['apt', 'deb', 'source', 'none']),
        prefix=dict(type='str', default='/usr'),
        deb_dir=dict(type='str'),
        deb_packages=dict(type='list', elements='str', default=['libruas0', 'ruas']),
        source_dir=dict(type='str'),
        configure_args=dict(type='list', elements='str', default=[]),
        apt_get=dict(type='str', default='apt-get')),
        supports_check_mode=True)
    p = module.params
    changed, messages = False, []
    if p['method'] == 'apt':
        changed, messages = apt(module, p)
    elif p['method'] == 'deb':
        changed, messages = deb(module, p)
    elif p['method'] == 'source':
        changed, messages = source(module, p)
    ruas, ruas_setup = paths(p['prefix'])
    if not installed(p['prefix']):
        if module.check_mode and changed:
            module.exit_json(changed=True, missing=True, messages=messages)
        module.fail_json(msg='ruas is not installed under %s (%s and %s); ruas_install is %s'
                         % (p['prefix'], ruas, ruas_setup, p['method']))
    module.exit_json(changed=changed, missing=False, messages=messages, ruas=ruas,
                     ruas_setup=ruas_setup, config_path=config_path(module, ruas))


if __name__ == '__main__':
    main()
