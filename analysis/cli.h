/* cli.h - options shared by the analyser's commands, and the start-up every
 * table command does (read the record, build the model, apply --set, load
 * the machine).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_CLI_H
#define PERFPRED_CLI_H

#include <stdio.h>

#include "machine.h"
#include "model.h"
#include "insitu.h"
#include "whatif.h"
#include "macro-sizes.h"

typedef enum { PP_FMT_TEXT, PP_FMT_CSV, PP_FMT_JSON, PP_FMT_DOT, PP_FMT_SVG, PP_FMT_SYMPY, PP_FMT_MAXIMA } pp_format;

typedef struct {
    int nrec;
    char **rec;
    int nset;
    char **set_name;
    long *set_val;
    const char *machine;
    int nP;
    int *P;
    pp_format format;
    int format_given;
    const char *out;
    int nscale;
    char **scale;
    double Ea, E;
    int has_Ea, has_E;
    int npoints;          /* validate: --point N=512,P=2 (repeatable)     */
    char **points;
    const char *run;      /* validate: --run 'CMD {N} {P}'               */
    int repeat;           /* validate: --repeat K                        */
    int draws;            /* predict, validate: --draws K for intervals  */
    const char *also_csv, *also_json;   /* scale: --csv FILE, --json FILE */
    int cache_rule;       /* --cache-rule on|off: the memory model (on)   */
    double cost_quantile; /* --cost-quantile Q|mean (negative: not given) */
    double model_error;   /* --model-error K (negative: not given)       */
    int view_model;       /* show --view model: an MPI run's model       */
    const char *block;    /* equations --block NAME|FILE:LINE             */
    int insitu_off;       /* --insitu off: the machine file's
                             synchronisation costs as they are           */
    int has_draws;
    pp_whatif with;       /* --with NAME=VALUE,... (repeatable): what-if   */
    char *params;         /* sensitivity --param NAME,...                  */
    char *along;          /* sensitivity --along NAME=V1,V2,...            */
    int by;               /* predict --by loop|function|event (pp_by + 1; 0: none) */
    const char *region;   /* predict --region NAME|FILE:LINE               */
    int threads;          /* predict --threads: every thread, not a summary */
    int on;               /* timeline --on real|pram: 1 real, 2 pram, 0 not given */
    long max_events;      /* timeline --max-events K (0: the default)      */
    long max_size;        /* scale --max S: the searched parameter's
                             largest value (0: none)                     */
    const char *plot;     /* validate --plot FILE.svg                      */
    int replay_warns;     /* a model that does not reproduce its run is a
                             warning (show), not an error (replay.h)      */
    int quiet_default;    /* no notice on stderr for the built-in machine
                             (run-experiment says it once)               */
    int help;
} pp_cli;

/* Parse argv[1..] (argv[0] is the command name).  `allowed` lists the
 * options the command takes, e.g. "set,machine,P,format".  Returns 0, or
 * -1 with a message in err. */
int pp_cli_parse(int argc, char **argv, const char *allowed, pp_cli *c, char *err, size_t errlen);
void pp_cli_free(pp_cli *c);

/* Load the record(s), build the model and apply --set.  Exit status 2 on
 * bad input is the caller's job; this returns -1 with a message. */
typedef struct {
    pp_record rec;        /* the first record: parameters default to it    */
    int nextra;           /* the others (the same program at other sizes)  */
    pp_record *extra;
    int nruns;            /* MPI: the runs given (rec is run 0's rank 0,   */
    struct pp_mpirun_s *runs; /* moved out of it)                          */
    pp_prog prog;
    pp_vals vals;         /* the point --set asked for (the recorded values
                             and those it set; model.h)                  */
    pp_machine mach;
    int have_machine;
    pp_insitu insitu;     /* the synchronisation costs checked against the
                             records (with a machine; see insitu.h)      */
    /* --with: mach has the changes; base is the machine without them,
     * base_cost the program's computation costs without `speed` (costs.h) */
    int has_with;
    pp_machine base;
    double speed;
    double *base_cost;
    pp_macros macros;     /* the size macros of the builds (macro-sizes.h)  */
} pp_session;

int pp_session_open(pp_session *s, const pp_cli *c, int need_machine, char *err, size_t errlen);
void pp_session_close(pp_session *s);

/* T_real at P on the machine without --with (ns): the what-if's baseline. */
int pp_session_baseline_real(pp_session *s, int P, double *t_real, char *err, size_t errlen);

/* One line on the in-situ synchronisation factor (text output). */
void pp_session_insitu_text(const pp_session *s, FILE *f);

/* Print the model's warnings to stderr, once. */
void pp_session_warn(const pp_session *s);

/* The start of every command: parse the options (exit 2 with the usage
 * on error), print the usage for --help (exit 0).  Returns -1 when the
 * command should go on, else the exit status. */
int pp_cli_start(int argc, char **argv, const char *cmd, const char *allowed, const char *usage, pp_cli *c);

/* Open the session for a command: on error prints "perfpred CMD: ..." and
 * returns 2 (the cli is freed); else prints the model's warnings and
 * returns -1. */
int pp_cli_open(const char *cmd, pp_cli *c, int need_machine, pp_session *s);

/* The first line(s) of every output that uses a marked machine file
 * (machine.h, pp_machine_marked): fmt text "warning: ...", CSV
 * "# warning: ..." (each followed by a newline), JSON the member
 * "machine_warning":"...", with its comma, to be printed right after an
 * object's '{'.  Nothing without a machine file or when it is not marked.
 * pp_cli_open has already said it on stderr. */
void pp_session_mark(const pp_session *s, const pp_cli *c, FILE *f, pp_format fmt);

/* Progress on stderr when it is a terminal (a pp_progress_fn). */
void pp_cli_progress(void *ctx, const char *what, int done, int total);

/* JSON string escaping to a stream. */
#include <stdio.h>
void pp_json_str(FILE *f, const char *s);
void pp_json_num(FILE *f, double v);    /* null for NaN/inf */
/* [lo,hi],"interval_parts":{"costs":..,"host":..,"model":..} */
void pp_json_interval(FILE *f, double lo, double hi, double costs, double host, double model, double counts);

/* Seconds, human readable: "1.23 ms". */
const char *pp_fmt_time(double ns, char *buf, size_t n);

#endif
