/* SPDX-License-Identifier: ISC */
/*
 * test_groups.c - the groups a target must not be in: the table behind
 * ruas_group_risk() (src/lib/check/group_risk.c), a user's groups as the library reads
 * them (account_group_risks, against a fake user database: nss_wrapper, see
 * nss_env.h), the findings and their texts (report_groups, messages.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "words.h"

#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "buf.h"
#include "fixture.h"
#include "check/messages.h"
#include "nss_env.h"
#include "check/report.h"
#include "ruas.h"

/* Users g<i> (uid 2000+i) are each in table entry i's group (gid 3000+i). */
#define TABLE_MAX 64

static const char fixed_passwd[] =
	"root:x:0:0:root:/root:/bin/sh\n"
	"plain:x:1601:1601::/home/plain:/bin/sh\n"
	"g0p:x:1602:0:primary gid 0:/home/g0p:/bin/sh\n"
	"g0s:x:1603:1603:supplementary gid 0:/home/g0s:/bin/sh\n"
	"g0b:x:1604:0:both:/home/g0b:/bin/sh\n"
	"odd:x:1605:1605:odd group names:/home/odd:/bin/sh\n"
	"noname:x:1606:4242:primary gid without a name:/home/noname:/bin/sh\n"
	"mixed:x:1607:1607:fatal and warning:/home/mixed:/bin/sh\n";

static const char fixed_group[] =
	"root:x:0:g0s,g0b\n"
	"plain:x:1601:\n"
	"g0s:x:1603:\n"
	"odd:x:1605:\n"
	"mixed:x:1607:\n"
	/* Sudoers and shell syntax, and near misses: none is in the table. */
	"%docker:x:3901:odd\n"
	"docker ALL:x:3902:odd\n"
	"$(id)`id`;sudo:x:3903:odd\n"
	"Docker:x:3904:odd\n"
	"dockerx:x:3905:odd\n"
	"xdisk:x:3906:odd\n";

static size_t table_size(void)
{
	size_t n = 0;
	while (ruas_group_risk_at(n, NULL, NULL, NULL) == 0)
		n++;
	return n;
}

/* ------------------------------------------------------------- the table */

static void test_table(void **state)
{
	(void)state;
	static const char *const fatal[] = {"disk", "kmem", "docker", "lxd", "incus",
					    "incus-admin", "libvirt", NULL};
	static const char *const warning[] = {"shadow", "adm", "systemd-journal", "tty",
					      "video", "input", "sudo", "wheel",
					      "admin", NULL};
	const char *why = "unset";
	for (const char *const *g = fatal; *g; g++) {
		assert_int_equal(ruas_group_risk(*g, 3000, &why), RUAS_SEVERITY_FATAL);
		assert_non_null(why);
		assert_true(strncmp(why, "its members ", 12) == 0);
	}
	for (const char *const *g = warning; *g; g++) {
		assert_int_equal(ruas_group_risk(*g, 3000, &why), RUAS_SEVERITY_WARNING);
		assert_true(strncmp(why, "its members ", 12) == 0);
	}
	assert_int_equal(table_size(), 16);

	/* gid 0 whatever its name, or with none; only gid 0 by number. */
	assert_int_equal(ruas_group_risk("root", 0, &why), RUAS_SEVERITY_FATAL);
	assert_non_null(strstr(why, "gid 0"));
	assert_int_equal(ruas_group_risk("wheel", 0, NULL), RUAS_SEVERITY_FATAL);
	assert_int_equal(ruas_group_risk("x$(id)", 0, NULL), RUAS_SEVERITY_FATAL);
	assert_int_equal(ruas_group_risk(NULL, 0, NULL), RUAS_SEVERITY_FATAL);
	assert_int_equal(ruas_group_risk("root", 27, &why), RUAS_SEVERITY_NONE);
	assert_null(why);

	/* Exact names only. */
	static const char *const none[] = {"Docker", "docker ", " docker", "dockerx",
					   "%docker", "sudo,docker", "", "users", "staff",
					   "plugdev", "kvm", NULL};
	for (const char *const *g = none; *g; g++)
		if (ruas_group_risk(*g, 100, NULL) != RUAS_SEVERITY_NONE)
			fail_msg("group \"%s\" judged a risk", *g);
	assert_int_equal(ruas_group_risk(NULL, 100, &why), RUAS_SEVERITY_NONE);

	/* The iterator ends; NULL outputs are allowed. */
	size_t n = table_size();
	assert_int_equal(ruas_group_risk_at(n, NULL, NULL, NULL), RUAS_ERR_NOTFOUND);
	assert_int_equal(ruas_group_risk_at((size_t)-1, NULL, NULL, NULL), RUAS_ERR_NOTFOUND);
	for (size_t i = 0; i < n; i++) {
		const char *name, *w;
		ruas_severity sev;
		assert_int_equal(ruas_group_risk_at(i, &name, &sev, &w), 0);
		/* The iterator and the lookup are the same table. */
		const char *w2;
		assert_int_equal(ruas_group_risk(name, 3000, &w2), sev);
		assert_ptr_equal(w, w2);
	}
}

