# SPDX-License-Identifier: ISC
# ruas.py - filters of the ruas role: the target users that ruas.conf's projects and people
# name, the projects as ruas.conf gets them, and the users of retired projects.
"""Filter plugins of the ruas role."""

from ansible.errors import AnsibleFilterError

# Keys of a project item that are the role's, never ruas.conf's.
ROLE_KEYS = ('state', 'remove_user', 'uid')


def _role_keys(i, p):
    """(present, remove_user, uid) of project item i, judged."""
    state = p.get('state', 'present')
    if state not in ('present', 'absent'):
        raise AnsibleFilterError('ruas_projects[%d] (%s): state must be present or absent, not %r'
                                 % (i, p.get('name'), state))
    remove = p.get('remove_user', False)
    if not isinstance(remove, bool):
        raise AnsibleFilterError('ruas_projects[%d] (%s): remove_user must be a boolean, not %r'
                                 % (i, p.get('name'), remove))
    uid = p.get('uid')
    if uid is not None and (isinstance(uid, bool) or not isinstance(uid, int) or uid <= 0):
        raise AnsibleFilterError('ruas_projects[%d] (%s): uid must be a positive integer, not %r'
                                 % (i, p.get('name'), uid))
    return state == 'present', remove, uid


def _members(people):
    members = {}
    members_list = people.get('members') if isinstance(people, dict) else None
    for m in members_list if isinstance(members_list, list) else []:
        if isinstance(m, dict) and m.get('id') is not None and m.get('run_as_user'):
            members[m['id']] = m['run_as_user']
    return members


def ruas_conf_projects(projects):
    """The projects as ruas.conf gets them: state absent ones left out, and without the
    role's own keys (state, remove_user, uid). Anything but a dict is kept, for
    ruas_config to refuse, saying where."""
    out = []
    for i, p in enumerate(projects or []):
        if not isinstance(p, dict):
            out.append(p)
            continue
        present, _, _ = _role_keys(i, p)
        if present:
            out.append({k: v for k, v in p.items() if k not in ROLE_KEYS})
    return out


def ruas_targets(projects, people=None):
    """[{user, work_dirs, in_projects, uid}] sorted by user: every distinct run_as_user
    of a present project.

    A project's user is its run_as_user, or that of the member its person names, as ruas
    reads it; a member whose user no project names is a target too (no work_dir).
    Projects without either run as the supervisor and are not targets. uid is the one
    its projects pin (None: not pinned); two different ones are refused."""
    members = _members(people)
    users = {}
    for i, p in enumerate(projects or []):
        if not isinstance(p, dict):
            continue  # ruas_config refuses it, saying where (its projects are elements=raw)
        present, _, uid = _role_keys(i, p)
        user = p.get('run_as_user') or members.get(p.get('person'))
        if not user or not present:
            continue
        t = users.setdefault(user, {'user': user, 'work_dirs': [], 'in_projects': True,
                                    'uid': None})
        if uid is not None:
            if t['uid'] is not None and t['uid'] != uid:
                raise AnsibleFilterError('ruas_projects: user %s is pinned to uid %d and to uid %d '
                                         '(projects of one user pin one uid)'
                                         % (user, t['uid'], uid))
            t['uid'] = uid
        if p.get('work_dir') and p['work_dir'] not in t['work_dirs']:
            t['work_dirs'].append(p['work_dir'])
    for user in members.values():
        users.setdefault(user, {'user': user, 'work_dirs': [], 'in_projects': False, 'uid': None})
    return [users[u] for u in sorted(users)]


def ruas_retired(projects, people=None):
    """[{user, remove_user}] sorted by user: the users of state absent projects that no
    present project nor member uses any more; remove_user when one of them says so."""
    members = _members(people)
    keep = set(members.values())
    gone = {}
    for i, p in enumerate(projects or []):
        if not isinstance(p, dict):
            continue
        present, remove, _ = _role_keys(i, p)
        user = p.get('run_as_user') or members.get(p.get('person'))
        if not user:
            continue
        if present:
            keep.add(user)
        else:
            gone[user] = gone.get(user, False) or remove
    return [{'user': u, 'remove_user': gone[u]} for u in sorted(gone) if u not in keep]


class FilterModule:
    """ruas_targets, ruas_conf_projects, ruas_retired."""

    def filters(self):
        return {'ruas_targets': ruas_targets, 'ruas_conf_projects': ruas_conf_projects,
                'ruas_retired': ruas_retired}
