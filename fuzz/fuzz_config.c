/* fuzz_config - ruas_config_load_buffer on arbitrary bytes: never crash, leak or accept a root run_as_user. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "config/config_int.h"
#include "ruas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ruas_config *cfg = NULL;
	ruas_error *err = NULL;
	ruas_config_options o = RUAS_CONFIG_OPTIONS_INIT;
	o.supervisor_uid = 4242;
	if (ruas_config_load_buffer(&cfg, (const char *)data, size, "fuzz.conf", &o, &err) == 0) {
		for (size_t i = 0; i < ruas_config_project_count(cfg); i++) {
			const ruas_project *p = ruas_config_project_at(cfg, i);
			const char *u = ruas_project_run_as_user(p);
			/* Properties of every accepted configuration. */
			if (u && (strcmp(u, "root") == 0 || ruas_user_name_problem(u)))
				__builtin_trap();
			if (ruas_project_work_dir(p)[0] != '/' || !ruas_project_command(p)[0] ||
			    !ruas_project_command(p)[0][0])
				__builtin_trap();
			for (const char *const *a = ruas_project_env_allowlist(p); *a; a++)
				if (strcmp(*a, "PATH") == 0 || strncmp(*a, "LD_", 3) == 0)
					__builtin_trap();
		}
		ruas_config_free(cfg);
	} else if (!err || !ruas_error_message(err)[0]) {
		__builtin_trap(); /* every refusal says why */
	}
	ruas_error_free(err);
	return 0;
}
