/* SPDX-License-Identifier: ISC */
/* targetpw.c - see targetpw.h. */
#include "check/targetpw.h"

#include <grp.h>
#include <pwd.h>
#include <shadow.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strv.h"

char **targetpw_empty_accounts(const char *shadow)
{
	FILE *f = fopen(shadow ? shadow : "/etc/shadow", "re");
	if (!f)
		return NULL;
	char **v = calloc(1, sizeof *v), mem[4096];
	size_t n = 0;
	struct spwd sp, *res = NULL;
	while (v && fgetspent_r(f, &sp, mem, sizeof mem, &res) == 0 && res)
		if (res->sp_pwdp && res->sp_pwdp[0] == '\0' &&
		    strv_push(&v, &n, strdup(res->sp_namp)) < 0) {
			strv_free(v);
			v = NULL;
		}
	fclose(f);
	return v;
}

/*
 * Is account the runas item (a name, #uid, %group, ALL)? 1 yes, 0 no, -1
 * cannot tell: a Runas_Alias (A-Z, 0-9, _), %:nonunix_group, %#gid,
 * +netgroup, which the listing does not expand.
 */
static int runas_item_has(const char *item, const char *account)
{
	char mem[16384];
	if (strcmp(item, "ALL") == 0 || strcmp(item, account) == 0)
		return 1;
	struct passwd pw, *pr = NULL;
	int known = getpwnam_r(account, &pw, mem, sizeof mem, &pr) == 0 && pr;
	if (item[0] == '#')
		return known && strtoul(item + 1, NULL, 10) == (unsigned long)pr->pw_uid;
	if (item[0] == '+' || strncmp(item, "%:", 2) == 0 || strncmp(item, "%#", 2) == 0)
		return -1;
	if (item[0] == '%') {
		gid_t primary = known ? pr->pw_gid : (gid_t)-1;
		char gmem[16384];
		struct group gr, *res = NULL;
		if (getgrnam_r(item + 1, &gr, gmem, sizeof gmem, &res) != 0 || !res)
			return 0;
		if (known && res->gr_gid == primary)
			return 1;
		for (char **m = res->gr_mem; m && *m; m++)
			if (strcmp(*m, account) == 0)
				return 1;
		return 0;
	}
	if (item[0] >= 'A' && item[0] <= 'Z' &&
	    strspn(item, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(item))
		return -1;
	return 0;
}

/*
 * 1: the binding's list names account; 0: it does not; -1: it cannot tell.
 * As sudo reads a list: the last item that matches decides, a negated one
 * ("!victim") taking account out; an item it cannot expand leaves it
 * unknown unless a later one decides.
 */
static int binding_has(const char *binding, const char *account)
{
	char items[1024];
	int r = 0;
	snprintf(items, sizeof items, "%s", binding);
	char *save = NULL;
	for (char *it = strtok_r(items, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
		while (*it == ' ')
			it++;
		for (size_t k = strlen(it); k > 0 && it[k - 1] == ' '; k--)
			it[k - 1] = '\0';
		int neg = 0;
		while (*it == '!') {
			neg = !neg;
			it++;
		}
		int m = *it ? runas_item_has(it, account) : 0;
		if (m == 1)
			r = neg ? 0 : 1;
		else if (m == -1)
			r = -1;
	}
	return r;
}

/*
 * The users' part of "(A, B : G)": is account one of them? "()" is the
 * invoking user alone. A Runas_Alias counts as naming it (not judged is
 * not passed).
 */
static int runas_has(const char *runas, const char *account)
{
	char users[1024];
	snprintf(users, sizeof users, "%.*s", (int)strcspn(runas, ":"), runas);
	return binding_has(users, account) != 0;
}

/*
 * Is targetpw in force when the user runs something as account? The global
 * setting, then each bound one in order (the last wins). What cannot be
 * told (an alias, a command's binding) can turn it on, never off.
 */
static int in_force_for(const struct sudo_listing *l, const char *account)
{
	int on = l->targetpw;
	for (size_t i = 0; i < l->nbound_tp; i++) {
		const struct bound_targetpw *b = &l->bound_tp[i];
		int has = b->runas ? binding_has(b->runas, account) : -1;
		if (has == 1 || (has == -1 && b->on))
			on = b->on;
	}
	return on;
}

size_t targetpw_ways(const struct sudo_listing *l, const char *user, char *const *empty,
		     void (*found)(void *ctx, const char *runas, const char *line), void *ctx)
{
	size_t n = 0;
	if (!empty)
		return 0;
	for (size_t i = 0; i < l->nrules; i++) {
		const struct sudo_rule *r = &l->rules[i];
		int asks = 0;
		for (size_t k = 0; k < r->ncmds; k++)
			asks |= !r->cmds[k].negated && !r->cmds[k].nopasswd;
		if (!asks || !r->runas || r->self_only)
			continue;
		for (char *const *e = empty; *e; e++)
			if (strcmp(*e, user) != 0 && in_force_for(l, *e) && runas_has(r->runas, *e)) {
				found(ctx, *e, r->line);
				n++;
			}
	}
	return n;
}