/* docs/security.md names every entry, so the list there is the list here. */
static void test_table_documented(void **state)
{
	(void)state;
	char *doc = read_source_file("docs/security.md");
	const char *name;
	ruas_severity sev;
	for (size_t i = 0; ruas_group_risk_at(i, &name, &sev, NULL) == 0; i++) {
		char want[128];
		snprintf(want, sizeof want, "| `%s` | %s |", name,
			 sev == RUAS_SEVERITY_FATAL ? "fatal" : "warning");
		if (!strstr(doc, want))
			fail_msg("docs/security.md lacks the row \"%s\"", want);
	}
	free(doc);
}

/* ------------------------------------------------------- a user's groups */

/*
 * The library's getgrouplist(), interposed (this program's definition comes
 * before the preloaded nss_wrapper's and libc's): with drop_gid set, the
 * answer lacks that group, as from a group database that answers a user's
 * list in part (an initgroups line of nsswitch.conf, a directory server
 * that timed out, a module not safe to call from several threads at once).
 */
static gid_t drop_gid = (gid_t)-1;
static int dropped;
/*
 * getgrnam_r(), interposed too: below erange_below bytes of buffer it says
 * ERANGE, as glibc does for a group whose member list does not fit (a
 * thousand members is 16 KiB; nss_wrapper itself answers -1 instead).
 */
static size_t erange_below;
static int eranged;

int getgrnam_r(const char *name, struct group *gr, char *buf, size_t len, struct group **res)
{
	int (*next)(const char *, struct group *, char *, size_t, struct group **);
	*(void **)(&next) = dlsym(RTLD_NEXT, "getgrnam_r");
	if (!next)
		abort();
	if (len < erange_below) {
		eranged++;
		*res = NULL;
		return ERANGE;
	}
	return next(name, gr, buf, len, res);
}

/* Each group twice, as the same fake database can also answer. */
static int twice, doubled;

int getgrouplist(const char *user, gid_t group, gid_t *groups, int *ngroups)
{
	int (*next)(const char *, gid_t, gid_t *, int *);
	int room = *ngroups;
	*(void **)(&next) = dlsym(RTLD_NEXT, "getgrouplist");
	if (!next)
		abort();
	int r = next(user, group, groups, ngroups);
	if (r < 0)
		return r;
	int k = 0;
	for (int i = 0; i < r; i++) {
		if (groups[i] == drop_gid)
			dropped++;
		else
			groups[k++] = groups[i];
	}
	if (twice && 2 * k <= room) {
		for (int i = 0; i < k; i++)
			groups[k + i] = groups[i];
		k *= 2;
		doubled++;
	}
	*ngroups = k;
	return k;
}

/*
 * The user's hits, judged twice: looking the table's gids up in the call,
 * and with them looked up once beforehand (as a check does for its many
 * users), which must agree hit for hit.
 */
static struct group_hits hits_of(const char *user)
{
	struct account a;
	assert_int_equal(account_lookup(user, &a), ACCOUNT_FOUND);
	struct group_hits h, k;
	struct group_risk_gids known;
	assert_int_equal(account_group_risks(&a, NULL, &h), 0);
	assert_int_equal(group_risk_gids_load(&known), 0);
	assert_true(known.n > 0);
	assert_int_equal(account_group_risks(&a, &known, &k), 0);
	assert_int_equal(h.n, k.n);
	for (size_t i = 0; i < h.n; i++) {
		assert_int_equal(h.v[i].gid, k.v[i].gid);
		assert_int_equal(h.v[i].severity, k.v[i].severity);
		assert_ptr_equal(h.v[i].why, k.v[i].why);
		assert_int_equal(h.v[i].primary, k.v[i].primary);
		assert_int_equal(h.v[i].member, k.v[i].member);
	}
	group_hits_clear(&k);
	group_risk_gids_clear(&known);
	account_clear(&a);
	return h;
}

static void test_fake_database_active(void **state)
{
	(void)state;
	struct account a;
	assert_int_equal(account_lookup("g0p", &a), ACCOUNT_FOUND);
	assert_int_equal(a.gid, 0);
	account_clear(&a);
}

