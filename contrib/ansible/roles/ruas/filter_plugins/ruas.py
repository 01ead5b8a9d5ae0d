# SPDX-License-Identifier: ISC
# ruas.py - filters of the ruas role: the target users that ruas.conf's projects and people name.
"""Filter plugins of the ruas role."""


def ruas_targets(projects, people=None):
    """[{user, work_dirs, in_projects}] sorted by user: every distinct run_as_user.

    A project's user is its run_as_user, or that of the member its person names, as ruas
    reads it; a member whose user no project names is a target too (no work_dir).
    Projects without either run as the supervisor and are not targets."""
    members = {}
    members_list = people.get('members') if isinstance(people, dict) else None
    for m in members_list if isinstance(members_list, list) else []:
        if isinstance(m, dict) and m.get('id') is not None and m.get('run_as_user'):
            members[m['id']] = m['run_as_user']
    users = {}
    for p in projects or []:
        if not isinstance(p, dict):
            continue  # ruas_config refuses it, saying where (its projects are elements=raw)
        user = p.get('run_as_user') or members.get(p.get('person'))
        if not user:
            continue
        t = users.setdefault(user, {'user': user, 'work_dirs': [], 'in_projects': True})
        if p.get('work_dir') and p['work_dir'] not in t['work_dirs']:
            t['work_dirs'].append(p['work_dir'])
    for user in members.values():
        users.setdefault(user, {'user': user, 'work_dirs': [], 'in_projects': False})
    return [users[u] for u in sorted(users)]


class FilterModule:
    """ruas_targets."""

    def filters(self):
        return {'ruas_targets': ruas_targets}
