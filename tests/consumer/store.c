/* SPDX-License-Identifier: ISC */
/* store.c - docs/library.md's example of projects built in code (tests/pkgconfig.sh). */
#include <ruas.h>
#include <stdio.h>

/*
 * Rows of the supervisor's own store (docs/library.md names its own users;
 * here an account every Debian host has): the second is hostile, the third
 * names an account that does not exist, which the library refuses.
 */
static const struct {
	const char *name, *user, *dir;
} store[] = {
	{"claude", "nobody", "/srv/partseeker"},
	{"x\"; run_as_user = \"root\"; } ); #", "agent2", "/srv/x"},
	{"gone", "ruas-no-such-user", "/srv/gone"},
};

int main(void)
{
	static const char *const allow[] = {"LANG", "TERM", "ANTHROPIC_API_KEY", NULL};
	static const char *const command[] = {"claude", "--print", NULL};
	ruas_config_globals g = RUAS_CONFIG_GLOBALS_INIT;
	ruas_config *cfg;
	ruas_error *err = NULL;

	g.name = "the project store";
	g.env_allowlist = allow;
	if (ruas_config_new(&cfg, &g, NULL, &err) < 0) {
		fprintf(stderr, "%s\n", ruas_error_message(err));
		ruas_error_free(err);
		return 2;
	}
	for (size_t i = 0; i < sizeof store / sizeof *store; i++) {
		ruas_project_spec spec = RUAS_PROJECT_SPEC_INIT;
		spec.name = store[i].name;
		spec.run_as_user = store[i].user;
		spec.work_dir = store[i].dir;
		spec.command = command;
		if (ruas_config_add_project(cfg, &spec, &err) < 0) {
			/* The same refusal as in ruas.conf, without a file and line. */
			fprintf(stderr, "skipped: %s\n", ruas_error_message(err));
			ruas_error_free(err);
			err = NULL;
		}
	}
	printf("%zu project(s)\n", ruas_config_project_count(cfg));
	/* From here on as with a loaded file: ruas_preflight(), ruas_spawn(). */
	ruas_config_free(cfg);
	return 0;
}
