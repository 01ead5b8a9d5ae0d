/* SPDX-License-Identifier: ISC */
/* refresh.c - host_trees_refresh() (trees.h). */
#include "host/trees.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "host/acl.h"

int host_trees_refresh(const char *fs_root, struct host_trees *t)
{
	size_t k = 0;
	int rc = 0;
	for (size_t i = 0; i < t->n; i++) {
		struct host_entry *e = &t->e[i];
		struct buf p = BUF_INIT;
		struct stat st;
		buf_adds(&p, fs_root ? fs_root : "");
		buf_adds(&p, fs_root && strcmp(e->path, "/") == 0 ? "" : e->path);
		if (p.oom) {
			buf_free(&p);
			rc = -1;
			break;
		}
		if (lstat(p.data, &st) < 0) {
			buf_free(&p);
			host_entry_clear(e);
			continue; /* gone: nothing left to write there */
		}
		if ((e->flags & HOST_ENTRY_HIDDEN) && S_ISDIR(st.st_mode)) {
			int fd = open(p.data, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0) {
				close(fd);
				rc = 1; /* listable now: walk it */
			}
		}
		e->mode = st.st_mode;
		e->uid = st.st_uid;
		e->gid = st.st_gid;
		free(e->acl);
		free(e->dacl);
		e->acl = e->dacl = NULL;
		e->nacl = e->ndacl = 0;
		/* Read whatever the mode now says might matter, as keep() would and more. */
		if ((host_acl_read(p.data, "system.posix_acl_access", &e->acl, &e->nacl) < 0) ||
		    (S_ISDIR(st.st_mode) &&
		     host_acl_read(p.data, "system.posix_acl_default", &e->dacl, &e->ndacl) < 0))
			rc = -1;
		buf_free(&p);
		t->e[k++] = *e;
		if (rc != 0)
			break;
	}
	/* Stopped early: what was not looked at goes (the caller frees or walks anew). */
	for (size_t i = k; rc != 0 && i < t->n; i++)
		host_entry_clear(&t->e[i]);
	t->n = k;
	return rc;
}

