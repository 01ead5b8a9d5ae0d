#!/usr/bin/python
# SPDX-License-Identifier: ISC
# ruas_config.py - writes ruas.conf from the role's variables, every string escaped for libconfig.
"""Ansible module ruas_config: the ruas configuration, from data, written atomically."""

import os
import re
import stat
import sys

from ansible.module_utils.basic import AnsibleModule
try:
    from ansible.module_utils.ruas_common import read_regular, root_only, run, write_temp
except ImportError:  # ansible-lint loads a module alone, without the role's module_utils
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'module_utils'))
    from ruas_common import read_regular, root_only, run, write_temp  # pylint: disable=import-error

DOCUMENTATION = r'''
module: ruas_config
short_description: Write a ruas configuration (libconfig syntax) from data
description:
  - Renders I(settings), I(people) and I(projects) as libconfig, with every string escaped
    (C(\") C(\\) C(\n) C(\t) C(\r) C(\f) and C(\xHH) for other control bytes), so that no
    value can end its string and start a setting of its own.
  - Validates the new file with I(validate) before it replaces the old one, then renames
    it into place, 0644 root:root; a symlink at I(path) is replaced, never followed.
  - Supports check mode and diff mode.
options:
  path: {description: The configuration file., type: str, required: true}
  settings: {description: Top-level keys other than supervisor, people and projects., type: dict,
             default: {}}
  supervisor: {description: "The supervisor's user name, written first as the key supervisor
                 (ruas check and ruas-setup prune tell a renamed supervisor's fragment by it).",
               type: str}
  people: {description: The people group, or nothing., type: dict}
  projects: {description: The projects, each a dict of ruas.conf project keys., type: list,
             elements: dict, default: []}
  validate: {description: "argv run on the new file before it is installed; %s is its path.",
             type: list, elements: str}
  write: {description: "false - render and validate only (the text is returned as content).",
          type: bool, default: true}
'''

EXAMPLES = r'''
- name: Render and validate only
  ruas_config:
    path: /etc/ruas/ruas.conf
    settings: {env_allowlist: [LANG, TERM]}
    projects:
      - {name: web, run_as_user: web-agent, work_dir: /srv/web, command: [claude]}
    validate: [/usr/sbin/ruas-setup, sudoers, --supervisor, orchestrator, --config, '%s']
    write: false
  register: rendered
'''

RETURN = r'''
path:
  description: The configuration file.
  returned: success
  type: str
  sample: /etc/ruas/ruas.conf
content:
  description: The rendered configuration.
  returned: success
  type: str
'''

HEADER = ('# Written by the Ansible role ruas (contrib/ansible/roles/ruas). Do not edit:\n'
          '# the next run of the role replaces it. See docs/fleet.md.\n')
# libconfig's setting names are [A-Za-z*][-A-Za-z0-9_*]*; ruas uses no '*'.
KEY = re.compile(r'^[A-Za-z][A-Za-z0-9_-]*\Z')
ESCAPES = {0x22: '\\"', 0x5c: '\\\\', 0x0a: '\\n', 0x09: '\\t', 0x0d: '\\r', 0x0c: '\\f'}
# Lists that libconfig must read as lists ( ), even when empty; other empty ones are arrays.
LIST_KEYS = ('projects', 'members')


class Refused(Exception):
    """A value that cannot be written; the message says where and why."""


def quote(s, where):
    """A libconfig string literal whose value is exactly s (its UTF-8 bytes)."""
    out = ['"']
    for b in s.encode('utf-8', 'surrogateescape'):
        if b == 0:
            raise Refused('%s: a NUL byte cannot be in a ruas.conf string' % where)
        if b in ESCAPES:
            out.append(ESCAPES[b])
        elif b < 0x20 or b == 0x7f:
            out.append('\\x%02x' % b)
        else:
            out.append(chr(b) if b < 0x80 else '\\x%02x' % b)
    out.append('"')
    return ''.join(out)


def scalar(v, where):
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, int):
        # ruas reads 32-bit integers only; libconfig would clamp a larger one silently.
        if not -2 ** 31 <= v < 2 ** 31:
            raise Refused('%s: %d is out of range for ruas.conf (a 32-bit integer)' % (where, v))
        return str(v)
    if isinstance(v, str):
        return quote(v, where)
    return None


