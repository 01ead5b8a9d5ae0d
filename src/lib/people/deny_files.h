/* SPDX-License-Identifier: ISC */
/* deny_files.h - the per-person files an agent gets at spawn: its deny list and settings. */
#ifndef RUAS_DENY_FILES_H
#define RUAS_DENY_FILES_H

#include <stddef.h>

#include "config/config_int.h"
#include "people/deny.h"

/* What a person-scoped spawn adds: its deny list and the files made for it. */
struct deny_files {
	struct deny_list dl;
	char *dir;        /* /tmp/ruas-deny-NS.PID.START-XXXXXX (deny_sweep.h) */
	char *list_path;  /* DIR/deny.list */
	char *settings;   /* DIR/settings.json */
	char **args;      /* deny_settings_args with {file} replaced */
	size_t nargs;
	char *scope;
};

/*
 * Computes project p's person's deny list and writes its files; all zero
 * when p has no person. 0, or a ruas_code with *err set; either way x is
 * then the caller's to end with deny_files_free() or deny_files_release().
 */
int deny_files_build(const struct ruas_config *cfg, const struct ruas_project *p,
		     struct deny_files *x, ruas_error **err);
/* Removes the files and frees x. */
void deny_files_free(struct deny_files *x);
/* Frees x but leaves the files: returns their directory (NULL without a person). */
char *deny_files_release(struct deny_files *x);
/* Removes the files in dir, made by deny_files_build, and dir. */
void deny_files_remove(const char *dir);

#endif
