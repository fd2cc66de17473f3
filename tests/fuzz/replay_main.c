/*
 * replay_main.c: a main() for the libFuzzer targets in a normal (gcc)
 * build. It feeds every file named on the command line, or found one
 * level inside a directory named there, to LLVMFuzzerTestOneInput once,
 * so the seed corpora and every crash input kept under tests/fuzz/regress
 * run in the ordinary suite. A target signals a broken invariant by
 * aborting, which fails the test.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (f == NULL || fseek(f, 0, SEEK_END) < 0 || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) < 0) {
		fprintf(stderr, "%s: cannot read\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	buf = malloc(len > 0 ? (size_t)len : 1);
	if (buf == NULL || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	return 0;
}

static int run_path(const char *path, unsigned long *n)
{
	struct stat st;
	struct dirent *de;
	char sub[4096];
	DIR *d;
	int err = 0;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "%s: no such file or directory\n", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*n)++;
		return run_file(path);
	}
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (stat(sub, &st) == 0 && S_ISREG(st.st_mode)) {
			(*n)++;
			err |= run_file(sub);
		}
	}
	closedir(d);
	return err;
}

int main(int argc, char *argv[])
{
	unsigned long n = 0;
	int err = 0;

	for (int i = 1; i < argc; i++)
		err |= run_path(argv[i], &n);
	if (n == 0) {
		fprintf(stderr, "no inputs\n");
		return 1;
	}
	printf("%lu inputs, no invariant broken\n", n);
	return err ? 1 : 0;
}