def value(v, where, key=''):
    """v as a libconfig value: a scalar, an array [ ], a list ( ) or a group { }."""
    s = scalar(v, where)
    if s is not None:
        return s
    if isinstance(v, dict):
        return '{ ' + ' '.join(setting(k, x, where) for k, x in v.items()) + ' }'
    if isinstance(v, (list, tuple)):
        items = [value(x, '%s[%d]' % (where, i)) for i, x in enumerate(v)]
        kinds = {type(x) for x in v}
        if key not in LIST_KEYS and len(kinds) == 1 and scalar(v[0], where) is not None:
            return '[' + ', '.join(items) + ']'
        if key not in LIST_KEYS and not v:
            return '[]'
        return '(' + ', '.join(items) + ')'
    raise Refused('%s: a %s cannot be written to ruas.conf (strings, integers, booleans, '
                  'lists and dicts only)' % (where, type(v).__name__))


def setting(k, v, where):
    if not isinstance(k, str) or not KEY.match(k):
        raise Refused('%s: key %r is not a setting name ([A-Za-z][A-Za-z0-9_-]*)' % (where, k))
    return '%s = %s;' % (k, value(v, '%s.%s' % (where, k) if where else k, k))


def render(settings, people, projects, supervisor=None):
    lines = [HEADER]
    if supervisor is not None:
        lines.append(setting('supervisor', supervisor, '') + '\n')
    for k in settings:
        if k in ('projects', 'people', 'supervisor'):
            raise Refused('settings: key %s comes from its own variable (ruas_%s)' % (k, k))
        lines.append(setting(k, settings[k], '') + '\n')
    if people is not None:
        lines.append(setting('people', people, '') + '\n')
    lines.append('projects = (\n')
    for i, p in enumerate(projects):
        if not isinstance(p, dict):
            raise Refused('projects[%d]: a project is a dict of ruas.conf keys' % i)
        sep = ',' if i + 1 < len(projects) else ''
        lines.append('  ' + value(p, 'projects[%d]' % i) + sep + '\n')
    lines.append(');\n')
    return ''.join(lines)


def validate(module, argv, path):
    if not argv:
        return
    cmd = [a.replace('%s', path) for a in argv]
    rc, out, err = run(module, cmd)
    if rc != 0:
        module.fail_json(msg='the new configuration was refused, nothing written: %s'
                         % (err or out).strip(), rc=rc, stdout=out, stderr=err, cmd=cmd)


def parent_ok(module, directory):
    """The directory exists (made 0755 root if not) and only root can change what is in it."""
    if not os.path.isdir(directory):
        os.makedirs(directory, 0o755)
        os.chmod(directory, 0o755)
    st = os.stat(directory)
    if st.st_uid != 0 or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        module.fail_json(msg='%s must be owned by root and writable by root alone: '
                         'whoever else can write it can replace the configuration' % directory)


def main():
    module = AnsibleModule(argument_spec=dict(
        path=dict(type='str', required=True),
        settings=dict(type='dict', default={}),
        supervisor=dict(type='str'),
        people=dict(type='dict'),
        # raw: Ansible would turn a string item into a dict that the role's filter, which
        # chooses the users, never saw; render() refuses anything but a dict.
        projects=dict(type='list', elements='raw', default=[]),
        validate=dict(type='list', elements='str'),
        write=dict(type='bool', default=True)), supports_check_mode=True)
    p = module.params
    try:
        text = render(p['settings'], p['people'], p['projects'], p['supervisor'])
    except Refused as e:
        module.fail_json(msg='ruas_config: %s; nothing written' % e)
    path = p['path']
    old, st = read_regular(path)
    changed = old != text or not root_only(st, 0o644)
    diff = dict(before=old or '', after=text, before_header=path, after_header=path)
    result = dict(changed=changed, path=path, content=text)
    if p['write']:
        result['diff'] = diff
    directory = os.path.dirname(path) or '.'
    if not p['write'] and not module.check_mode and os.path.isdir(directory):
        parent_ok(module, directory)  # before anything else changes, not at the end
    if module.check_mode or not p['write']:
        # Validated from a private copy: a refusal shows in check mode too.
        if p['validate']:
            validate(module, p['validate'], write_temp(module.tmpdir, text, 0o644))
        module.exit_json(**result)
    parent_ok(module, directory)
    if not changed:
        module.exit_json(**result)
    tmp = write_temp(directory, text, 0o644)
    try:
        validate(module, p['validate'], tmp)
        os.rename(tmp, path)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise
    dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