static void test_each_table_group(void **state)
{
	(void)state;
	const char *name, *why;
	ruas_severity sev;
	for (size_t i = 0; ruas_group_risk_at(i, &name, &sev, &why) == 0; i++) {
		char user[16];
		snprintf(user, sizeof user, "g%zu", i);
		struct group_hits h = hits_of(user);
		if (h.n != 1)
			fail_msg("%s (in %s): %zu hits", user, name, h.n);
		assert_string_equal(h.v[0].name, name);
		assert_int_equal(h.v[0].gid, 3000 + i);
		assert_int_equal(h.v[0].severity, sev);
		assert_ptr_equal(h.v[0].why, why);
		assert_false(h.v[0].primary);
		assert_true(h.v[0].member);

		/* The finding: fatal or warning, naming the group, why and the fix. */
		ruas_report *rep = report_new((const char *const[]){"proj"}, 1);
		assert_non_null(rep);
		assert_int_equal(report_groups(rep, 0, "proj", user, &h, 0), 0);
		assert_int_equal(ruas_report_item_count(rep, 0), 1);
		assert_int_equal(ruas_report_item_severity(rep, 0, 0), sev);
		assert_string_equal(ruas_report_item_check(rep, 0, 0), "groups");
		const char *text = ruas_report_item_text(rep, 0, 0);
		char want[512];
		if (sev == RUAS_SEVERITY_FATAL) {
			snprintf(want, sizeof want,
				 "ERROR: project \"proj\": target user \"%s\" is a member of %s, "
				 "which give root without a password.\n  %s: %s.\n",
				 user, name, name, why);
			assert_non_null(strstr(text, want));
			snprintf(want, sizeof want, "\n  gpasswd -d %s %s\n", user, name);
			assert_non_null(strstr(text, want));
			assert_null(strstr(text, "usermod"));
			assert_true(ruas_report_has_fatal(rep));
		} else {
			/* The contract text, then why, then the fix. */
			snprintf(want, sizeof want,
				 "WARNING: project \"proj\": target user \"%s\" is a member of %s, "
				 "which give root or its equivalent (some without a password).\n"
				 "  %s: %s.\n"
				 "Remove it from them, for example: gpasswd -d %s GROUP\n",
				 user, name, name, why, user);
			assert_string_equal(text, want);
			assert_false(ruas_report_has_fatal(rep));
		}
		ruas_report_free(rep);
		group_hits_clear(&h);
	}
}

/*
 * Membership of a group that gives root is read two ways: the user's group
 * list (getgrouplist) and the group's own member list (getgrnam_r), and
 * either is enough. A list that lacks the group must not make it silence.
 */
static void test_member_list_when_the_group_list_lacks_it(void **state)
{
	(void)state;
	const char *name, *why;
	ruas_severity sev;
	for (size_t i = 0; ruas_group_risk_at(i, &name, &sev, &why) == 0; i++) {
		char user[16];
		snprintf(user, sizeof user, "g%zu", i);
		drop_gid = (gid_t)(3000 + i);
		dropped = 0;
		struct group_hits h = hits_of(user);
		drop_gid = (gid_t)-1;
		/* The library's own lookups lost the group (both of hits_of's). */
		if (dropped < 2)
			fail_msg("%s: getgrouplist() dropped %s %d times", user, name, dropped);
		if (h.n != 1)
			fail_msg("%s (in %s, not in its group list): %zu hits", user, name, h.n);
		assert_string_equal(h.v[0].name, name);
		assert_int_equal(h.v[0].gid, 3000 + i);
		assert_int_equal(h.v[0].severity, sev);
		assert_ptr_equal(h.v[0].why, why);
		assert_false(h.v[0].primary);
		assert_true(h.v[0].member);
		group_hits_clear(&h);
	}

	/* One of several: the others come from the list, this one from the group. */
	size_t docker = 0;
	while (ruas_group_risk_at(docker, &name, NULL, NULL) == 0 && strcmp(name, "docker") != 0)
		docker++;
	drop_gid = (gid_t)(3000 + docker);
	dropped = 0;
	struct group_hits h = hits_of("mixed");
	drop_gid = (gid_t)-1;
	assert_true(dropped >= 2);
	int seen = 0;
	for (size_t i = 0; i < h.n; i++)
		seen |= strcmp(h.v[i].name, "docker") == 0 && h.v[i].member && !h.v[i].primary;
	if (!seen || h.n != 3)
		fail_msg("mixed, docker not in its group list: %zu hits, docker %s", h.n,
			 seen ? "among them" : "missing");
	group_hits_clear(&h);
}

