/* SPDX-License-Identifier: ISC */
/* contain_api.c - containment for embedders: the rule the helper applies. */
#include <errno.h>
#include <unistd.h>

#include "contain.h"
#include "error.h"

int ruas_path_resolve_beneath(const char *root, const char *path, int *fd,
			      ruas_error **err)
{
	char why[512];
	int out = -1;
	if (!root || !path)
		return error_set(err, RUAS_ERR_INVALID, NULL, 0, 0,
				 "ruas_path_resolve_beneath: root and path are required");
	switch (contain_resolve(root, path, &out, why, sizeof why, 0)) {
	case CONTAIN_OK:
		if (fd)
			*fd = out;
		else
			close(out);
		return 0;
	case CONTAIN_OUTSIDE:
	case CONTAIN_ABSLINK:
		return error_set(err, RUAS_ERR_ESCAPE, NULL, 0, EXDEV,
				 "%s does not stay inside %s: %s", path, root, why);
	case CONTAIN_MISSING:
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, ENOENT,
				 "%s: cannot be resolved: %s", path, why);
	default:
		return error_set(err, RUAS_ERR_SYSTEM, NULL, 0, EIO, "%s: %s", path, why);
	}
}
