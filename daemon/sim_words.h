/*
 * sim_words.h: a host's args as the words /bin/sh would hand
 * reckon-agent. The emulator runs `exec reckon-agent ROLE ARGS` through
 * sh; the simulator has no shell, so it splits ARGS itself with sh's
 * quoting rules (blanks separate words; '...' is literal; "..." keeps
 * blanks and takes \ before \ " $ ` and newline; \ outside quotes takes
 * the next character) and refuses what only a shell could do (variables,
 * command substitution, redirection, pipes, globs), naming it.
 */
#ifndef RECKON_SIM_WORDS_H
#define RECKON_SIM_WORDS_H

#include <stddef.h>

struct sim_words {
	int argc;
	char **argv; /* argv[0] is the command name; argv[argc] is NULL */
	char *buf;   /* storage of the words */
};

/* Split text into w, with argv[0] = cmd. 0; -EINVAL with the reason in err
 * (unterminated quote, shell syntax); -ENOMEM. */
int sim_words_split(const char *cmd, const char *text, struct sim_words *w,
		    char *err, size_t errlen);
void sim_words_free(struct sim_words *w);

#endif