/* The table's groups with member lists longer than a first buffer holds. */
static void test_long_member_lists(void **state)
{
	(void)state;
	erange_below = 1u << 20;
	eranged = 0;
	struct group_hits h = hits_of("mixed");
	erange_below = 0;
	assert_true(eranged > 0);
	if (h.n != 3)
		fail_msg("mixed, member lists over a first buffer: %zu hits, not 3", h.n);
	group_hits_clear(&h);
}

/* A list that names a group twice: one hit, one finding. */
static void test_group_listed_twice(void **state)
{
	(void)state;
	twice = 1;
	doubled = 0;
	struct group_hits h = hits_of("mixed");
	twice = 0;
	assert_true(doubled >= 2);
	if (h.n != 3)
		fail_msg("mixed, each group listed twice: %zu hits, not 3", h.n);
	for (size_t i = 0; i < h.n; i++)
		for (size_t k = i + 1; k < h.n; k++)
			assert_int_not_equal(h.v[i].gid, h.v[k].gid);
	group_hits_clear(&h);
}

static void test_gid0_primary(void **state)
{
	(void)state;
	struct group_hits h = hits_of("g0p");
	assert_int_equal(h.n, 1);
	assert_string_equal(h.v[0].name, "root");
	assert_int_equal(h.v[0].gid, 0);
	assert_true(h.v[0].primary);
	assert_false(h.v[0].member);
	assert_int_equal(h.v[0].severity, RUAS_SEVERITY_FATAL);
	char *m = text_of(msg_group_fatal(NULL, "g0p", h.v, h.n));
	assert_non_null(m);
	assert_non_null(strstr(m, "ERROR: target user \"g0p\" is a member of root (gid 0), "
				  "which give root without a password.\n"
				  "  root (gid 0), its primary group: gid 0 is root's own group"));
	assert_non_null(strstr(m, "\n  usermod -g g0p g0p   (a group of its own"));
	assert_null(strstr(m, "gpasswd"));
	free(m);
	group_hits_clear(&h);
}

static void test_gid0_supplementary(void **state)
{
	(void)state;
	struct group_hits h = hits_of("g0s");
	assert_int_equal(h.n, 1);
	assert_int_equal(h.v[0].gid, 0);
	assert_false(h.v[0].primary);
	assert_true(h.v[0].member);
	char *m = text_of(msg_group_fatal("p", "g0s", h.v, h.n));
	assert_non_null(strstr(m, "ERROR: project \"p\": target user \"g0s\" is a member of "
				  "root (gid 0), which give root"));
	assert_non_null(strstr(m, "\n  gpasswd -d g0s root\n"));
	assert_null(strstr(m, "usermod"));
	free(m);
	group_hits_clear(&h);

	/* Primary and listed as a member too: both fixes. */
	h = hits_of("g0b");
	assert_int_equal(h.n, 1);
	assert_true(h.v[0].primary);
	assert_true(h.v[0].member);
	m = text_of(msg_group_fatal(NULL, "g0b", h.v, h.n));
	assert_non_null(strstr(m, "\n  gpasswd -d g0b root\n"));
	assert_non_null(strstr(m, "\n  usermod -g g0b g0b "));
	free(m);
	group_hits_clear(&h);

	/* gid 0 is judged by number, not by a name of the table: its member list is read too. */
	drop_gid = 0;
	dropped = 0;
	h = hits_of("g0s");
	drop_gid = (gid_t)-1;
	assert_true(dropped >= 2);
	if (h.n != 1 || h.v[0].gid != 0 || !h.v[0].member || h.v[0].primary)
		fail_msg("g0s, gid 0 not in its group list: %zu hits", h.n);
	assert_int_equal(h.v[0].severity, RUAS_SEVERITY_FATAL);
	group_hits_clear(&h);
}

static void test_odd_names_and_no_findings(void **state)
{
	(void)state;
	static const char *const users[] = {"odd", "plain", "noname", "root", NULL};
	for (const char *const *u = users; *u; u++) {
		struct group_hits h = hits_of(*u);
		if (strcmp(*u, "root") == 0) {
			/* root itself: gid 0 (preflight refuses root before this). */
			assert_int_equal(h.n, 1);
		} else if (h.n != 0) {
			fail_msg("user %s: %zu hits, first %s", *u, h.n, h.v[0].name);
		}
		group_hits_clear(&h);
	}
}

