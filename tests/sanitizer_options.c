/* SPDX-License-Identifier: ISC */
/*
 * sanitizer_options.c - defaults for the ASan+UBSan CI build.
 *
 * .ci/run compiles this file and links it into every program of the
 * sanitizer build (through LIBS). The integration tests run the helper as
 * other users, through sudo -i and PAM, which clear ASAN_OPTIONS; compiled-in
 * defaults reach those processes too. Every report goes to a file under
 * RUAS_SANITIZER_LOG_DIR, and CI fails if any file appears there.
 */
#ifndef RUAS_SANITIZER_LOG_DIR
#error "define RUAS_SANITIZER_LOG_DIR"
#endif

const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

/* Visible, so the sanitizer runtime finds them in every program. */
__attribute__((visibility("default"), used)) const char *__asan_default_options(void)
{
	return "log_path=" RUAS_SANITIZER_LOG_DIR "/asan:detect_leaks=1:abort_on_error=1";
}

__attribute__((visibility("default"), used)) const char *__ubsan_default_options(void)
{
	return "log_path=" RUAS_SANITIZER_LOG_DIR "/ubsan:print_stacktrace=1:halt_on_error=1";
}
