/* SPDX-License-Identifier: ISC */
/*
 * env_rules.c - variables an agent must never receive from the supervisor.
 *
 * Each makes the target's login, its shells, its loader or its everyday
 * tools (git, ssh, less, editors, interpreters, build tools) run code or
 * read configuration from somewhere else than the target's own files. The
 * operator sets such things in the target's own ~/.profile instead, where
 * they are the target's choice and visible in its home. Each entry says
 * why, and the message repeats it. docs/run-as-user.md lists every entry;
 * tests/unit/test_names.c checks that it does.
 */
#include "env_rules.h"

#include <string.h>

#define LOGIN "is part of the target's login environment, which sudo -i and the target's profile set"
#define SHELLS "changes how the target's shells start or parse commands"
#define LOADER "changes what code the target's loader or interpreters run"
#define RUNS "makes the target's tools run a program it names"
#define CONFIG "makes the target's tools read code or configuration from elsewhere"
#define OPTIONS "passes options to the target's tools that can run code"
#define REACHES "points the target's tools at a socket or service that is not the target's own"

static const struct env_rule rules[] = {
	/* The login environment. */
	{"PATH", 0, LOGIN},
	{"HOME", 0, LOGIN},
	{"USER", 0, LOGIN},
	{"LOGNAME", 0, LOGIN},
	{"SHELL", 0, LOGIN},
	{"MAIL", 0, LOGIN},
	{"PWD", 0, LOGIN},
	{"OLDPWD", 0, LOGIN},
	{"TMPDIR", 0, LOGIN},
	{"XDG_RUNTIME_DIR", 0, LOGIN},

	/* Shells. */
	{"BASH_ENV", 0, SHELLS " (bash sources the file it names before every script)"},
	{"ENV", 0, SHELLS " (sh, dash and bash in POSIX mode source the file it names)"},
	{"IFS", 0, SHELLS " (it changes how the shell splits words)"},
	{"CDPATH", 0, SHELLS " (cd then goes elsewhere than the directory named)"},
	{"PS0", 0, SHELLS " (bash expands it, running any $(...) in it, at each prompt)"},
	{"PS1", 0, SHELLS " (bash expands it, running any $(...) in it, at each prompt)"},
	{"PS2", 0, SHELLS " (bash expands it, running any $(...) in it, at each prompt)"},
	{"PS4", 0, SHELLS " (bash expands it, running any $(...) in it, for every traced command)"},
	{"SHELLOPTS", 0, SHELLS " (bash turns on every option it lists)"},
	{"BASHOPTS", 0, SHELLS " (bash turns on every shopt option it lists)"},
	{"GLOBIGNORE", 0, SHELLS " (it changes what globs match)"},
	{"PROMPT_COMMAND", 0, SHELLS " (bash runs it as a command before each prompt)"},
	{"POSIXLY_CORRECT", 0, SHELLS " (bash and the GNU tools change behaviour)"},
	{"HISTFILE", 0, SHELLS " (the shell writes its history to the file it names)"},
	{"ZDOTDIR", 0, SHELLS " (zsh reads its startup files, .zshenv first, from the directory it names)"},
	{"FPATH", 0, SHELLS " (zsh and ksh load functions, which are code, from the directories it lists)"},
	{"BASH_LOADABLES_PATH", 0, SHELLS " (bash's enable -f loads shared objects from the directories it lists)"},
	{"BASH_FUNC_", 1, "belongs to the BASH_FUNC_* family, exported bash functions, which bash "
			  "defines as code when it starts"},

	/* The loader, glibc (its unsecure set, sysdeps/generic/unsecvars.h) and libraries. */
	{"LD_", 1, "belongs to the LD_* family, which the dynamic loader interprets "
		   "(LD_PRELOAD and LD_AUDIT load libraries into every program)"},
	{"MALLOC_", 1, "belongs to the MALLOC_* family, which glibc's allocator interprets"},
	{"GLIBC_TUNABLES", 0, LOADER " (it sets glibc's internals; CVE-2023-4911 made it a root exploit)"},
	{"GCONV_PATH", 0, LOADER " (iconv loads character set modules, shared objects, from the directories it lists)"},
	{"GETCONF_DIR", 0, LOADER " (getconf runs programs from the directory it names)"},
	{"HOSTALIASES", 0, LOADER " (the resolver reads host aliases from the file it names)"},
	{"LOCALDOMAIN", 0, LOADER " (it changes how the resolver looks names up)"},
	{"RES_OPTIONS", 0, LOADER " (it changes how the resolver looks names up)"},
	{"RESOLV_HOST_CONF", 0, LOADER " (the resolver reads its configuration from the file it names)"},
	{"NIS_PATH", 0, LOADER " (it changes where NIS+ looks names up)"},
	{"LOCPATH", 0, LOADER " (glibc loads locale data from the directories it lists)"},
	{"NLSPATH", 0, LOADER " (programs read message catalogs, format strings included, from the paths it lists)"},
	{"TZDIR", 0, LOADER " (glibc reads time zone files from the directory it names)"},
	{"TERMINFO", 0, LOADER " (ncurses parses terminal descriptions from the directory it names; "
			       "that parser has had memory-safety bugs, CVE-2023-29491)"},
	{"TERMINFO_DIRS", 0, LOADER " (ncurses parses terminal descriptions from the directories it lists; "
				    "that parser has had memory-safety bugs, CVE-2023-29491)"},
	{"OPENSSL_CONF", 0, LOADER " (OpenSSL reads the file it names, which can load engines and "
				   "providers: shared objects)"},
	{"OPENSSL_ENGINES", 0, LOADER " (OpenSSL loads engines, shared objects, from the directory it names)"},
	{"OPENSSL_MODULES", 0, LOADER " (OpenSSL loads providers, shared objects, from the directory it names)"},
	{"GTK_MODULES", 0, LOADER " (GTK loads the modules it lists into every program)"},
	{"GTK3_MODULES", 0, LOADER " (GTK loads the modules it lists into every program)"},
	{"GTK_PATH", 0, LOADER " (GTK loads modules from the directories it lists)"},
	{"GIO_EXTRA_MODULES", 0, LOADER " (GIO loads modules from the directories it lists)"},
	{"QT_PLUGIN_PATH", 0, LOADER " (Qt loads plugins from the directories it lists)"},

	/* Interpreters and their package managers. */
	{"PERL5LIB", 0, LOADER " (perl loads modules from the directories it lists first)"},
	{"PERLLIB", 0, LOADER " (perl loads modules from the directories it lists first)"},
	{"PERL5OPT", 0, LOADER " (perl takes it as options, such as -M, which load code)"},
	{"PERL5DB", 0, LOADER " (perl -d runs the code in it as the debugger)"},
	{"PYTHONPATH", 0, LOADER " (python imports modules from the directories it lists first)"},
	{"PYTHONHOME", 0, LOADER " (python loads its standard library from the directory it names)"},
	{"PYTHONSTARTUP", 0, LOADER " (interactive python runs the file it names first)"},
	{"PYTHONWARNINGS", 0, LOADER " (python imports the module that a warning filter in it names)"},
	{"PYTHONINSPECT", 0, LOADER " (python then reads more code from its standard input after a script)"},
	{"PYTHONBREAKPOINT", 0, LOADER " (breakpoint() imports and calls the function it names)"},
	{"PYTHONUSERBASE", 0, LOADER " (python runs the .pth files of the site-packages under it at startup)"},
	{"PYTHONPYCACHEPREFIX", 0, LOADER " (python loads compiled bytecode from the tree it names)"},
	{"RUBYOPT", 0, LOADER " (ruby takes it as options, such as -r, which load code)"},
	{"RUBYLIB", 0, LOADER " (ruby loads libraries from the directories it lists first)"},
	{"GEM_HOME", 0, LOADER " (rubygems loads the plugins of the gems it finds there)"},
	{"GEM_PATH", 0, LOADER " (rubygems loads the plugins of the gems it finds there)"},
	{"BUNDLE_GEMFILE", 0, LOADER " (bundler evaluates the Gemfile it names, which is ruby code)"},
	{"NODE_OPTIONS", 0, LOADER " (node takes it as options, such as --require, which load code)"},
	{"NODE_PATH", 0, LOADER " (node resolves modules from the directories it lists)"},
	{"npm_config_", 1, "belongs to the npm_config_* family, npm's settings, which name the shell "
			   "it runs scripts with and the configuration files it reads"},
	{"NPM_CONFIG_", 1, "belongs to the NPM_CONFIG_* family, npm's settings, which name the shell "
			   "it runs scripts with and the configuration files it reads"},
	{"JAVA_TOOL_OPTIONS", 0, LOADER " (the JVM takes it as options, such as -javaagent, which load code)"},
	{"_JAVA_OPTIONS", 0, LOADER " (the JVM takes it as options, such as -javaagent, which load code)"},
	{"JDK_JAVA_OPTIONS", 0, LOADER " (the java launcher takes it as options, such as -javaagent, which load code)"},
	{"CLASSPATH", 0, LOADER " (java loads classes from the paths it lists)"},
	{"LUA_INIT", 1, "belongs to the LUA_INIT* family: lua runs the code in it, or the file it "
			"names, when it starts"},
	{"LUA_PATH", 1, "belongs to the LUA_PATH* family: lua loads modules from the paths it lists"},
	{"LUA_CPATH", 1, "belongs to the LUA_CPATH* family: lua loads shared objects from the paths it lists"},
	{"PHPRC", 0, LOADER " (php reads its ini from it, and auto_prepend_file there runs code)"},
	{"PHP_INI_SCAN_DIR", 0, LOADER " (php reads more ini files from it, and auto_prepend_file there runs code)"},
	{"DOTNET_STARTUP_HOOKS", 0, LOADER " (.NET runs the assemblies it lists at startup)"},

	/* Build tools. */
	{"GOFLAGS", 0, OPTIONS " (the go command takes it as flags, and -toolexec runs a program)"},
	{"GOENV", 0, CONFIG " (the go command reads its settings, GOFLAGS among them, from the file it names)"},
	{"RUSTC_WRAPPER", 0, RUNS " (cargo runs every compilation through it)"},
	{"RUSTC_WORKSPACE_WRAPPER", 0, RUNS " (cargo runs every compilation through it)"},
	{"CARGO_HOME", 0, CONFIG " (cargo reads its configuration, which names programs to run, from the directory it names)"},

	/* git, ssh, pagers, editors, browsers. */
	{"GIT_SSH", 0, RUNS " (git runs it in place of ssh)"},
	{"GIT_SSH_COMMAND", 0, RUNS " (git runs it in place of ssh)"},
	{"GIT_ASKPASS", 0, RUNS " (git runs it to ask for a password)"},
	{"SSH_ASKPASS", 0, RUNS " (ssh runs it to ask for a passphrase)"},
	{"GIT_EXEC_PATH", 0, RUNS " (git runs its subcommands from the directory it names)"},
	{"GIT_PROXY_COMMAND", 0, RUNS " (git runs it to connect for the git:// protocol)"},
	{"GIT_EXTERNAL_DIFF", 0, RUNS " (git diff runs it)"},
	{"GIT_PAGER", 0, RUNS " (git runs it to show long output)"},
	{"GIT_EDITOR", 0, RUNS " (git runs it to edit messages)"},
	{"GIT_SEQUENCE_EDITOR", 0, RUNS " (git rebase -i runs it)"},
	{"GIT_TEMPLATE_DIR", 0, CONFIG " (git init copies hooks, which are programs, from the directory it names)"},
	{"GIT_DIR", 0, CONFIG " (git uses the repository it names, whose config and hooks run programs)"},
	{"GIT_COMMON_DIR", 0, CONFIG " (git uses the repository it names, whose config and hooks run programs)"},
	{"GIT_CONFIG", 0, CONFIG " (git config reads the file it names)"},
	{"GIT_CONFIG_", 1, "belongs to the GIT_CONFIG_* family (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, "
			   "GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n...), "
			   "which sets git's configuration, and core.sshCommand, core.pager or "
			   "core.fsmonitor there run programs"},
	{"PAGER", 0, RUNS " (man, git and others run it to show long output)"},
	{"MANPAGER", 0, RUNS " (man runs it to show pages)"},
	{"SYSTEMD_PAGER", 0, RUNS " (systemctl and journalctl run it to show long output)"},
	{"MANOPT", 0, OPTIONS " (man takes it as options, and -P names a pager to run)"},
	{"LESS", 0, OPTIONS " (less takes it as options, and a +! option runs a shell command)"},
	{"LESSOPEN", 0, RUNS " (less runs it on every file it opens)"},
	{"LESSCLOSE", 0, RUNS " (less runs it on every file it closes)"},
	{"LESSEDIT", 0, RUNS " (less runs it as its editor command)"},
	{"LESSKEY", 0, CONFIG " (less reads key bindings, which can run shell commands, from the file it names)"},
	{"LESSKEYIN", 0, CONFIG " (less reads key bindings, which can run shell commands, from the file it names)"},
	{"LESSKEY_CONTENT", 0, CONFIG " (less takes key bindings, which can run shell commands, from it)"},
	{"EDITOR", 0, RUNS " (git, crontab and others run it to edit a file)"},
	{"VISUAL", 0, RUNS " (git, crontab and others run it to edit a file)"},
	{"SYSTEMD_EDITOR", 0, RUNS " (systemctl edit runs it)"},
	{"BROWSER", 0, RUNS " (xdg-open, python's webbrowser and others run it to open a URL)"},
	{"XDG_CONFIG_HOME", 0, CONFIG " (git, fish, systemd --user and many others read their "
				      "configuration, some of it programs, from there)"},
	{"XDG_CONFIG_DIRS", 0, CONFIG " (git, fish, systemd --user and many others read their "
				      "configuration, some of it programs, from there)"},
	{"XDG_DATA_HOME", 0, CONFIG " (bash-completion sources scripts, and desktop tools read "
				    "launchers, from there)"},
	{"XDG_DATA_DIRS", 0, CONFIG " (bash-completion sources scripts, and desktop tools read "
				    "launchers, from there)"},

	/* Credentials, containers and sessions: code they run, sockets they reach. */
	{"KUBECONFIG", 0, CONFIG " (kubectl and client-go read the files it lists, whose exec "
				 "credential plugins are programs they run)"},
	{"KUBE_EDITOR", 0, RUNS " (kubectl edit runs it)"},
	{"KUBECTL_EXTERNAL_DIFF", 0, RUNS " (kubectl diff runs it)"},
	{"DOCKER_HOST", 0, REACHES " (docker talks to the daemon it names, and a daemon that runs "
			       "as root is root to whoever reaches it)"},
	{"CONTAINER_HOST", 0, REACHES " (podman --remote talks to the service it names, which may "
				  "run as root)"},
	{"DOCKER_CONFIG", 0, CONFIG " (docker reads config.json from the directory it names, whose "
				    "credsStore and credHelpers are programs it runs)"},
	{"AWS_CONFIG_FILE", 0, CONFIG " (the AWS CLI and SDKs read the file it names, whose "
				      "credential_process is a program they run)"},
	{"AWS_SHARED_CREDENTIALS_FILE", 0, CONFIG " (the AWS CLI and SDKs read the file it names, "
						  "whose credential_process is a program they run)"},
	{"TF_CLI_CONFIG_FILE", 0, CONFIG " (terraform reads the file it names, whose "
					 "credentials_helper is a program it runs)"},
	{"SSH_AUTH_SOCK", 0, REACHES " (ssh and git use the agent at the socket it names, and with "
				 "it whoever's keys that agent holds)"},
	{"GNUPGHOME", 0, CONFIG " (gpg reads its configuration, which names programs it runs, and "
				"uses the agent and keys of the directory it names)"},
	{"DBUS_SESSION_BUS_ADDRESS", 0, REACHES " (tools talk to the bus it names, and a user's "
					    "session bus starts programs as that user)"},
	{"DBUS_SYSTEM_BUS_ADDRESS", 0, REACHES " (tools take the bus it names for the system's, and "
					   "trust what it answers)"},

	/* sudo and ruas itself. */
	{"SUDO_", 1, "belongs to the SUDO_* family, which sudo sets or interprets "
		     "(SUDO_ASKPASS and SUDO_EDITOR name programs that sudo runs)"},
	{"RUAS_", 1, "belongs to the RUAS_* family, which is reserved for ruas itself"},
};

const struct env_rule *env_rules(size_t *n)
{
	*n = sizeof rules / sizeof *rules;
	return rules;
}

const struct env_rule *env_rule_find(const char *name)
{
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
		const struct env_rule *r = &rules[i];
		if (r->prefix ? strncmp(name, r->name, strlen(r->name)) == 0
			      : strcmp(name, r->name) == 0)
			return r;
	}
	return NULL;
}