/* A gid 0 with a hostile name: shown escaped, and one word for the shell. */
static void test_hostile_gid0_name(void **state)
{
	(void)state;
	const char *why;
	assert_int_equal(ruas_group_risk("r$(id) %sudo", 0, &why), RUAS_SEVERITY_FATAL);
	struct group_hit h[] = {
		{(char *)"r$(id) %sudo\n\x1b[2J", 0, 0, 1, RUAS_SEVERITY_FATAL, why, 0},
		{NULL, 0, 1, 0, RUAS_SEVERITY_FATAL, why, 0},
	};
	char *m = text_of(msg_group_fatal(NULL, "t", h, 2));
	assert_non_null(m);
	assert_non_null(strstr(m, "is a member of r$(id) %sudo\\n\\x1b[2J (gid 0), gid 0, which"));
	assert_non_null(strstr(m, "\n  gpasswd -d t $'r$(id) %sudo\\n\\x1b[2J'\n"));
	assert_non_null(strstr(m, "\n  usermod -g t t "));
	for (const char *p = m; *p; p++)
		assert_false(*p == '\x1b');
	free(m);
}

static void test_fatal_and_warning_together(void **state)
{
	(void)state;
	struct group_hits h = hits_of("mixed");
	assert_int_equal(h.n, 3); /* docker, adm, sudo: see main */
	ruas_report *rep = report_new((const char *const[]){"a", "b"}, 2);
	assert_int_equal(report_groups(rep, 1, "b", "mixed", &h, 0), 0);
	assert_int_equal(ruas_report_item_count(rep, 0), 0);
	assert_int_equal(ruas_report_item_count(rep, 1), 2);
	assert_int_equal(ruas_report_item_severity(rep, 1, 0), RUAS_SEVERITY_FATAL);
	const char *t = ruas_report_item_text(rep, 1, 0);
	assert_non_null(strstr(t, "is a member of docker, which give root without"));
	assert_null(strstr(t, "adm"));
	assert_int_equal(ruas_report_item_severity(rep, 1, 1), RUAS_SEVERITY_WARNING);
	t = ruas_report_item_text(rep, 1, 1);
	assert_non_null(strstr(t, "is a member of adm, sudo, which give root or its equivalent"));
	assert_null(strstr(t, "docker"));
	ruas_report_free(rep);

	/* Groups that could not be read are fatal, never silence. */
	rep = report_new((const char *const[]){"a"}, 1);
	assert_int_equal(report_groups(rep, 0, "a", "mixed", &h, 1), 0);
	assert_int_equal(ruas_report_item_count(rep, 0), 1);
	assert_int_equal(ruas_report_item_severity(rep, 0, 0), RUAS_SEVERITY_FATAL);
	assert_non_null(strstr(ruas_report_item_text(rep, 0, 0),
			       "could not check user \"mixed\": its groups could not be read"));
	ruas_report_free(rep);
	group_hits_clear(&h);
}

int main(int argc, char **argv)
{
	struct buf pw = BUF_INIT, gr = BUF_INIT;
	buf_adds(&pw, fixed_passwd);
	buf_adds(&gr, fixed_group);
	const char *name;
	ruas_severity sev;
	for (size_t i = 0; ruas_group_risk_at(i, &name, &sev, NULL) == 0 && i < TABLE_MAX; i++) {
		buf_printf(&pw, "g%zu:x:%zu:%zu::/home/g%zu:/bin/sh\n", i, 2000 + i, 2000 + i, i);
		buf_printf(&gr, "g%zu:x:%zu:\n", i, 2000 + i);
		buf_printf(&gr, "%s:x:%zu:g%zu%s", name, 3000 + i, i,
			   strcmp(name, "docker") == 0 || strcmp(name, "adm") == 0 ||
					   strcmp(name, "sudo") == 0
				   ? ",mixed"
				   : "");
		buf_adds(&gr, "\n");
	}
	if (pw.oom || gr.oom)
		return 99;
	nss_env_reexec(argc, argv, pw.data, gr.data);
	buf_free(&pw);
	buf_free(&gr);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_table_documented),
		cmocka_unit_test(test_fake_database_active),
		cmocka_unit_test(test_each_table_group),
		cmocka_unit_test(test_member_list_when_the_group_list_lacks_it),
		cmocka_unit_test(test_group_listed_twice),
		cmocka_unit_test(test_long_member_lists),
		cmocka_unit_test(test_gid0_primary),
		cmocka_unit_test(test_gid0_supplementary),
		cmocka_unit_test(test_odd_names_and_no_findings),
		cmocka_unit_test(test_hostile_gid0_name),
		cmocka_unit_test(test_fatal_and_warning_together),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
